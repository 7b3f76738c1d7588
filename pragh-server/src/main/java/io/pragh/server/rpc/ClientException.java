package io.pragh.server.rpc;

import io.pragh.PraghException;

/**
 * A client RPC failed. {@link #retryable()} is true when the same request may succeed later (a machine it needs is
 * down or unreachable, it timed out, the connection broke) and false when the request itself is wrong.
 *
 * <pre>{@code
 * try { client.put(key, value); } catch (ClientException e) { if (e.retryable()) { retryLater(); } else throw e; }
 * }</pre>
 */
public final class ClientException extends PraghException {
    private static final long serialVersionUID = 1L;
    private final boolean retryable;

    public ClientException(String message, boolean retryable) {
        super(message);
        this.retryable = retryable;
    }

    public ClientException(String message, boolean retryable, Throwable cause) {
        super(message, cause);
        this.retryable = retryable;
    }

    public boolean retryable() {
        return retryable;
    }
}
