package io.pragh.runtime;

import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Ids for the requests one incarnation of a machine waits answers for, when the answer comes back as a message
 * addressed by machine id (an update's ACK, a home batch's BATCH_ACK). Such an answer may reach a later incarnation
 * of the machine: the origin crashed and started again while the answer was on its way, and the peer's fabric
 * connected to the new process, which now holds that id. Numbered from 1 in every incarnation, the new process's
 * request of the same number would take the old answer for its own: an update acknowledged that never reached its
 * home. So each incarnation starts its count at a random 64-bit point and counts up from there; an old answer then
 * finds no request of its id (and is dropped) unless the two incarnations' ranges overlap, which for incarnations of
 * n1 and n2 requests happens with probability about (n1 + n2) / 2^64: under 10^-7 for a trillion requests each.
 *
 * <p>Why not an incarnation number carried in every request and answer: it changes the wire format of every message
 * that carries a request id, and a machine without durable state (an in-memory cluster) has no counter to persist,
 * so its incarnation number would have to be random anyway. A random start gives the same protection with the
 * formats as they are. Ids wrap around from {@link Long#MAX_VALUE} to {@link Long#MIN_VALUE}; nobody orders them.
 *
 * <pre>{@code
 * RequestIds ids = new RequestIds();          // one per incarnation
 * long request = ids.next();
 * }</pre>
 */
public final class RequestIds {
    /** Seeded from the OS (non-blocking on Linux: /dev/urandom), once per incarnation. */
    private static final SecureRandom STARTS = new SecureRandom();

    private final AtomicLong last;

    /** A count from a random start, for one incarnation. */
    public RequestIds() {
        this.last = new AtomicLong(STARTS.nextLong());
    }

    /** The next id, never repeated within this incarnation (until 2^64 ids were taken). */
    public long next() {
        return last.incrementAndGet();
    }
}
