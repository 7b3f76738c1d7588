package io.pragh.shard;

import io.pragh.cluster.EmbeddedCluster;
import io.pragh.store.MachineStore;
import io.pragh.store.ValueView;
import java.util.concurrent.TimeUnit;
import org.agrona.collections.LongArrayList;
import org.agrona.collections.LongHashSet;

/**
 * Moves whole shards, keys and values, between machines of an embedded cluster: copy every key of the shard to the
 * target as local records, flip the shard's owner in the POS table, drop cached addresses of the moved keys
 * everywhere, and after a grace period remove the keys from the old owner. Reads stay correct throughout; writes to
 * a shard being moved are not supported, so the benchmark pauses its clients during the shard baseline's migration
 * phase (which, if anything, flatters the baseline: it gets its migration for free).
 *
 * <pre>{@code
 * ShardMover mover = new ShardMover(cluster, placement);
 * int moved = mover.apply(counts.plan());
 * }</pre>
 */
public final class ShardMover {
    private final EmbeddedCluster cluster;
    private final ShardPlacement placement;
    private final long graceMillis;
    private long keysMoved;
    private long bytesMoved;

    public ShardMover(EmbeddedCluster cluster, ShardPlacement placement) {
        this(cluster, placement, 50);
    }

    /** @param graceMillis how long readers that computed the old owner may still read there */
    public ShardMover(EmbeddedCluster cluster, ShardPlacement placement, long graceMillis) {
        if (cluster.placement() != placement) {
            throw new IllegalArgumentException("the cluster does not use this shard placement");
        }
        this.cluster = cluster;
        this.placement = placement;
        this.graceMillis = graceMillis;
    }

    public long keysMoved() {
        return keysMoved;
    }

    public long bytesMoved() {
        return bytesMoved;
    }

    /** Moves every shard whose planned machine differs from its owner; returns how many shards moved. */
    public int apply(int[] plan) {
        int moved = 0;
        for (int s = 0; s < plan.length; s++) {
            if (plan[s] != placement.owner(s)) {
                move(s, plan[s]);
                moved++;
            }
        }
        return moved;
    }

    public void move(int shard, int target) {
        int source = placement.owner(shard);
        if (source == target) {
            return;
        }
        MachineStore from = cluster.machine(source).store();
        MachineStore to = cluster.machine(target).store();
        LongArrayList keys = new LongArrayList();
        from.keys().forEach((key, address, slot) -> {
            if (placement.shardOf(key) == shard) {
                keys.addLong(key);
            }
        });
        for (int i = 0; i < keys.size(); i++) {
            long key = keys.getLong(i);
            ValueView v = from.session().get(key);
            if (v != null) {
                to.load(key, v.version(), v.buffer(), v.offset(), v.length());
                bytesMoved += v.length();
            }
        }
        placement.assign(shard, target);
        LongHashSet moved = new LongHashSet();
        for (int i = 0; i < keys.size(); i++) {
            moved.add(keys.getLong(i));
        }
        for (int m = 0; m < cluster.machineCount(); m++) {
            cluster.machine(m).store().cache().invalidateIf((key, address) -> moved.contains(key));
        }
        sleep(graceMillis);
        for (int i = 0; i < keys.size(); i++) {
            from.unload(keys.getLong(i));
        }
        keysMoved += keys.size();
    }

    private static void sleep(long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
