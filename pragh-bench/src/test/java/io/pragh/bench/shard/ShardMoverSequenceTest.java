package io.pragh.bench.shard;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.keys.KeyLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The mover's sequence over any {@link ShardHosts}: every copy before any flip, every machine flipped before the
 * grace period, then each source unloads what it gave away; the mover's own table follows.
 */
class ShardMoverSequenceTest {
    /** Embedded hosts whose steps are written down as they run. */
    private static class Recording implements ShardHosts {
        final ShardHosts inner;
        final List<String> steps = new ArrayList<>();

        Recording(ShardHosts inner) {
            this.inner = inner;
        }

        @Override
        public int machines() {
            return inner.machines();
        }

        @Override
        public ShardPage export(int machine, int shard, long cursor, int maxBytes) {
            return inner.export(machine, shard, cursor, maxBytes);
        }

        @Override
        public void importPage(int machine, ShardPage page) {
            steps.add("import " + machine);
            inner.importPage(machine, page);
        }

        @Override
        public void assign(int machine, int[] shards, int[] owners) {
            steps.add("assign " + machine);
            inner.assign(machine, shards, owners);
        }

        @Override
        public long unload(int machine, int shard) {
            long n = inner.unload(machine, shard);
            steps.add("unload " + machine + " shard " + shard + ": " + n);
            return n;
        }
    }

    @Test
    void copiesThenFlipsEverywhereThenUnloadsTheSources() {
        ShardPlacement placement = new ShardPlacement(3, 2);
        try (EmbeddedCluster c = cluster(placement)) {
            long[] perShard = load(c, placement);
            // Shards 0 and 3 belong to machine 0 (shard s starts at s % 3); both go to machine 2.
            int[] plan = {2, 1, 2, 2, 1, 2};
            Recording hosts = new Recording(new EmbeddedShardHosts(c, placement));
            ShardMover mover = new ShardMover(hosts, placement, 1);
            assertEquals(2, mover.apply(plan));
            assertEquals(List.of("import 2", "import 2", "assign 0", "assign 1", "assign 2",
                "unload 0 shard 0: " + perShard[0], "unload 0 shard 3: " + perShard[3]), hosts.steps);
            assertEquals(perShard[0] + perShard[3], mover.keysMoved());
            for (int s = 0; s < plan.length; s++) {
                assertEquals(plan[s], placement.owner(s));
            }
            for (long v = 0; v < 200; v++) {
                long k = KeyLayout.key(v, 0, KeyLayout.VERTEX);
                for (int m = 0; m < 3; m++) {
                    assertArrayEquals(Long.toString(v).getBytes(StandardCharsets.UTF_8), c.machine(m).get(k));
                }
            }
            hosts.steps.clear();
            assertEquals(0, mover.apply(plan), "a plan already in place moves nothing");
            assertEquals(List.of(), hosts.steps);
        }
    }

    @Test
    void aPlanThatDoesNotFitTheTableIsRefusedBeforeAnythingMoves() {
        ShardPlacement placement = new ShardPlacement(3, 2);
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(3).workersPerMachine(1).keysPerMachine(1000)
                .valueBytesPerMachine(1 << 20).cacheBytes(0).remoteLatencyNs(0).placement(placement).build()) {
            ShardMover mover = new ShardMover(c, placement, 1);
            assertThrows(IllegalArgumentException.class, () -> mover.apply(new int[5]));
            assertThrows(IllegalArgumentException.class, () -> mover.apply(new int[] {0, 1, 2, 0, 1, 3}));
            assertEquals(0, placement.owner(3), "nothing moved");
            ShardPlacement other = new ShardPlacement(4, 2);
            assertThrows(IllegalArgumentException.class,
                () -> new ShardMover(new EmbeddedShardHosts(c, placement), other, 1));
        }
    }

    @Test
    void aCopyThatFailsTakesEveryCopyBackAndFlipsNothing() {
        ShardPlacement placement = new ShardPlacement(3, 2);
        try (EmbeddedCluster c = cluster(placement)) {
            long[] perShard = load(c, placement);
            // The second import (shard 3 to machine 2) fails, as on a target whose value region filled.
            Recording hosts = new Recording(new EmbeddedShardHosts(c, placement)) {
                private int imports;

                @Override
                public void importPage(int machine, ShardPage page) {
                    if (++imports == 2) {
                        throw new IllegalStateException("machine " + machine + "'s value region is full");
                    }
                    super.importPage(machine, page);
                }
            };
            ShardMover mover = new ShardMover(hosts, placement, 1);
            int[] plan = {2, 1, 2, 2, 1, 2};
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> mover.apply(plan));
            assertEquals("machine 2's value region is full", e.getMessage());
            assertEquals(List.of("import 2", "unload 2 shard 0: " + perShard[0], "unload 2 shard 3: 0"), hosts.steps,
                "shard 0's copy was taken back from machine 2; shard 3 had none");
            assertEquals(0, placement.owner(0), "nothing was flipped");
            assertEquals(0, placement.owner(3));
            assertEquals(0, countOn(c, placement, 2, 0), "machine 2 holds no copy of shard 0 any more");
            for (long v = 0; v < 200; v++) {
                long k = KeyLayout.key(v, 0, KeyLayout.VERTEX);
                assertArrayEquals(Long.toString(v).getBytes(StandardCharsets.UTF_8), c.machine(1).get(k));
            }
            assertEquals(2, mover.apply(plan), "a retry is not refused");
            assertEquals(2, placement.owner(3));
        }
    }

    /** How many keys of {@code shard} machine {@code m} holds records of. */
    private static long countOn(EmbeddedCluster c, ShardPlacement placement, int m, int shard) {
        long[] n = {0};
        c.machine(m).store().keys().forEach((key, address, slot) -> {
            if (placement.shardOf(key) == shard && address != io.pragh.address.Address.NONE) {
                n[0]++;
            }
        });
        return n[0];
    }

    /** Three machines on {@code placement}, shards 0 and 3 on machine 0 (shard s starts at s % 3). */
    private static EmbeddedCluster cluster(ShardPlacement placement) {
        return EmbeddedCluster.builder().machines(3).workersPerMachine(1).keysPerMachine(2000)
            .valueBytesPerMachine(4 << 20).cacheBytes(1 << 20).remoteLatencyNs(0).placement(placement).build();
    }

    /** Stores vertices 0..199 at their homes; returns how many keys each shard holds. */
    private static long[] load(EmbeddedCluster c, ShardPlacement placement) {
        long[] perShard = new long[placement.shards()];
        for (long v = 0; v < 200; v++) {
            long k = KeyLayout.key(v, 0, KeyLayout.VERTEX);
            c.homeOf(k).put(k, Long.toString(v).getBytes(StandardCharsets.UTF_8));
            perShard[placement.shardOf(k)]++;
        }
        return perShard;
    }
}
