package io.pragh.gremlin.storage;

/**
 * A stored value does not decode as the record its key promises: a bug or a value written by another format.
 *
 * <p>Example: {@code throw new CorruptRecordException("unknown value tag 99");}
 */
public final class CorruptRecordException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CorruptRecordException(final String message) {
        super(message);
    }
}
