package io.pragh.store;

import io.pragh.PraghException;
import io.pragh.address.Address;
import io.pragh.keys.KeyRegion;
import io.pragh.values.ValueRecord;
import io.pragh.values.ValueRegion;
import java.util.concurrent.CompletableFuture;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Values installed and removed outside the update protocol, by whoever guarantees nobody updates the key meanwhile
 * or that a single CAS decides the race: bulk loading ({@link #load}), putting back a value lost with its host
 * ({@link #restore}) and removing a key with its value ({@link #unload}). {@link MachineStore} admits the caller
 * through its operation gate before calling in here.
 *
 * <pre>{@code
 * installs.load(key, version, bytes, 0, bytes.capacity());   // before the machine serves
 * }</pre>
 */
final class DirectInstalls {
    private static final UnsafeBuffer ZERO_WORD = new UnsafeBuffer(new byte[8]);

    private final MachineStore store;
    private final StoreRegions regions;
    private final UpdateAcknowledgements acks;

    DirectInstalls(MachineStore store, StoreRegions regions, UpdateAcknowledgements acks) {
        this.store = store;
        this.regions = regions;
        this.acks = acks;
    }

    /** See {@link MachineStore#load}. */
    void load(long key, long version, DirectBuffer value, int offset, int length) {
        ValueMutator set = store.mutators().get(Mutators.SET);
        ValueRegion values = regions.values();
        KeyRegion keys = regions.keys();
        long address = values.allocate(ValueRecord.unitsFor(length));
        store.incarnations().observe(version);
        long slot;
        try {
            // Pending until named: the leak scan leaves a record alone while its writer may still publish it.
            regions.writeRecord(key, version, address, length, ValueRecord.INVALIDATION_PENDING, set, value, 0, -1,
                value, offset, length);
            // Loading happens before this machine serves (or, for shard moves, before its shard is routed here), so
            // no peer CAS can race this one: a CPU CAS is right even on a NIC with HCA-only atomics.
            slot = keys.insert(key, address, keys::compareAndSetAddress);
        } catch (RuntimeException | Error e) {
            values.release(address);
            throw e;
        }
        if (slot < 0) {
            values.release(address);
            throw new IllegalStateException("key " + key + " already has a value on machine " + store.id());
        }
        // Held at home while a restart's reload may have older records of it elsewhere (PutBackFence).
        regions.settled(address, length, store.putBacks().flagsNow());
    }

    /**
     * Puts back, in one step, the value of a key homed here that was lost with the machine it had migrated to (paper
     * section 5: "the key-value pairs hosted by a surviving machine but migrated to a crashed machine will be reloaded
     * by the surviving machine"). A fresh local record holding {@code value} replaces {@code lostAddress} in the key's
     * address word by a single CAS, so an update racing the restore either still finds the lost address (and fails
     * retryably, its host being unreachable) or already finds the restored value: no update ever starts from a key
     * without a value. With a null {@code value} (the durable record says the key was deleted) the word is cleared
     * and the slot pruned instead.
     *
     * <p>The restored record gets a new incarnation's first version, above {@code durableVersion} and every version
     * this machine has seen, and, on a durable machine, is logged as a SET (or DELETE) at that version: an update
     * the crashed host applied but never got acknowledged, whose LOG message reaches this home late, then sorts
     * before the restore at replay and cannot leak into the replayed value. The record goes through
     * {@link UpdateLog#appendRestore}: a log that knows restores refuses, retryably, every later record of the key
     * below the restore's version, and the caller has it fence the key before reading {@code value}
     * ({@code Durability.durableValuesToRestore}), so no update missing from the restored value is acknowledged.
     *
     * <p>Called by {@link MachineStore#restore}, inside its gate.
     */
    CompletableFuture<Boolean> restore(long key, long lostAddress, long durableVersion, DirectBuffer value,
                                       int offset, int length) {
        int id = store.id();
        int home = store.placement().home(key);
        if (home != id) {
            throw new IllegalArgumentException("machine " + id + " cannot restore key " + key + ": its home is machine "
                + home);
        }
        if (lostAddress == Address.NONE) {
            throw new IllegalArgumentException("restore of key " + key + " needs the lost address, got none");
        }
        long slot = regions.keys().find(key);
        if (slot < 0) {
            return CompletableFuture.completedFuture(false);
        }
        store.incarnations().observe(durableVersion);
        long version = store.incarnations().nextFirstVersion();
        long desired = Address.NONE;
        if (value != null) {
            desired = regions.values().allocate(ValueRecord.unitsFor(length));
            regions.writeRecord(key, version, desired, length, ValueRecord.INVALIDATION_PENDING,
                store.mutators().get(Mutators.SET), value, offset, -1, value, offset, length);
        }
        // The lost record needs no invalidation or reclaim: its memory went with its host.
        if (!regions.casAddress(id, slot, lostAddress, desired)) {
            if (desired != Address.NONE) {
                regions.values().release(desired);
            }
            return CompletableFuture.completedFuture(false);
        }
        if (value == null) {
            regions.keys().prune(key);
        } else {
            regions.settled(desired, length, store.putBacks().flagsNow());
        }
        UpdateLog log = acks.updateLog();
        if (log == null) {
            return CompletableFuture.completedFuture(true);
        }
        CompletableFuture<Void> durable = new CompletableFuture<>();
        long request = acks.register(durable);
        if (value == null) {
            log.appendRestore(key, version, Mutators.DELETE, ZERO_WORD, 0, 0, id, request);
        } else {
            log.appendRestore(key, version, Mutators.SET, value, offset, length, id, request);
        }
        return durable.thenApply(v -> true);
    }

    /** See {@link MachineStore#unload}. */
    boolean unload(long key) {
        int id = store.id();
        KeyRegion keys = regions.keys();
        long slot = keys.find(key);
        while (slot >= 0) {
            long address = keys.address(slot);
            if (Address.isNone(address)) {
                keys.prune(key, address);
                return false;
            }
            if (regions.casAddress(id, slot, address, Address.NONE)) {
                int host = Address.host(address, id);
                if (regions.invalidate(host, address)) {
                    try {
                        store.reclaimRings().post(host, address);
                    } catch (PraghException ringStayedFull) {
                        // Counted by the rings as leaked; the key is unloaded all the same, and saying otherwise
                        // would report undone what took effect.
                    }
                }
                keys.prune(key);
                return true;
            }
        }
        return false;
    }
}
