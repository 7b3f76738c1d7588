package io.pragh.consistency;

import io.pragh.fabric.Fabric;
import io.pragh.keys.KeyLayout;
import io.pragh.keys.Placement;
import io.pragh.store.MachineStore;
import io.pragh.store.Mutators;
import io.pragh.store.StoreConfig;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The smallest real cluster: N {@link MachineStore}s (regions, cache, GC thread, update protocol) attached to one
 * fabric, without the worker pools and migration threads of {@code io.pragh.embedded}; tests drive MIGRATE through
 * their own {@link io.pragh.migration.Migrator}s on threads they control.
 *
 * <pre>{@code
 * try (StoreAssembly a = new StoreAssembly(new InProcessFabric(4, 0), 4, StoreAssembly.smallConfig())) {
 *     a.put(0, key, bytes);
 * }
 * }</pre>
 */
final class StoreAssembly implements AutoCloseable {
    private final Fabric fabric;
    private final MachineStore[] stores;
    private final Placement placement;

    StoreAssembly(Fabric fabric, int machines, StoreConfig config) {
        this.fabric = fabric;
        this.placement = Placement.hashed(machines);
        this.stores = new MachineStore[machines];
        Mutators mutators = Mutators.withBuiltins();
        try {
            for (int i = 0; i < machines; i++) {
                stores[i] = new MachineStore(i, machines, config, placement, mutators);
                stores[i].attach(fabric);
            }
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    /** How an operation running on another thread stands after a wait. */
    enum Settled { PENDING, DONE, FAILED }

    /** Waits up to {@code millis} for {@code f} and says how it stands then. */
    static Settled settleWithin(CompletableFuture<?> f, long millis) throws InterruptedException {
        try {
            f.get(millis, TimeUnit.MILLISECONDS);
            return Settled.DONE;
        } catch (TimeoutException e) {
            return Settled.PENDING;
        } catch (ExecutionException e) {
            return Settled.FAILED;
        }
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Small regions, so that a test cluster costs a few MiB. */
    static StoreConfig smallConfig() {
        return StoreConfig.defaults().withKeys(1_000).withValueBytes(1 << 20).withChunkBytes(1 << 20)
            .withCacheBytes(64 << 10).withReclaimRingSlots(1 << 10);
    }

    MachineStore store(int machine) {
        return stores[machine];
    }

    int machineCount() {
        return stores.length;
    }

    /** The first vertex key, from vid {@code fromVid} up, whose home is {@code home}. */
    long keyHomedAt(int home, long fromVid) {
        for (long vid = fromVid; ; vid++) {
            long key = KeyLayout.key(vid, 0, KeyLayout.VERTEX);
            if (placement.home(key) == home) {
                return key;
            }
        }
    }

    /** PUT from machine {@code origin}, returning once acknowledged (failing the test after 60 s). */
    void put(int origin, long key, byte[] value) {
        try {
            stores[origin].update(key, Mutators.SET, new UnsafeBuffer(value), 0, value.length)
                .get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("PUT of key " + key + " from machine " + origin + " failed: " + e, e);
        }
    }

    /** GET on machine {@code machine} through the calling thread's session; null when absent. */
    byte[] get(int machine, long key) {
        var v = stores[machine].session().get(key);
        return v == null ? null : v.toBytes();
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
