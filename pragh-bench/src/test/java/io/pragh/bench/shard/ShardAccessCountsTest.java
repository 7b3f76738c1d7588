package io.pragh.bench.shard;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ShardAccessCountsTest {
    @Test
    void balancedPlanKeepsEveryMachinesShardCountWhereTheUnboundedOneGathersThemOnTheBusiestReader() {
        ShardPlacement placement = new ShardPlacement(4, 2);
        ShardAccessCounts counts = new ShardAccessCounts(placement);
        for (int s = 0; s < placement.shards(); s++) {
            counts.add(s, 0, 10 + s); // machine 0 reads every shard most, later shards more
        }
        int[] unbounded = counts.plan();
        for (int s = 0; s < unbounded.length; s++) {
            assertEquals(0, unbounded[s], "unbounded: shard " + s + " to its busiest reader");
        }
        int[] balanced = counts.balancedPlan();
        assertArrayEquals(new int[] {2, 2, 2, 2}, shardsPerMachine(balanced, 4));
        // Machine 0 keeps room for two shards: the two it reads most (6 and 7), its own (0 and 4) go elsewhere.
        assertEquals(0, balanced[6]);
        assertEquals(0, balanced[7]);
        assertEquals(ShardPlan.BALANCED, ShardPlan.parse("balanced"));
        assertArrayEquals(balanced, counts.plan(ShardPlan.BALANCED));
        assertArrayEquals(unbounded, counts.plan(ShardPlan.UNBOUNDED));
    }

    @Test
    void anUnreadClusterMovesNothing() {
        ShardPlacement placement = new ShardPlacement(8, 100);
        int[] plan = new ShardAccessCounts(placement).balancedPlan();
        for (int s = 0; s < plan.length; s++) {
            assertEquals(placement.owner(s), plan[s], "shard " + s);
        }
    }

    @Test
    void balancedPlanIsTheBestAssignmentAnyBruteForceFinds() {
        SplittableRandom rng = new SplittableRandom(7);
        for (int round = 0; round < 60; round++) {
            ShardPlacement placement = new ShardPlacement(3, 2);
            ShardAccessCounts counts = new ShardAccessCounts(placement);
            for (int s = 0; s < placement.shards(); s++) {
                for (int m = 0; m < 3; m++) {
                    // Few distinct values: ties, where the fewest moves must win.
                    counts.add(s, m, rng.nextInt(4) * (rng.nextBoolean() ? 1 : 100));
                }
            }
            int[] plan = counts.balancedPlan();
            assertArrayEquals(new int[] {2, 2, 2}, shardsPerMachine(plan, 3), "round " + round);
            long[] best = best(counts, placement, new int[placement.shards()], 0, new int[] {2, 2, 2});
            assertEquals(best[0], local(counts, plan), "round " + round + ": local accesses of the best assignment");
            assertEquals(best[1], moves(placement, plan), "round " + round + ": fewest moves among the best");
        }
    }

    @Test
    void anUnknownPlanIsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ShardPlan.parse("optimal"));
        assertEquals("--shard-plan optimal is invalid: must be balanced or unbounded", e.getMessage());
    }

    /** {most local accesses, fewest moves among those} over every assignment with these room counts. */
    private static long[] best(ShardAccessCounts counts, ShardPlacement p, int[] plan, int s, int[] room) {
        if (s == plan.length) {
            return new long[] {local(counts, plan), moves(p, plan)};
        }
        long[] best = null;
        for (int m = 0; m < room.length; m++) {
            if (room[m] == 0) {
                continue;
            }
            room[m]--;
            plan[s] = m;
            long[] r = best(counts, p, plan, s + 1, room);
            room[m]++;
            if (best == null || r[0] > best[0] || r[0] == best[0] && r[1] < best[1]) {
                best = r;
            }
        }
        return best;
    }

    private static long local(ShardAccessCounts counts, int[] plan) {
        long n = 0;
        for (int s = 0; s < plan.length; s++) {
            n += counts.count(s, plan[s]);
        }
        return n;
    }

    private static long moves(ShardPlacement p, int[] plan) {
        long n = 0;
        for (int s = 0; s < plan.length; s++) {
            n += plan[s] != p.owner(s) ? 1 : 0;
        }
        return n;
    }

    private static int[] shardsPerMachine(int[] plan, int machines) {
        int[] n = new int[machines];
        for (int m : plan) {
            n[m]++;
        }
        return n;
    }
}
