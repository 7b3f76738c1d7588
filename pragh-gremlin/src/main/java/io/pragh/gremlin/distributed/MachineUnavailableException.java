package io.pragh.gremlin.distributed;

import io.pragh.PraghException;
import org.apache.tinkerpop.gremlin.structure.util.TemporaryException;

/**
 * A Gremlin request needed a machine that is down or unreachable: the same request may succeed once the machine is
 * back (or restarted by its supervisor), so Gremlin Server answers it with {@code SERVER_ERROR_TEMPORARY} (596), the
 * status drivers read as "retry", and this message, which names the machines by id and address. It carries no stack
 * trace: Gremlin Server copies one into the answer's status attributes, and what failed where is all in the message.
 *
 * <p>Example: {@code throw new MachineUnavailableException("machine 2 (127.0.0.1:7402) is unreachable; retry once it
 * is back");}
 */
public final class MachineUnavailableException extends PraghException implements TemporaryException {
    private static final long serialVersionUID = 1L;

    public MachineUnavailableException(final String message) {
        super(message);
    }

    /** No stack: the message is the whole story, and Gremlin Server would send the stack to the client. */
    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
