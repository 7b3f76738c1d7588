package io.pragh.tier;

import io.pragh.address.Address;
import io.pragh.monitor.Monitor;
import io.pragh.store.MachineStore;
import io.pragh.values.ValueRecord;
import java.util.Arrays;
import org.agrona.collections.Long2LongHashMap;

/**
 * One compute machine's values as a tiering round sees them: every live record in its value region (what its
 * budget counts, whatever machine homes the key) and every value it homes that lives on a memory node, each with its
 * size, its decayed access count and, for local ones, whether it was written since the previous round. Primitive
 * arrays, filled by one walk of the value region and one of the key region.
 *
 * <pre>{@code
 * ValueCensus c = ValueCensus.take(store, monitor, isMemoryNode, lastVersions, config.hotAccesses());
 * long local = c.localBytes();
 * }</pre>
 */
final class ValueCensus {
    /** Local records: key, bytes, accesses, and whether unchanged since the last round (read-only). */
    long[] localKeys = new long[64];
    long[] localSizes = new long[64];
    long[] localAccesses = new long[64];
    boolean[] localReadOnly = new boolean[64];
    int localCount;
    /** Values homed here and hosted on a memory node: key, bytes, accesses. */
    long[] farKeys = new long[64];
    long[] farSizes = new long[64];
    long[] farAccesses = new long[64];
    int farCount;
    /** Versions of the local records seen now, for the next round's read-only test. */
    final Long2LongHashMap versions = new Long2LongHashMap(-1);

    /**
     * Walks the machine's regions. {@code lastVersions} holds the versions the previous round saw (empty the first
     * time, when every value counts as read-only: nothing says otherwise yet).
     */
    static ValueCensus take(MachineStore store, Monitor monitor, boolean[] isMemoryNode, Long2LongHashMap lastVersions) {
        ValueCensus c = new ValueCensus();
        store.values().forEachRecord((offsetUnits, header, key, version) -> {
            long before = lastVersions.get(key);
            c.addLocal(key, ValueRecord.unitsOf(header) << 3, monitor.heldAccesses(key), before == -1 || before == version);
            c.versions.put(key, version);
        });
        int self = store.id();
        store.keys().forEach((key, address, slot) -> {
            if (Address.isNone(address) || Address.isTombstone(address) || !Address.isMigrated(address)) {
                return;
            }
            int host = Address.host(address, self);
            if (host < isMemoryNode.length && isMemoryNode[host]) {
                c.addFar(key, Address.byteSize(address), monitor.heldAccesses(key));
            }
        });
        return c;
    }

    void addLocal(long key, long bytes, long accesses, boolean readOnly) {
        if (localCount == localKeys.length) {
            int n = localCount * 2;
            localKeys = Arrays.copyOf(localKeys, n);
            localSizes = Arrays.copyOf(localSizes, n);
            localAccesses = Arrays.copyOf(localAccesses, n);
            localReadOnly = Arrays.copyOf(localReadOnly, n);
        }
        localKeys[localCount] = key;
        localSizes[localCount] = bytes;
        localAccesses[localCount] = accesses;
        localReadOnly[localCount++] = readOnly;
    }

    void addFar(long key, long bytes, long accesses) {
        if (farCount == farKeys.length) {
            int n = farCount * 2;
            farKeys = Arrays.copyOf(farKeys, n);
            farSizes = Arrays.copyOf(farSizes, n);
            farAccesses = Arrays.copyOf(farAccesses, n);
        }
        farKeys[farCount] = key;
        farSizes[farCount] = bytes;
        farAccesses[farCount++] = accesses;
    }

    long localBytes() {
        long sum = 0;
        for (int i = 0; i < localCount; i++) {
            sum += localSizes[i];
        }
        return sum;
    }

    /** Bytes by tier and place. */
    TierBytes bytes(long hotAccesses) {
        long[] b = new long[6];
        for (int i = 0; i < localCount; i++) {
            b[Tier.of(localAccesses[i], hotAccesses).ordinal()] += localSizes[i];
        }
        for (int i = 0; i < farCount; i++) {
            b[3 + Tier.of(farAccesses[i], hotAccesses).ordinal()] += farSizes[i];
        }
        return new TierBytes(b[0], b[1], b[2], b[3], b[4], b[5]);
    }
}
