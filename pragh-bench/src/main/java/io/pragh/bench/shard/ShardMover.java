package io.pragh.bench.shard;

import io.pragh.embedded.EmbeddedCluster;
import java.util.concurrent.TimeUnit;

/**
 * Moves whole shards, keys and values, between machines: copy every key of the shard to the target as local
 * records, flip the shard's owner in every machine's table (each machine dropping its cached addresses of the moved
 * keys), and after a grace period remove the keys from the old owner. The machines are {@link ShardHosts}: those of
 * an embedded cluster or server processes, the sequence is the same. Reads stay correct throughout; writes to a
 * shard being moved are not supported, so the benchmark pauses its clients during the shard baseline's migration
 * phase (which, if anything, flatters the baseline: it gets its migration for free).
 *
 * <pre>{@code
 * ShardMover mover = new ShardMover(cluster, placement);
 * int moved = mover.apply(counts.plan());
 * }</pre>
 */
public final class ShardMover {
    private final ShardHosts hosts;
    private final ShardPlacement placement;
    private final long graceMillis;
    private long keysMoved;
    private long bytesMoved;

    public ShardMover(EmbeddedCluster cluster, ShardPlacement placement) {
        this(cluster, placement, 50);
    }

    /** @param graceMillis how long readers that computed the old owner may still read there */
    public ShardMover(EmbeddedCluster cluster, ShardPlacement placement, long graceMillis) {
        this(new EmbeddedShardHosts(cluster, placement), placement, graceMillis);
    }

    /**
     * @param placement   the mover's view of the shard table, equal to every machine's when the move starts; the
     *                    mover keeps it equal (for an embedded cluster it is the machines' own table)
     * @param graceMillis how long readers that computed the old owner may still read there
     */
    public ShardMover(ShardHosts hosts, ShardPlacement placement, long graceMillis) {
        if (hosts.machines() != placement.machines()) {
            throw new IllegalArgumentException(hosts.machines() + " machines to move shards between, but the shard"
                + " table has " + placement.machines());
        }
        this.hosts = hosts;
        this.placement = placement;
        this.graceMillis = graceMillis;
    }

    public ShardMover(ShardHosts hosts, ShardPlacement placement) {
        this(hosts, placement, 50);
    }

    public long keysMoved() {
        return keysMoved;
    }

    public long bytesMoved() {
        return bytesMoved;
    }

    /**
     * Moves every shard whose planned machine differs from its owner; returns how many shards moved. All shards are
     * copied first, then flipped on every machine at once, then one grace period covers them all before the old
     * owners drop their keys.
     */
    public int apply(int[] plan) {
        if (plan.length != placement.shards()) {
            throw new IllegalArgumentException("a plan of " + plan.length + " shards for a table of "
                + placement.shards());
        }
        int moved = 0;
        for (int s = 0; s < plan.length; s++) {
            if (plan[s] < 0 || plan[s] >= placement.machines()) {
                throw new IllegalArgumentException("the plan sends shard " + s + " to machine " + plan[s] + " (0.."
                    + (placement.machines() - 1) + ")");
            }
            moved += plan[s] != placement.owner(s) ? 1 : 0;
        }
        if (moved == 0) {
            return 0;
        }
        int[] shards = new int[moved];
        int[] sources = new int[moved];
        int[] targets = new int[moved];
        for (int s = 0, i = 0; s < plan.length; s++) {
            if (plan[s] != placement.owner(s)) {
                shards[i] = s;
                sources[i] = placement.owner(s);
                targets[i++] = plan[s];
            }
        }
        int copied = 0;
        try {
            for (; copied < moved; copied++) {
                ShardHosts.Copied c = hosts.copy(shards[copied], sources[copied], targets[copied]);
                keysMoved += c.keys();
                bytesMoved += c.bytes();
            }
        } catch (RuntimeException | Error e) {
            // Nothing is flipped yet: take every copy back from its target (the one that failed part-way too), so
            // that the tables, the owners' records and a later retry stay as before the move.
            for (int i = 0; i <= copied && i < moved; i++) {
                try {
                    hosts.unload(targets[i], shards[i]);
                } catch (RuntimeException cleanup) {
                    e.addSuppressed(cleanup);
                }
            }
            throw e;
        }
        for (int m = 0; m < hosts.machines(); m++) {
            hosts.assign(m, shards, targets);
        }
        for (int i = 0; i < moved; i++) {
            placement.assign(shards[i], targets[i]);
        }
        sleep(graceMillis);
        for (int i = 0; i < moved; i++) {
            hosts.unload(sources[i], shards[i]);
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

    private static void sleep(long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
