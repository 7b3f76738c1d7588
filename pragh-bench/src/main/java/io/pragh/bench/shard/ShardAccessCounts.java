package io.pragh.bench.shard;

import io.pragh.store.AccessObserver;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Full access tracking for the shard baseline: how often each machine read each shard. One observer per machine
 * increments its row (or, for server processes, each machine's counts are {@link #add}ed); the optimal plan moves
 * every shard to its most frequent reader.
 *
 * <pre>{@code
 * ShardAccessCounts counts = new ShardAccessCounts(placement);
 * store.setAccessObserver(counts.observerFor(store.id()));
 * ...
 * int[] plan = counts.plan();
 * }</pre>
 */
public final class ShardAccessCounts {
    private final ShardPlacement placement;
    private final int machines;
    private final AtomicLongArray counts;

    public ShardAccessCounts(ShardPlacement placement) {
        this.placement = placement;
        this.machines = placement.machines();
        this.counts = new AtomicLongArray(placement.shards() * machines);
    }

    /** The observer to install on machine {@code reader}. */
    public AccessObserver observerFor(int reader) {
        return (key, home, host) -> counts.incrementAndGet(placement.shardOf(key) * machines + reader);
    }

    /** Adds {@code n} accesses of {@code reader} to {@code shard}: how counts made elsewhere (a server) arrive. */
    public void add(int shard, int reader, long n) {
        if (shard < 0 || shard >= placement.shards() || reader < 0 || reader >= machines) {
            throw new IllegalArgumentException("shard " + shard + " of reader " + reader + " is outside the table ("
                + placement.shards() + " shards, " + machines + " machines)");
        }
        counts.addAndGet(shard * machines + reader, n);
    }

    public long count(int shard, int reader) {
        return counts.get(shard * machines + reader);
    }

    public void reset() {
        for (int i = 0; i < counts.length(); i++) {
            counts.set(i, 0);
        }
    }

    /** The optimal locality plan: each shard to the machine that accessed it most, when that beats its owner. */
    public int[] plan() {
        int[] target = new int[placement.shards()];
        for (int s = 0; s < target.length; s++) {
            int owner = placement.owner(s);
            int best = owner;
            for (int m = 0; m < machines; m++) {
                if (count(s, m) > count(s, best)) {
                    best = m;
                }
            }
            target[s] = best;
        }
        return target;
    }
}
