package io.pragh.reclaim;

import io.pragh.PraghException;
import io.pragh.fabric.Endpoint;
import io.pragh.fabric.Region;
import io.pragh.memory.ChunkedRegion;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The reclaim rings of a cluster: every machine's RECLAIM region holds one ring per peer (itself included), a
 * circular array of 8-byte address words. A machine that invalidated a record on machine X posts the record's
 * address into its own ring on X one-sidedly; X's GC thread ({@link Reclaimer}) takes it from there. Posting is a
 * CAS of an empty slot (0) to the address, so a full ring is detected rather than overwritten.
 *
 * <pre>
 *  RECLAIM region of machine X: | ring of machine 0 | ring of machine 1 | ... | each: slots x 8 bytes |
 * </pre>
 * This class is the writer side of one machine: a slot cursor per target ring, claimed atomically so that the
 * migration threads never post to the same slot. Records of the machine itself skip its own ring and go to its GC
 * thread directly, so that a post after a won CAS never waits and never fails.
 */
public final class ReclaimRings {
    /** How long a poster waits for a full ring to drain before giving up and counting a leak. */
    private static final long FULL_RING_PATIENCE_NANOS = 5_000_000_000L;

    private final int self;
    private final int slots;
    private final Endpoint endpoint;
    private final ChunkedRegion localRegion;
    private final AtomicLong[] cursors;
    private final AtomicLong leaked = new AtomicLong();
    private final Reclaimer localReclaimer;

    public ReclaimRings(int self, int machines, int slots, Endpoint endpoint, ChunkedRegion localRegion,
                        Reclaimer localReclaimer) {
        this.self = self;
        this.localReclaimer = localReclaimer;
        this.slots = slots;
        this.endpoint = endpoint;
        this.localRegion = localRegion;
        this.cursors = new AtomicLong[machines];
        for (int i = 0; i < machines; i++) {
            cursors[i] = new AtomicLong();
        }
    }

    /** Bytes of the RECLAIM region each machine needs. */
    public static long regionBytes(int machines, int slots) {
        return (long) machines * slots * 8;
    }

    public static long ringOffset(int writer, int slots) {
        return (long) writer * slots * 8;
    }

    /**
     * Records that leaked because a ring stayed full. Their headers are already zeroed, so the background leak scan
     * (which looks for valid records no address word names) does not find them either; this count is all that is
     * known of them.
     */
    public long leaked() {
        return leaked.get();
    }

    /**
     * Hands an invalidated record on {@code host} to that machine's GC thread. A record of this machine goes straight
     * to its own GC thread ({@link Reclaimer#retire}), which never blocks: this is what writers call after their CAS
     * won, and a full ring must not make them report failed an update that took effect.
     */
    public void post(int host, long address) {
        if (host == self) {
            localReclaimer.retire(address);
            return;
        }
        postAt(host, claim(host), address);
    }

    /**
     * Claims the next slot of this machine's ring on {@code host}; the caller fills it with a CAS from 0, possibly in
     * a batch, and falls back to {@link #postAt} when that CAS finds the slot still occupied.
     */
    public long claim(int host) {
        long index = cursors[host].getAndIncrement() % slots;
        return ringOffset(self, slots) + index * 8;
    }

    /** Fills a claimed slot, waiting for the host's GC to empty it if the ring is full. */
    public void postAt(int host, long offset, long address) {
        long deadline = 0;
        while (true) {
            long seen = host == self && endpoint.cpuAtomicsCoherent()
                ? localRegion.compareAndExchangeLong(offset, 0, address)
                : endpoint.compareAndSwap(host, Region.RECLAIM, offset, 0, address);
            if (seen == 0) {
                return;
            }
            long now = System.nanoTime();
            if (deadline == 0) {
                deadline = now + FULL_RING_PATIENCE_NANOS;
            } else if (now > deadline) {
                leaked.incrementAndGet();
                throw new PraghException("reclaim ring of machine " + self + " on machine " + host + " stayed full for"
                    + " 5 s (" + slots + " slots); the record is left for the leak scan");
            }
            Thread.onSpinWait();
        }
    }
}
