package io.pragh.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.keys.KeyLayout;
import io.pragh.store.ValueView;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A traversal's read observer is told the values the traversal itself read, of the keys it observes only, each
 * within its GET's invocation and answer: what a benchmark's history records, so its check can fail.
 */
class KHopTraversalObserverTest {
    private EmbeddedCluster cluster;

    @BeforeEach
    void open() {
        cluster = EmbeddedCluster.builder().machines(3).workersPerMachine(1).keysPerMachine(1_000)
            .valueBytesPerMachine(4 << 20).cacheBytes(1 << 20).remoteLatencyNs(0).build();
        // 1 -> {2, 3}, 2 -> {4}, 3 -> {4, 5}: the lists live on their vertices' homes, mostly remote from 1's.
        cluster.graph().addEdge(1, 0, 2);
        cluster.graph().addEdge(1, 0, 3);
        cluster.graph().addEdge(2, 0, 4);
        cluster.graph().addEdge(3, 0, 4);
        cluster.graph().addEdge(3, 0, 5);
    }

    @AfterEach
    void close() {
        cluster.close();
    }

    private record Read(long key, long[] entries, long invoked, long answered) {
    }

    @ParameterizedTest(name = "batched {0}")
    @ValueSource(booleans = {false, true})
    void observerSeesTheValuesTheTraversalReadOfTheKeysItObservesOnly(boolean batched) {
        long k1 = KeyLayout.key(1, 0, KeyLayout.OUT);
        long k3 = KeyLayout.key(3, 0, KeyLayout.OUT);
        long k4 = KeyLayout.key(4, 0, KeyLayout.OUT); // no list: never read at two hops from 1
        Set<Long> observed = Set.of(k1, k3, k4);
        List<Read> reads = new ArrayList<>();
        List<Long> asked = new ArrayList<>();
        KHopTraversal.ReadObserver observer = new KHopTraversal.ReadObserver() {
            @Override
            public boolean observes(long key) {
                asked.add(key);
                return observed.contains(key);
            }

            @Override
            public void read(long key, ValueView value, long invokedNanos, long answeredNanos) {
                long[] entries = new long[value.longCount()];
                for (int i = 0; i < entries.length; i++) {
                    entries[i] = value.getLong(i);
                }
                reads.add(new Read(key, entries, invokedNanos, answeredNanos));
            }
        };
        long before = System.nanoTime();
        KHopTraversal t = new KHopTraversal(cluster.homeOf(k1).session(), batched, observer);
        long[] twoHop = KHopTraversal.toArray(t.run(1, 0, 2, 100));
        long after = System.nanoTime();
        Arrays.sort(twoHop);
        assertArrayEquals(new long[] {4, 5}, twoHop, "the observer changes nothing the traversal does");
        assertEquals(3, asked.size(), "asked once per GET: 1's list, then 2's and 3's: " + asked);
        assertEquals(2, reads.size(), "told of 1's and 3's lists, not 2's: " + reads);
        Read r1 = reads.stream().filter(r -> r.key == k1).findFirst().orElseThrow();
        Read r3 = reads.stream().filter(r -> r.key == k3).findFirst().orElseThrow();
        assertEquals(Set.of(2L, 3L), Set.of(r1.entries[0], r1.entries[1]));
        assertEquals(Set.of(4L, 5L), Set.of(r3.entries[0], r3.entries[1]));
        for (Read r : reads) {
            assertTrue(before <= r.invoked && r.invoked <= r.answered && r.answered <= after, r.toString());
        }
        assertNull(reads.stream().filter(r -> r.key == k4).findFirst().orElse(null));
    }
}
