package io.pragh.store;

import java.util.Arrays;

/**
 * The replicas a host granted (or was asked to grant) of one key since its last update: which machine holds which
 * copy, and when it last asked. A holder may have asked for more than one copy: a request can arrive late, after its
 * holder dropped that copy and asked for another, and the late one must not make the host forget the copy that is
 * still read (the next update would leave it usable for its whole lease). So every copy asked for is kept, until the
 * update that invalidates them all, or until its lease has certainly run out. Each copy also names the record it
 * was asked for (the host's source): the host clears that record's {@link io.pragh.values.ValueRecord#REPLICATED}
 * once every copy has run out ({@link ReplicaRegistry#forgetRunOut}).
 *
 * <p>Not thread-safe: {@link ReplicaRegistry} guards it with its lock.
 *
 * <pre>{@code
 * ReplicaHolders h = new ReplicaHolders();
 * h.add(2, replicaAddress, sourceAddress, nowMillis, waitMillis);
 * for (int i = 0; i < h.size(); i++) invalidate(h.machine(i), h.address(i));
 * }</pre>
 */
final class ReplicaHolders {
    private int[] machines = new int[2];
    private long[] addresses = new long[2];
    private long[] sources = new long[2];
    private long[] askedAtMillis = new long[2];
    private int size;

    /**
     * Records that {@code machine} asked for (or renewed) its copy at {@code address} of the record {@code source}. Other copies of the same
     * machine last asked for more than {@code waitMillis} ago are forgotten: no replica is read past its lease plus
     * the reclaim lease counted from its last request, and the request came before this call.
     */
    void add(int machine, long address, long source, long nowMillis, long waitMillis) {
        int kept = 0;
        boolean known = false;
        for (int i = 0; i < size; i++) {
            boolean same = machines[i] == machine;
            if (same && addresses[i] == address) {
                askedAtMillis[i] = nowMillis;
                sources[i] = source;
                known = true;
            } else if (same && nowMillis - askedAtMillis[i] > waitMillis) {
                continue; // expired: dropped by not copying it down
            }
            machines[kept] = machines[i];
            addresses[kept] = addresses[i];
            sources[kept] = sources[i];
            askedAtMillis[kept] = askedAtMillis[i];
            kept++;
        }
        size = kept;
        if (known) {
            return;
        }
        if (size == machines.length) {
            machines = Arrays.copyOf(machines, size * 2);
            addresses = Arrays.copyOf(addresses, size * 2);
            sources = Arrays.copyOf(sources, size * 2);
            askedAtMillis = Arrays.copyOf(askedAtMillis, size * 2);
        }
        machines[size] = machine;
        addresses[size] = address;
        sources[size] = source;
        askedAtMillis[size] = nowMillis;
        size++;
    }

    int size() {
        return size;
    }

    int machine(int i) {
        return machines[i];
    }

    long address(int i) {
        return addresses[i];
    }

    /** The record (at the host) copy {@code i} was last asked for. */
    long source(int i) {
        return sources[i];
    }

    /**
     * Whether every copy was last asked for more than {@code waitMillis} before {@code nowMillis}: none can be read
     * any more (a copy is read only within its lease plus the reclaim lease of its last request, which came before
     * the host recorded it).
     */
    boolean allRanOut(long nowMillis, long waitMillis) {
        for (int i = 0; i < size; i++) {
            if (nowMillis - askedAtMillis[i] <= waitMillis) {
                return false;
            }
        }
        return true;
    }
}
