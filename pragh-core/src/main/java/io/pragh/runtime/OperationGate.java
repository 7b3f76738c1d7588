package io.pragh.runtime;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Admits operations that touch a machine's off-heap memory until the machine closes, then lets the closer wait until
 * every admitted operation has left: memory is freed only once no thread can still read or write it. Threads the
 * machine owns are joined instead; the gate is for threads it does not own (an application's, a server's), which
 * call in at any time and cannot be joined.
 *
 * <p>Counters striped over cache lines, one stripe per thread-confined user (a session), so that entering costs two
 * uncontended atomic increments and no allocation: the GET path can afford it. Entering increments, then reads the
 * closed flag; closing writes the flag, then reads the counters. Both sides are sequentially consistent (a volatile
 * read-modify-write, a volatile write, volatile reads), so either the closer sees the entrant's count or the entrant
 * sees the flag and backs out: no operation slips in unseen (Dekker's handshake).
 *
 * <pre>{@code
 * OperationGate gate = new OperationGate();
 * int stripe = gate.stripe();                 // once per thread-confined user
 * if (gate.enter(stripe)) {
 *     try { readOffHeap(); } finally { gate.exit(stripe); }
 * }
 * gate.close();
 * boolean quiet = gate.awaitDrained(30, TimeUnit.SECONDS);
 * }</pre>
 */
public final class OperationGate {
    private static final int STRIPES = 64;
    /** Longs per stripe: one 64-byte cache line each, so users of neighbouring stripes do not share a line. */
    private static final int PAD = 8;

    private final AtomicLongArray inside = new AtomicLongArray(STRIPES * PAD);
    private final AtomicInteger stripes = new AtomicInteger();
    private volatile boolean closed;

    /** A stripe for a new user; round robin, so that a few threads rarely share one. */
    public int stripe() {
        return (stripes.getAndIncrement() & (STRIPES - 1)) * PAD;
    }

    /**
     * Admits an operation through {@code stripe}; false once closed (then nothing was admitted and nothing needs
     * {@link #exit}). An operation may enter again while inside: nested entries are counted like any other, and
     * refused like any other once closed.
     */
    public boolean enter(int stripe) {
        // Volatile RMW, then volatile read: see the class comment for why this order cannot miss a close.
        inside.getAndIncrement(stripe);
        if (closed) {
            inside.getAndDecrement(stripe);
            return false;
        }
        return true;
    }

    /** Lets an admitted operation out through the stripe it entered by. */
    public void exit(int stripe) {
        inside.getAndDecrement(stripe);
    }

    /** Admits nothing from now on; operations already inside go on. */
    public void close() {
        closed = true;
    }

    public boolean isClosed() {
        return closed;
    }

    /** Operations inside now (summed stripe by stripe, so only a hint while operations come and go). */
    public long inside() {
        long n = 0;
        for (int s = 0; s < STRIPES; s++) {
            n += inside.get(s * PAD);
        }
        return n;
    }

    /**
     * Closes the gate and waits until every operation admitted before has left.
     *
     * @return false when some were still inside after {@code timeout}
     */
    public boolean awaitDrained(long timeout, TimeUnit unit) throws InterruptedException {
        close();
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        // Stripe by stripe: once closed a stripe's count only rises for an entrant about to back out, so a stripe
        // seen at zero has no admitted operation left, and need not be looked at again.
        for (int s = 0; s < STRIPES; s++) {
            while (inside.get(s * PAD) > 0) {
                if (System.nanoTime() > deadline) {
                    return false;
                }
                TimeUnit.MILLISECONDS.sleep(1);
            }
        }
        return true;
    }
}
