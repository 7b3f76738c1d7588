package io.pragh;

/**
 * Base of every error Pragh raises on purpose. The message always names what was wrong.
 *
 * <pre>{@code
 * try { machine.put(key, bytes); } catch (PraghException e) { log.warn(e.getMessage()); }
 * }</pre>
 */
public class PraghException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PraghException(String message) {
        super(message);
    }

    public PraghException(String message, Throwable cause) {
        super(message, cause);
    }
}
