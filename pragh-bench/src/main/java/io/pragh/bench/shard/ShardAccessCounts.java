package io.pragh.bench.shard;

import io.pragh.store.AccessObserver;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Full access tracking for the shard baseline: how often each machine read each shard. One observer per machine
 * increments its row (or, for server processes, each machine's counts are {@link #add}ed). Two plans: the paper's
 * ({@link #balancedPlan}: the most local accesses while every machine keeps as many shards as it has, its "one
 * hundred shards at each machine"), and {@link #plan}, every shard to its most frequent reader whatever that does to
 * the machines' loads.
 *
 * <pre>{@code
 * ShardAccessCounts counts = new ShardAccessCounts(placement);
 * store.setAccessObserver(counts.observerFor(store.id()));
 * ...
 * int[] plan = counts.balancedPlan();
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

    /** The plan of {@code kind}: {@link #balancedPlan} or {@link #plan}. */
    public int[] plan(ShardPlan kind) {
        return kind == ShardPlan.BALANCED ? balancedPlan() : plan();
    }

    /**
     * The optimal locality plan that keeps every machine's shard count (the paper's baseline deploys one hundred
     * shards at each machine, each machine's memory holding its share): of all assignments of shards to machines in
     * which machine m ends with as many shards as it owns now, one with the most accesses made by a shard's own
     * machine; among those, one that moves the fewest shards. Exact: an assignment problem (transportation, 8
     * sinks), solved by successive shortest paths, one shard at a time, over the machines: a shard goes to a machine
     * with room, or to a full one that passes one of its shards on along the cheapest chain of such moves
     * (Bellman-Ford over the machines, whose edge m1 to m2 is the cheapest shard to move from m1 to m2).
     */
    public int[] balancedPlan() {
        int shards = placement.shards();
        // A shard's worth on a machine: its accesses from there in units of shards + 1, plus one at its owner, so
        // that among plans with the most local accesses the one that moves least wins (all the bonuses together
        // weigh less than one access).
        long[] worth = new long[shards * machines];
        int[] room = new int[machines];
        for (int s = 0; s < shards; s++) {
            int owner = placement.owner(s);
            room[owner]++;
            for (int m = 0; m < machines; m++) {
                worth[s * machines + m] = count(s, m) * (shards + 1) + (m == owner ? 1 : 0);
            }
        }
        int[] at = new int[shards];
        java.util.Arrays.fill(at, -1);
        long[] dist = new long[machines];
        int[] fromMachine = new int[machines];
        int[] viaShard = new int[machines];
        long[] edge = new long[machines * machines];
        int[] edgeShard = new int[machines * machines];
        for (int s = 0; s < shards; s++) {
            // Cheapest move of one placed shard from m1 to m2: the worth it loses.
            java.util.Arrays.fill(edge, Long.MAX_VALUE);
            for (int t = 0; t < s; t++) {
                int m1 = at[t];
                for (int m2 = 0; m2 < machines; m2++) {
                    long loss = worth[t * machines + m1] - worth[t * machines + m2];
                    if (m2 != m1 && loss < edge[m1 * machines + m2]) {
                        edge[m1 * machines + m2] = loss;
                        edgeShard[m1 * machines + m2] = t;
                    }
                }
            }
            for (int m = 0; m < machines; m++) {
                dist[m] = -worth[s * machines + m];
                fromMachine[m] = -1;
            }
            // Bellman-Ford: no negative cycle, since the placement so far is optimal for the shards placed.
            for (int round = 1; round < machines; round++) {
                boolean changed = false;
                for (int m1 = 0; m1 < machines; m1++) {
                    for (int m2 = 0; m2 < machines; m2++) {
                        long w = edge[m1 * machines + m2];
                        if (w != Long.MAX_VALUE && dist[m1] + w < dist[m2]) {
                            dist[m2] = dist[m1] + w;
                            fromMachine[m2] = m1;
                            viaShard[m2] = edgeShard[m1 * machines + m2];
                            changed = true;
                        }
                    }
                }
                if (!changed) {
                    break;
                }
            }
            int end = -1;
            for (int m = 0; m < machines; m++) {
                if (room[m] > 0 && (end < 0 || dist[m] < dist[end])) {
                    end = m;
                }
            }
            room[end]--;
            // Walk the chain back: each machine on it hands one shard to the next; the first takes shard s.
            for (int m = end; fromMachine[m] >= 0; m = fromMachine[m]) {
                at[viaShard[m]] = m;
            }
            int first = end;
            while (fromMachine[first] >= 0) {
                first = fromMachine[first];
            }
            at[s] = first;
        }
        return at;
    }

    /** Each shard to the machine that accessed it most, when that beats its owner, whatever the machines' loads. */
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
