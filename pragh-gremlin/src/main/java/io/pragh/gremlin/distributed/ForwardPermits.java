package io.pragh.gremlin.distributed;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bound on the traversals one machine forwards at once, and the counts of what it decided: a forward takes a
 * permit without waiting or is refused, and returns it when it ends. Refused traversals run where they arrived.
 *
 * <p>Example: {@code if (permits.tryAcquire()) { try { forward(); } finally { permits.release(); } } else { runHere(); }}
 */
final class ForwardPermits {
    private final int max;
    // Not a Semaphore: a release beyond its permits silently raises the bound, where a double return here must fail.
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong forwarded = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();

    /** @param max forwards in flight at once; at least 1 */
    ForwardPermits(final int max) {
        if (max < 1) {
            throw new IllegalArgumentException("forwards in flight at once must be at least 1, got " + max);
        }
        this.max = max;
    }

    /** Takes a permit (counted as forwarded) or, with all {@code max} taken, counts a refusal and returns false. */
    boolean tryAcquire() {
        int n;
        do {
            n = inFlight.get();
            if (n >= max) {
                refused.incrementAndGet();
                return false;
            }
        } while (!inFlight.compareAndSet(n, n + 1));
        forwarded.incrementAndGet();
        return true;
    }

    /** Returns a permit; more returns than takes is a bug in the caller, reported rather than widening the bound. */
    void release() {
        int n;
        do {
            n = inFlight.get();
            if (n == 0) {
                throw new IllegalStateException("a forwarding permit was returned that was not taken");
            }
        } while (!inFlight.compareAndSet(n, n - 1));
    }

    int max() {
        return max;
    }

    /** Permits taken and not yet returned. */
    int inFlight() {
        return inFlight.get();
    }

    /** Permits ever taken. */
    long forwarded() {
        return forwarded.get();
    }

    /** Requests for a permit refused because all were taken. */
    long refused() {
        return refused.get();
    }
}
