package io.pragh.reclaim;

import io.pragh.address.Address;
import io.pragh.memory.ChunkedRegion;
import io.pragh.runtime.DutyThread;
import io.pragh.values.ValueRegion;
import java.util.concurrent.TimeUnit;

/**
 * The GC thread of one machine: drains the reclaim rings in its RECLAIM region, and frees each record once the
 * reclaim lease has passed since it was taken from a ring. Entries are taken in order, so the pending queue is
 * ordered by time and freeing only ever looks at its head.
 */
public final class Reclaimer extends DutyThread {
    private final ChunkedRegion rings;
    private final int machines;
    private final int slots;
    private final ValueRegion values;
    private final long leaseNanos;
    private final long[] readCursors;
    private long[] pendingAddress = new long[1024];
    private long[] pendingSince = new long[1024];
    private int head;
    private int tail;
    private volatile long freed;
    /** Written only by {@link #drainOnce} (under its lock); volatile for readers outside it. */
    private volatile long pendingBytes;

    public Reclaimer(int machine, ChunkedRegion rings, int machines, int slots, ValueRegion values, Leases leases) {
        super("m" + machine + "-gc", pollNanosFor(leases));
        this.rings = rings;
        this.machines = machines;
        this.slots = slots;
        this.values = values;
        this.leaseNanos = TimeUnit.MILLISECONDS.toNanos(leases.reclaimMillis());
        this.readCursors = new long[machines];
    }

    /** Poll often enough that a record waits little beyond its lease, rarely enough to cost nothing. */
    private static long pollNanosFor(Leases leases) {
        return Math.max(100_000L, Math.min(10_000_000L, TimeUnit.MILLISECONDS.toNanos(leases.reclaimMillis()) / 20));
    }

    /** Records freed so far. */
    public long freed() {
        return freed;
    }

    /**
     * Bytes of the value region held by the records taken from rings and waiting for their lease (size-class
     * rounding included): the memory superseded values cost. Records still in a ring are not counted yet.
     */
    public long pendingBytes() {
        return pendingBytes;
    }

    /** Records taken from rings and waiting for their lease. */
    public synchronized int pending() {
        return tail - head;
    }

    @Override
    protected int doWork() {
        drainOnce(System.nanoTime());
        // Always park: records become free by the passing of time, not by new work arriving.
        return 0;
    }

    /** One pass: take new ring entries, free the expired ones. Public so tests can drive time. */
    public synchronized int drainOnce(long nowNanos) {
        for (int writer = 0; writer < machines; writer++) {
            long base = ReclaimRings.ringOffset(writer, slots);
            while (true) {
                long offset = base + (readCursors[writer] % slots) * 8;
                long address = rings.getLongVolatile(offset);
                if (address == 0) {
                    break;
                }
                push(address, nowNanos);
                // Release: the slot is offered back to its writer only after we own the address.
                rings.putLongRelease(offset, 0);
                readCursors[writer]++;
            }
        }
        int n = 0;
        while (head < tail && nowNanos - pendingSince[head] >= leaseNanos) {
            long address = pendingAddress[head++];
            values.free(Address.offsetUnits(address), Address.sizeUnits(address));
            pendingBytes -= values.classUnits(Address.sizeUnits(address)) << 3;
            n++;
        }
        if (head == tail) {
            head = 0;
            tail = 0;
        }
        freed += n;
        return n;
    }

    private void push(long address, long since) {
        if (tail == pendingAddress.length) {
            int live = tail - head;
            if (head > 0 && live < pendingAddress.length / 2) {
                System.arraycopy(pendingAddress, head, pendingAddress, 0, live);
                System.arraycopy(pendingSince, head, pendingSince, 0, live);
            } else {
                pendingAddress = java.util.Arrays.copyOf(pendingAddress, pendingAddress.length * 2);
                pendingSince = java.util.Arrays.copyOf(pendingSince, pendingSince.length * 2);
                System.arraycopy(pendingAddress, head, pendingAddress, 0, live);
                System.arraycopy(pendingSince, head, pendingSince, 0, live);
            }
            head = 0;
            tail = live;
        }
        pendingAddress[tail] = address;
        pendingSince[tail++] = since;
        pendingBytes += values.classUnits(Address.sizeUnits(address)) << 3;
    }
}
