package io.pragh.gremlin.structure;

import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.util.iterator.IteratorUtils;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ConcurrentEdgeInsertTest {
    @Test
    void concurrentInsertsOfEdgesAndPropertiesOnOneVertexLoseNothing() throws Exception {
        final org.apache.commons.configuration2.Configuration conf = TestGraphs.configuration();
        // every append rewrites the hub's whole list and the old copies wait out the reclaim lease: room for them
        conf.setProperty(EmbeddedGraphStore.VALUE_BYTES, 64L << 20);
        try (PraghGraph graph = PraghGraph.open(conf)) {
            final Vertex hub = graph.addVertex(T.id, 0);
            final int threads = 4;
            final int perThread = 150;
            final List<Vertex> targets = new ArrayList<>();
            for (int i = 1; i <= threads * perThread; i++) {
                targets.add(graph.addVertex(T.id, i));
            }
            final ExecutorService pool = Executors.newFixedThreadPool(threads);
            final CountDownLatch go = new CountDownLatch(1);
            final List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                final int from = t * perThread;
                done.add(pool.submit(() -> {
                    go.await();
                    for (int i = from; i < from + perThread; i++) {
                        hub.addEdge("x", targets.get(i), "n", i);
                        hub.property(org.apache.tinkerpop.gremlin.structure.VertexProperty.Cardinality.list, "seen", i);
                    }
                    return null;
                }));
            }
            go.countDown();
            for (final Future<?> f : done) {
                f.get();
            }
            pool.shutdown();
            assertEquals(threads * perThread, IteratorUtils.count(hub.edges(Direction.OUT, "x")));
            assertEquals(threads * perThread, IteratorUtils.count(hub.properties("seen")));
            assertEquals(threads * perThread, (long) graph.traversal().V(0).outE().values("n").dedup().count().next());
        }
    }
}
