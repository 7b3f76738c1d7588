package io.pragh.reclaim;

import io.pragh.address.Address;
import io.pragh.memory.ChunkedRegion;
import io.pragh.runtime.DutyThread;
import io.pragh.values.ValueRegion;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The GC thread of one machine: drains the reclaim rings in its RECLAIM region and the records this machine retired
 * itself ({@link #retire}), and frees each record once the reclaim lease has passed since this thread saw it. The
 * lease runs from the moment the entry was seen, read from the clock after the entry, never from the start of a pass:
 * a pass that stalls must not backdate the records posted meanwhile (a reader may have started copying them after
 * the pass began). Entries are stamped in the order they are taken, so the pending queue is ordered by time and
 * freeing only ever looks at its head.
 *
 * <p>An entry is an address word, generation included. The record it names must already be invalidated when this
 * thread takes the entry, since the lease (which bounds one reader's copy) must run from after the invalidation; an
 * entry whose record is still live is dropped, and whoever invalidates it later posts it again. And
 * {@link ValueRegion#free} frees only a record that is still that allocation and invalidated: a record posted twice
 * (a ring CAS whose reply was lost and was retried, or a record both its superseder and the leak scan invalidated) or
 * posted after its slot was handed out again frees nothing.
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
    private volatile long dropped;
    /** Written only by {@link #drainOnce} (under its lock); volatile for readers outside it. */
    private volatile long pendingBytes;
    /** Records retired by this machine's own threads, not yet taken by the GC thread; guarded by itself. */
    private final RetiredQueue retired = new RetiredQueue();
    private final LongAdder retiredRecords = new LongAdder();

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

    /** Records freed so far (entries that named no invalidated record are not counted: see the class comment). */
    public long freed() {
        return freed;
    }

    /** Entries dropped when taken because their record was not invalidated (still live, or another allocation). */
    public long dropped() {
        return dropped;
    }

    /**
     * Bytes of the value region held by the records taken from rings and waiting for their lease (size-class
     * rounding included): the memory superseded values cost. Records still in a ring are not counted yet.
     */
    public long pendingBytes() {
        return pendingBytes;
    }

    /**
     * Hands a record of this machine, already invalidated, to the GC thread. Never blocks and never fails, unlike a
     * ring post that may find its ring full: a writer calls it after its CAS won, when failing would report as
     * failed an update that took effect.
     */
    public void retire(long address) {
        retiredRecords.increment();
        retired.add(address, Address.byteSize(address));
    }

    /**
     * Records this machine's own writers have handed to the GC since it started (superseded by an update, removed
     * by a delete): the garbage its updates made. An append in place makes none.
     */
    public long retiredRecords() {
        return retiredRecords.sum();
    }

    /**
     * Bytes of superseded records this GC thread will free once their lease has passed: those it took from rings
     * and those retired here that it has not taken yet. What a writer finding the value region full waits for.
     */
    public long awaitingReclaimBytes() {
        return pendingBytes + retired.bytes;
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
                // The clock is read after the entry: its lease starts no earlier than the moment it was seen.
                push(address, System.nanoTime());
                // Release: the slot is offered back to its writer only after we own the address.
                rings.putLongRelease(offset, 0);
                readCursors[writer]++;
            }
        }
        retired.drainTo(this);
        int n = 0;
        while (head < tail && nowNanos - pendingSince[head] >= leaseNanos) {
            long address = pendingAddress[head++];
            pendingBytes -= Address.byteSize(address);
            if (values.free(address)) {
                n++;
            }
        }
        if (head == tail) {
            head = 0;
            tail = 0;
        }
        freed += n;
        return n;
    }

    /** Takes one retired record, its lease starting now. */
    void take(long address) {
        push(address, System.nanoTime());
    }

    private void push(long address, long since) {
        if (!values.invalidated(address)) {
            dropped++;
            return;
        }
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
        pendingBytes += Address.byteSize(address);
    }

    /** A growable queue of retired addresses that writers append to and the GC thread swaps out whole. */
    private static final class RetiredQueue {
        private long[] addresses = new long[256];
        private long[] spare = new long[256];
        private int size;
        /** Bytes of the queued records; written under the lock, read without. */
        private volatile long bytes;

        synchronized void add(long address, long recordBytes) {
            if (size == addresses.length) {
                addresses = java.util.Arrays.copyOf(addresses, size * 2);
            }
            addresses[size++] = address;
            bytes += recordBytes;
        }

        void drainTo(Reclaimer reclaimer) {
            long[] taken;
            int n;
            synchronized (this) {
                if (size == 0) {
                    return;
                }
                taken = addresses;
                n = size;
                addresses = spare.length >= taken.length ? spare : new long[taken.length];
                size = 0;
                bytes = 0;
            }
            for (int i = 0; i < n; i++) {
                reclaimer.take(taken[i]);
            }
            spare = taken;
        }
    }
}
