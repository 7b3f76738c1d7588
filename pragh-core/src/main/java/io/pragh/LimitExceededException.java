package io.pragh;

/**
 * A request exceeded one of Pragh's hard limits (value size, migratable size, machine count, region capacity).
 * The message names the limit and the offending figure; nothing already stored is touched.
 *
 * <pre>{@code
 * Address.local(units, offset); // throws LimitExceededException("value of 5 GiB exceeds the 4 GiB limit ...")
 * }</pre>
 */
public final class LimitExceededException extends PraghException {
    private static final long serialVersionUID = 1L;

    public LimitExceededException(String message) {
        super(message);
    }
}
