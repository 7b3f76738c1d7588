package io.pragh.bench.shard;

import io.pragh.keys.Hashing;
import io.pragh.keys.KeyLayout;
import io.pragh.keys.Placement;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The shard baseline's placement (paper section 2.3): vertices hash into {@code shardsPerMachine x machines} shards,
 * and a shard-to-machine table (the POS metadata) says where each shard lives. Every access consults the table; a
 * shard move rewrites one entry. The table is the per-access cost split migration avoids.
 *
 * <pre>{@code
 * ShardPlacement p = new ShardPlacement(8, 100);
 * EmbeddedCluster c = EmbeddedCluster.builder().machines(8).placement(p).build();
 * }</pre>
 */
public final class ShardPlacement implements Placement {
    public static final int DEFAULT_SHARDS_PER_MACHINE = 100;

    private final int machines;
    private final AtomicIntegerArray owner;

    public ShardPlacement(int machines, int shardsPerMachine) {
        if (machines < 1 || shardsPerMachine < 1) {
            throw new IllegalArgumentException("need >= 1 machine and >= 1 shard per machine, got " + machines
                + " and " + shardsPerMachine);
        }
        this.machines = machines;
        this.owner = new AtomicIntegerArray(machines * shardsPerMachine);
        for (int s = 0; s < owner.length(); s++) {
            owner.set(s, s % machines);
        }
    }

    public int shards() {
        return owner.length();
    }

    public int machines() {
        return machines;
    }

    /** The shard of a key: by vertex, so a vertex's keys always share a shard. Salted apart from the bucket hash. */
    public int shardOf(long key) {
        return (int) Long.remainderUnsigned(Hashing.mix(KeyLayout.vid(key) ^ 0x5bd1e9955bd1e995L), owner.length());
    }

    /** Acquire-load of the shard's owner: a move's release-store is seen by every later access. */
    @Override
    public int home(long key) {
        return owner.get(shardOf(key));
    }

    public int owner(int shard) {
        return owner.get(shard);
    }

    /**
     * Routes the shard to {@code machine}: a volatile (at least release) store, so a reader whose acquire-load in
     * {@link #home} sees the new owner also sees every record the move loaded there before. Package-private: moves
     * go through {@link ShardMover} and {@link LocalShards}, which also drop the cached addresses it invalidates.
     */
    void assign(int shard, int machine) {
        owner.set(shard, machine);
    }
}
