package io.pragh.bench.shard;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.fabric.FabricStats;
import io.pragh.keys.KeyLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShardBaselineTest {
    private static byte[] value(long v) {
        return ("vertex-" + v).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void shardsMoveWholeToTheirBusiestReaderAndReadsThereBecomeLocal() {
        ShardPlacement placement = new ShardPlacement(4, 10);
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(4).workersPerMachine(1).keysPerMachine(2000)
                .valueBytesPerMachine(4 << 20).cacheBytes(0).remoteLatencyNs(0).placement(placement).build()) {
            List<Long> keys = new ArrayList<>();
            for (long v = 0; v < 400; v++) {
                long k = KeyLayout.key(v, 0, KeyLayout.VERTEX);
                keys.add(k);
                c.machine((int) (v % 4)).put(k, value(v));
            }
            int hotShard = placement.shardOf(keys.get(0));
            int reader = (placement.owner(hotShard) + 1) % 4;
            ShardAccessCounts counts = new ShardAccessCounts(placement);
            for (int m = 0; m < 4; m++) {
                c.machine(m).store().setAccessObserver(counts.observerFor(m));
            }
            List<Long> hot = keys.stream().filter(k -> placement.shardOf(k) == hotShard).toList();
            for (int round = 0; round < 5; round++) {
                for (long k : hot) {
                    c.machine(reader).get(k);
                }
            }
            assertEquals(5L * hot.size(), counts.count(hotShard, reader));
            int[] plan = counts.plan();
            assertEquals(reader, plan[hotShard]);
            int source = placement.owner(hotShard);
            ShardMover mover = new ShardMover(c, placement, 10);
            assertEquals(1, mover.apply(plan), "only the shard that was read moves");
            assertEquals(reader, placement.owner(hotShard));
            assertEquals(hot.size(), mover.keysMoved());
            for (long k : hot) {
                assertEquals(-1, c.machine(source).store().keys().find(k), "keys left the old owner");
                assertTrue(c.machine(reader).store().keys().find(k) >= 0, "keys arrived at the new owner");
            }
            FabricStats.Snapshot before = c.machine(reader).stats().snapshot();
            for (long k : hot) {
                assertArrayEquals(value(KeyLayout.vid(k)), c.machine(reader).get(k));
            }
            assertEquals(0, c.machine(reader).stats().snapshot().minus(before).remoteOps());
            for (long k : keys) {
                for (int m = 0; m < 4; m++) {
                    assertArrayEquals(value(KeyLayout.vid(k)), c.machine(m).get(k), "every key still reads right");
                }
            }
        }
    }
}
