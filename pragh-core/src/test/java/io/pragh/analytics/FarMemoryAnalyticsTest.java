package io.pragh.analytics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.keys.KeyLayout;
import io.pragh.tier.TieringConfig;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.agrona.collections.Long2LongHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class FarMemoryAnalyticsTest {
    private static final int VERTICES = 300;
    private static final Map<Long, List<Long>> EDGES = new TreeMap<>();
    private static EmbeddedCluster cluster;

    @BeforeAll
    static void load() {
        cluster = EmbeddedCluster.builder().machines(2).memoryNodes(1, 8 << 20).workersPerMachine(1)
            .keysPerMachine(10_000).valueBytesPerMachine(8 << 20).remoteLatencyNs(0)
            .tiering(TieringConfig.defaults().withLocalBudgetBytes(4 << 10).withIntervalMillis(TieringConfig.MANUAL))
            .build();
        Random random = new Random(18);
        for (long v = 0; v < VERTICES; v++) {
            int degree = v % 17 == 0 ? 0 : 1 + random.nextInt(6);   // some vertices have no out-list at all
            for (int e = 0; e < degree; e++) {
                long dst = random.nextInt(VERTICES + 20);             // and some appear only as neighbours
                EDGES.computeIfAbsent(v, k -> new java.util.ArrayList<>()).add(dst);
                cluster.graph().addEdge(v, 0, dst);
            }
        }
        cluster.tiering().runRound();
        assertTrue(cluster.tiering().bytes().far() > cluster.tiering().bytes().local(),
            "most lists should be far: " + cluster.tiering().bytes());
    }

    @AfterAll
    static void close() {
        cluster.close();
    }

    private static List<ScanOptions> allWays() {
        return List.of(ScanOptions.defaults(), ScanOptions.defaults().withChunkBytes(256),
            new ScanOptions(ScanOptions.FarReads.CHUNKED, 64, 1),
            ScanOptions.defaults().withMode(ScanOptions.FarReads.ON_DEMAND));
    }

    @Test
    void bfsOverFarMemoryEqualsAPlainInMemoryBfs() {
        Map<Long, Long> expected = new HashMap<>();
        expected.put(1L, 0L);
        ArrayDeque<Long> queue = new ArrayDeque<>(List.of(1L));
        while (!queue.isEmpty()) {
            long v = queue.poll();
            for (long n : EDGES.getOrDefault(v, List.of())) {
                if (!expected.containsKey(n)) {
                    expected.put(n, expected.get(v) + 1);
                    queue.add(n);
                }
            }
        }
        assertTrue(expected.size() > VERTICES / 2, "the test graph should reach most vertices");
        for (ScanOptions options : allWays()) {
            GraphAnalytics analytics = new GraphAnalytics(cluster, options);
            Long2LongHashMap levels = analytics.bfs(1, 0);
            Map<Long, Long> got = new HashMap<>();
            levels.forEach(got::put);
            assertEquals(expected, got, options.toString());
            assertTrue(analytics.farReads() > 0, "far values were read: " + options);
        }
    }

    @Test
    void pageRankOverFarMemoryEqualsAPlainInMemoryPageRank() {
        Map<Long, Integer> index = new HashMap<>();
        EDGES.forEach((v, ns) -> {
            index.putIfAbsent(v, index.size());
            ns.forEach(n -> index.putIfAbsent(n, index.size()));
        });
        int n = index.size();
        double[] rank = new double[n];
        java.util.Arrays.fill(rank, 1.0 / n);
        for (int it = 0; it < 10; it++) {
            double[] next = new double[n];
            double dangling = 0;
            for (Map.Entry<Long, Integer> e : index.entrySet()) {
                List<Long> out = EDGES.getOrDefault(e.getKey(), List.of());
                if (out.isEmpty()) {
                    dangling += rank[e.getValue()];
                }
                for (long dst : out) {
                    next[index.get(dst)] += rank[e.getValue()] / out.size();
                }
            }
            for (int v = 0; v < n; v++) {
                next[v] = 0.15 / n + 0.85 * (next[v] + dangling / n);
            }
            rank = next;
        }
        for (ScanOptions options : allWays()) {
            PageRank.Result result = new GraphAnalytics(cluster, options).pageRank(0, 10, 0.85);
            assertEquals(n, result.vertices(), options.toString());
            for (Map.Entry<Long, Integer> e : index.entrySet()) {
                assertEquals(rank[e.getValue()], result.rank(e.getKey()), 1e-12, "vertex " + e.getKey() + " " + options);
            }
        }
    }
    /**
     * One machine's scan reads lists by key wherever they are homed: its own keys' words in place, the other
     * machine's by batched lookups at their home; far lists come in chunks per host (one READ per list on demand).
     */
    @Test
    void aScanReadsListsHomedOnAnyMachineByKey() {
        long[] keys = new long[VERTICES];
        for (int v = 0; v < VERTICES; v++) {
            keys[v] = KeyLayout.key(v, 0, KeyLayout.OUT);
        }
        for (ScanOptions options : allWays()) {
            AdjacencyScan scan = new AdjacencyScan(cluster.machine(0).store(), options);
            Map<Long, List<Long>> got = new TreeMap<>();
            cluster.machine(0).submit(() -> {
                scan.read(keys, keys.length, (key, buf, off, len) -> {
                    List<Long> ns = got.computeIfAbsent(KeyLayout.vid(key), k -> new java.util.ArrayList<>());
                    for (int i = 0; i + 8 <= len; i += 8) {
                        ns.add(buf.getLong(off + i));
                    }
                });
                return null;
            }).join();
            assertEquals(EDGES, got, options.toString());
            assertTrue(scan.farValues() > VERTICES / 2, "most lists are far: " + scan.farValues() + " " + options);
            if (options.mode() == ScanOptions.FarReads.ON_DEMAND) {
                assertEquals(scan.farValues(), scan.farReads(), "one READ per far list on demand");
            } else if (options.chunkBytes() >= 4096) {
                // Lists of different size classes lie apart in the memory node's region: a chunk takes a few each.
                assertTrue(scan.farReads() * 2 <= scan.farValues(), scan.farReads() + " chunk READs for "
                    + scan.farValues() + " far lists " + options);
            }
        }
    }
    /** A BFS level wants scattered lists: chunks that end at a gap copy fewer bytes, and BFS answers the same. */
    @Test
    void chunksEndAtGapsWiderThanTheBound() {
        ScanOptions unbounded = ScanOptions.defaults().withMaxGapBytes(Integer.MAX_VALUE);
        GraphAnalytics wide = new GraphAnalytics(cluster, unbounded);
        GraphAnalytics tight = new GraphAnalytics(cluster, ScanOptions.defaults().withMaxGapBytes(0));
        Long2LongHashMap expected = wide.bfs(1, 0);
        Long2LongHashMap got = tight.bfs(1, 0);
        assertEquals(expected.size(), got.size());
        expected.forEach((v, d) -> assertEquals(d, got.get(v), "vertex " + v));
        assertTrue(tight.farBytes() < wide.farBytes(), "gap-free chunks copied " + tight.farBytes() + " bytes, chunks"
            + " over gaps " + wide.farBytes());
        assertTrue(tight.farReads() > wide.farReads(), "gaps end chunks: " + tight.farReads() + " READs against "
            + wide.farReads());
    }
}
