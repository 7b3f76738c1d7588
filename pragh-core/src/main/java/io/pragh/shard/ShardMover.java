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

    /**
     * Moves every shard whose planned machine differs from its owner; returns how many shards moved. All shards are
     * copied and flipped first, then one grace period covers them all before the old owners drop their keys.
     */
    public int apply(int[] plan) {
        LongArrayList[] movedKeys = new LongArrayList[plan.length];
        int[] sources = new int[plan.length];
        int moved = 0;
        for (int s = 0; s < plan.length; s++) {
            if (plan[s] != placement.owner(s)) {
                sources[s] = placement.owner(s);
                movedKeys[s] = copyAndFlip(s, plan[s]);
                moved++;
            }
        }
        if (moved == 0) {
            return 0;
        }
        LongHashSet all = new LongHashSet();
        for (LongArrayList keys : movedKeys) {
            if (keys != null) {
                for (int i = 0; i < keys.size(); i++) {
                    all.add(keys.getLong(i));
                }
            }
        }
        dropCached(all);
        sleep(graceMillis);
        for (int s = 0; s < plan.length; s++) {
            if (movedKeys[s] != null) {
                unload(sources[s], movedKeys[s]);
            }
        }
        return moved;
    }

    /** Moves one shard (copy, flip, drop cached addresses, grace period, unload). */
    public void move(int shard, int target) {
        int[] plan = new int[placement.shards()];
        for (int s = 0; s < plan.length; s++) {
            plan[s] = s == shard ? target : placement.owner(s);
        }
        apply(plan);
    }

    /** Copies a shard's keys and values to {@code target} and routes the shard there; returns the keys copied. */
    private LongArrayList copyAndFlip(int shard, int target) {
        MachineStore from = cluster.machine(placement.owner(shard)).store();
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
        keysMoved += keys.size();
        return keys;
    }

    private void dropCached(LongHashSet moved) {
        for (int m = 0; m < cluster.machineCount(); m++) {
            cluster.machine(m).store().cache().invalidateIf((key, address) -> moved.contains(key));
        }
    }

    private void unload(int source, LongArrayList keys) {
        MachineStore from = cluster.machine(source).store();
        for (int i = 0; i < keys.size(); i++) {
            from.unload(keys.getLong(i));
        }
    }

    private static void sleep(long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
