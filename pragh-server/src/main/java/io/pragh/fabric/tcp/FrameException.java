package io.pragh.fabric.tcp;

import io.pragh.fabric.FabricException;

/**
 * A peer broke the wire protocol: unknown frame type, a length that disagrees with the type, a frame over the size
 * limit, a frame out of turn. The connection it came on is closed; retrying the same bytes cannot succeed.
 *
 * <pre>{@code
 * throw new FrameException("READ frame body must be 17 bytes, got 5");
 * }</pre>
 */
public final class FrameException extends FabricException {
    private static final long serialVersionUID = 1L;

    public FrameException(String message) {
        super(message, false);
    }
}
