package io.pragh.fabric;

import io.pragh.PraghException;

/**
 * A fabric operation failed: the peer is unreachable, the fabric is closed, or the peer refused the operation.
 * {@link #retryable()} says whether the same operation may succeed later (a peer down), as opposed to a request
 * that is wrong in itself (an offset outside the region).
 */
public class FabricException extends PraghException {
    private static final long serialVersionUID = 1L;
    private final boolean retryable;

    public FabricException(String message, boolean retryable) {
        super(message);
        this.retryable = retryable;
    }

    public FabricException(String message, boolean retryable, Throwable cause) {
        super(message, cause);
        this.retryable = retryable;
    }

    public boolean retryable() {
        return retryable;
    }
}
