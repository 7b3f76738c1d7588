package io.pragh.store;

import io.pragh.fabric.inprocess.InProcessFabric;
import io.pragh.keys.Placement;
import io.pragh.migration.Migrator;
import io.pragh.reclaim.Leases;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A few {@link MachineStore}s on one in-process fabric, for the store's recovery tests: small regions, and helpers
 * to find a key homed on a given machine and to move its value elsewhere with a real {@link Migrator}.
 */
final class TestStores implements AutoCloseable {
    final InProcessFabric fabric;
    final MachineStore[] stores;
    final Placement placement;

    TestStores(int machines) {
        this(machines, Leases.DEFAULT);
    }

    TestStores(int machines, Leases leases) {
        this(machines, leases, 0);
    }

    /** @param leakScanMillis interval of every machine's leak scan thread; 0 for none (tests call scanOnce) */
    TestStores(int machines, Leases leases, long leakScanMillis) {
        this.fabric = new InProcessFabric(machines, 0);
        this.placement = Placement.hashed(machines);
        this.stores = new MachineStore[machines];
        StoreConfig config = StoreConfig.defaults().withKeys(4_000).withValueBytes(4 << 20).withChunkBytes(1 << 20)
            .withCacheBytes(64 << 10).withReclaimRingSlots(1 << 12).withLeases(leases)
            .withLeakScanMillis(leakScanMillis);
        Mutators mutators = Mutators.withBuiltins();
        for (int i = 0; i < machines; i++) {
            stores[i] = new MachineStore(i, machines, config, placement, mutators);
            stores[i].attach(fabric);
        }
    }

    /** The {@code n}-th key (from 1) homed on {@code home}. */
    long keyHomedOn(int home, int n) {
        int seen = 0;
        for (long v = 1; ; v++) {
            long k = io.pragh.keys.KeyLayout.key(v, 0, io.pragh.keys.KeyLayout.OUT);
            if (placement.home(k) == home && ++seen == n) {
                return k;
            }
        }
    }

    void put(int origin, long key, byte[] value) {
        stores[origin].update(key, Mutators.SET, new UnsafeBuffer(value), 0, value.length).join();
    }

    void migrate(long key, int target) {
        Migrator.Outcome out = new Migrator(stores[target], 4).migrate(key);
        if (out != Migrator.Outcome.MIGRATED) {
            throw new AssertionError("migration of key " + key + " to machine " + target + " ended " + out);
        }
    }

    /** Writes {@code value} from the key's home, migrates it to {@code target} and returns its address there. */
    long placedOn(int target, long key, byte[] value) {
        put(placement.home(key), key, value);
        migrate(key, target);
        return addressAtHome(key);
    }

    /** The key's address word at its home. */
    long addressAtHome(long key) {
        MachineStore home = stores[placement.home(key)];
        long slot = home.keys().find(key);
        return slot < 0 ? io.pragh.address.Address.NONE : home.keys().address(slot);
    }

    /**
     * What a migration to {@code target} interrupted after its copy leaves behind: a complete record of the key at a
     * fresh allocation there, which no address word names. Returns its local address word there.
     */
    long plantInterruptedCopy(int target, long key, byte[] value, long version) {
        MachineStore s = stores[target];
        long address = s.values().allocate(io.pragh.values.ValueRecord.unitsFor(value.length));
        UnsafeBuffer v = new UnsafeBuffer(value);
        s.regions().writeRecord(key, version, address, value.length, 0, s.mutators().get(Mutators.SET), v, 0, -1, v, 0,
            value.length);
        return address;
    }

    @Override
    public void close() {
        fabric.close();
        for (MachineStore s : stores) {
            if (s != null) {
                s.close();
            }
        }
    }
}
