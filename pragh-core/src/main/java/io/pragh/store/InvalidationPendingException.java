package io.pragh.store;

import io.pragh.fabric.FabricException;

/**
 * A GET (or a MIGRATE) found its key's newest record still flagged
 * {@link io.pragh.values.ValueRecord#INVALIDATION_PENDING} for longer than it may wait: the operation that published
 * it has not yet invalidated the record it replaced (its machine is cut off mid-operation, or stalled). Returning the
 * value then could let a later GET read an older one (moving it on could let a later update outrun that
 * invalidation), so the operation is refused instead. {@linkplain #retryable() Retryable}: the publisher, or the settle pass of
 * unfinished migrations, clears the flag.
 *
 * <pre>{@code
 * try { v = session.get(key); } catch (InvalidationPendingException e) { retryLater(key); }
 * }</pre>
 */
public final class InvalidationPendingException extends FabricException {
    private static final long serialVersionUID = 1L;

    public InvalidationPendingException(String message) {
        super(message, true);
    }
}
