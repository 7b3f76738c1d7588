package io.pragh.store;

import io.pragh.fabric.FabricException;

/**
 * A GET kept finding its key's address word pointing at memory that does not hold the key (reclaimed, or reused by
 * another record, e.g. on a host that restarted before the key's home put the value back): the home's own word, read
 * afresh, named the same invalid record several times in a row, so waiting for a concurrent update or migration to
 * move it on would not help. {@linkplain #retryable() Retryable}: recovery resets such words.
 *
 * <pre>{@code
 * try { v = session.get(key); } catch (StaleAddressException e) { retryAfterRecovery(key); }
 * }</pre>
 */
public final class StaleAddressException extends FabricException {
    private static final long serialVersionUID = 1L;

    public StaleAddressException(String message) {
        super(message, true);
    }
}
