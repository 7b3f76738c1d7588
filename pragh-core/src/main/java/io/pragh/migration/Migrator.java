package io.pragh.migration;

import io.pragh.LimitExceededException;
import io.pragh.address.Address;
import io.pragh.fabric.Region;
import io.pragh.memory.ChunkedRegion;
import io.pragh.reclaim.Leases;
import io.pragh.store.MachineStore;
import io.pragh.store.Session;
import io.pragh.values.ValueRecord;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * MIGRATE (paper Fig. 6): unilateral, run by the target machine alone with one-sided operations. Allocate locally,
 * READ the value into the new record, CAS the home's address word from the old address to the new one, then
 * invalidate the old record (zero its header word) and post it to its host's reclaim ring. A lost CAS means a
 * concurrent update won; MIGRATE retries on the newer value. The address is taken from the location cache when it
 * is there (section 5's first optimisation).
 *
 * <p>Not thread-safe: one migrator per migration thread.
 *
 * <pre>{@code
 * Migrator m = new Migrator(store);
 * Migrator.Outcome o = m.migrate(key);   // MIGRATED, ALREADY_LOCAL or ABSENT
 * }</pre>
 */
public final class Migrator {
    private static final int MAX_ATTEMPTS = 10_000;
    private static final UnsafeBuffer ZERO_WORD = new UnsafeBuffer(new byte[8]);

    /** What a migration did. */
    public enum Outcome { MIGRATED, ALREADY_LOCAL, ABSENT }

    private final MachineStore store;
    private final Session session;
    private long migrated;
    private long conflicts;
    private long bytesMoved;

    public Migrator(MachineStore store) {
        this.store = store;
        this.session = store.newSession();
    }

    public long migrated() {
        return migrated;
    }

    /** CAS conflicts with concurrent updates, each followed by a retry. */
    public long conflicts() {
        return conflicts;
    }

    public long bytesMoved() {
        return bytesMoved;
    }

    public Outcome migrate(long key) {
        int self = store.id();
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            if (!session.locate(key, true)) {
                return Outcome.ABSENT;
            }
            int home = session.home();
            long address = session.address();
            int source = Address.host(address, home);
            if (source == self) {
                return Outcome.ALREADY_LOCAL;
            }
            long units = Address.sizeUnits(address);
            if (self != home && units > Address.MAX_MIGRATED_UNITS) {
                throw new LimitExceededException("key " + key + " has a " + (units << 3) + "-byte value; values over "
                    + Address.MAX_MIGRATED_BYTES + " bytes (32 MiB, 22-bit size) cannot migrate");
            }
            long offsetUnits = store.values().allocate(units);
            long offset = offsetUnits << 3;
            ChunkedRegion values = store.values().region();
            UnsafeBuffer chunk = values.chunkFor(offset);
            int index = values.indexInChunk(offset);
            int length = (int) (units << 3);
            store.endpoint().read(source, Region.VALUES, Address.byteOffset(address), chunk, index, length);
            if (!ValueRecord.isValid(chunk, index, address, key)) {
                store.values().free(offsetUnits, units);
                session.dropCached(key, address);
                conflicts++;
                continue;
            }
            long desired = Address.of(self, home, units, offsetUnits);
            store.fence().enter(key);
            try {
                boolean won = session.leaseHolds() && (home == self
                    ? store.keys().compareAndSetAddress(session.slot(), address, desired)
                    : store.endpoint().compareAndSwap(home, Region.KEYS, session.slot(), address, desired) == address);
                if (!won) {
                    store.values().free(offsetUnits, units);
                    session.dropCached(key, address);
                    conflicts++;
                    continue;
                }
                // Invalidate the source copy (Fig. 6 line 10), then hand it to its host's GC (line 11).
                store.endpoint().write(source, Region.VALUES, Address.byteOffset(address), ZERO_WORD, 0, 8);
                store.reclaimRings().post(source, address);
            } finally {
                store.fence().exit(key);
            }
            if (home != self) {
                store.cache().insert(key, desired, session.slot(), Leases.nowMillis());
            }
            migrated++;
            bytesMoved += length;
            return Outcome.MIGRATED;
        }
        throw new IllegalStateException("MIGRATE of key " + key + " lost its CAS " + MAX_ATTEMPTS + " times in a row");
    }
}
