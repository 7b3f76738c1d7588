package io.pragh.bench.extension;

import io.pragh.bench.shard.LocalShards;
import io.pragh.bench.shard.ShardAccessCounts;
import io.pragh.bench.shard.ShardPage;
import io.pragh.bench.shard.ShardPlacement;
import io.pragh.embedded.Machine;
import io.pragh.store.AccessObserver;
import io.pragh.store.MachineStore;
import java.util.concurrent.CompletableFuture;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * This machine's side of the shard ops of {@link BenchProtocol} (SHARD_TRACK .. SHARD_UNLOAD): access counting per
 * shard, and the steps of a shard move through {@link LocalShards}. Answers are response bodies; a refusal is an
 * {@link IllegalArgumentException} naming the fault, which the server answers ERROR. Steps that read or write the
 * store run on the machine's workers, never on the event loop.
 *
 * <pre>{@code
 * ShardOperations shards = new ShardOperations(machine);
 * shards.track(true);
 * }</pre>
 */
final class ShardOperations {
    private final Machine machine;
    private final MachineStore store;
    private final LocalShards local;
    private ShardAccessCounts counts;
    private boolean tracking;
    private AccessObserver before;
    /** The counting observer installed while tracking. */
    private AccessObserver tracker;

    ShardOperations(Machine machine) {
        this.machine = machine;
        this.store = machine.store();
        this.local = store.placement() instanceof ShardPlacement p ? new LocalShards(store, p) : null;
    }

    private LocalShards local() {
        if (local == null) {
            throw new IllegalArgumentException("machine " + store.id() + " does not use shard placement");
        }
        return local;
    }

    /**
     * On: zeroes the counts and counts this machine's accesses by shard, in place of the observer installed now
     * (the migration monitor, say); off: puts that observer back. Counting is the benchmark's monitoring interval,
     * so the monitor misses local accesses meanwhile.
     */
    synchronized byte[] track(boolean on) {
        LocalShards shards = local();
        if (counts == null) {
            counts = new ShardAccessCounts(shards.placement());
        }
        if (on) {
            counts.reset();
            if (!tracking) {
                before = store.accessObserver();
                tracking = true;
            }
            tracker = counts.observerFor(store.id());
            store.setAccessObserver(tracker);
        } else if (tracking) {
            // Only if counting is still what observes: an observer installed since (a MONITOR_START) stays.
            if (store.accessObserver() == tracker) {
                store.setAccessObserver(before);
            }
            before = null;
            tracker = null;
            tracking = false;
        }
        return new byte[0];
    }

    /** Shards (4), then this machine's count (8) of each: zeros before the first SHARD_TRACK. */
    synchronized byte[] counts() {
        ShardPlacement p = local().placement();
        byte[] body = new byte[4 + 8 * p.shards()];
        UnsafeBuffer u = new UnsafeBuffer(body);
        u.putInt(0, p.shards());
        for (int s = 0; counts != null && s < p.shards(); s++) {
            u.putLong(4 + 8 * s, counts.count(s, store.id()));
        }
        return body;
    }

    /** Next cursor (8), then the page's records. */
    CompletableFuture<byte[]> export(int shard, long cursor, int maxBytes) {
        LocalShards shards = local();
        return machine.submit(() -> {
            ShardPage page = shards.export(shard, cursor, maxBytes);
            byte[] body = new byte[8 + page.body().length];
            UnsafeBuffer u = new UnsafeBuffer(body);
            u.putLong(0, page.next());
            u.putBytes(8, page.body());
            return body;
        });
    }

    CompletableFuture<byte[]> importRecords(DirectBuffer b, int offset, int length) {
        LocalShards shards = local();
        return machine.submit(() -> {
            shards.importRecords(b, offset, length);
            return new byte[0];
        });
    }

    /** Pairs of (shard (4), owner (4)) from {@code offset} to {@code end}. */
    CompletableFuture<byte[]> assign(DirectBuffer b, int offset, int end) {
        LocalShards shards = local();
        int n = (end - offset) / 8;
        int[] ids = new int[n];
        int[] owners = new int[n];
        for (int i = 0; i < n; i++) {
            ids[i] = b.getInt(offset + 8 * i);
            owners[i] = b.getInt(offset + 8 * i + 4);
        }
        return machine.submit(() -> {
            shards.assign(ids, owners);
            return new byte[0];
        });
    }

    /** Keys (8) removed. */
    CompletableFuture<byte[]> unload(int shard) {
        LocalShards shards = local();
        return machine.submit(() -> {
            byte[] body = new byte[8];
            new UnsafeBuffer(body).putLong(0, shards.unload(shard));
            return body;
        });
    }
}
