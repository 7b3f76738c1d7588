package io.pragh.store;

import io.pragh.PraghException;
import io.pragh.runtime.OperationGate;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admission of one machine's operations: every thread the store does not own (an application's, a server's, the
 * fabric's) enters through it before touching the store's memory, and closing refuses new entries and waits for
 * those inside to leave, so that memory is freed only once nothing can touch it. Names the machine in the errors
 * operations see once it closes.
 *
 * <pre>{@code
 * StoreGate gate = store.gate();
 * gate.enter(session.gateStripe);      // throws "machine N is closed" once closing
 * try { readOffHeap(); } finally { gate.exit(session.gateStripe); }
 * }</pre>
 */
final class StoreGate {
    private static final Logger LOG = LoggerFactory.getLogger(StoreGate.class);

    private final int id;
    private final OperationGate gate = new OperationGate();
    private volatile boolean closed;

    StoreGate(int id) {
        this.id = id;
    }

    /** A stripe for a new session (see {@link OperationGate#stripe}). */
    int stripe() {
        return gate.stripe();
    }

    /** Admits an operation of the calling thread, whose session has {@code stripe}; refuses once closing. */
    void enter(int stripe) {
        if (!gate.enter(stripe)) {
            throw new PraghException("machine " + id + " is closed");
        }
    }

    /** Admits a message or a background step unless closing: false then, and the caller does nothing. */
    boolean tryEnter(int stripe) {
        return gate.enter(stripe);
    }

    void exit(int stripe) {
        gate.exit(stripe);
    }

    /** Whether {@link #close} has been called: operations are refused from then on. */
    boolean isClosing() {
        return closed;
    }

    /** What an operation that failed because its machine closed under it reports, with the failure as cause. */
    PraghException closedWhile(String what, Throwable cause) {
        return new PraghException("machine " + id + " closed while " + what + " was in flight", cause);
    }

    /** Refuses every operation from now on; those inside go on until they leave. */
    void close() {
        closed = true;
        gate.close();
    }

    /**
     * Waits until every admitted operation has left, at most {@code patienceMillis}.
     *
     * @return false when one was still inside by then (named in the log) or the wait was interrupted
     */
    boolean awaitDrained(long patienceMillis) {
        try {
            if (gate.awaitDrained(patienceMillis, TimeUnit.MILLISECONDS)) {
                return true;
            }
            LOG.warn("machine {} still had {} operation(s) running {} ms after it began to close", id, gate.inside(),
                patienceMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }
}
