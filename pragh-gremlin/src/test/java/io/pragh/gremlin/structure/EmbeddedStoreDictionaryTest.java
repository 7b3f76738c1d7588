package io.pragh.gremlin.structure;

import io.pragh.gremlin.process.PraghHopStrategy;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.store.AccessObserver;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An embedded store's name dictionary is the record's only writer: once warm, a hop over every edge label (fused or
 * TinkerPop's plan), a labelled hop and a lookup of a label never added read the dictionary record no more, and names
 * added through another graph over the store or by work on another machine are seen without reading it. Every GET
 * of every machine is counted through the machines' access observers.
 */
class EmbeddedStoreDictionaryTest {
    /** Counts the GETs of every machine of an embedded store: of the dictionary record, and of anything. */
    private static final class GetCounter implements AccessObserver {
        final AtomicLong dictionary = new AtomicLong();
        final AtomicLong all = new AtomicLong();

        @Override
        public void onAccess(final long key, final int home, final int host) {
            all.incrementAndGet();
            if (key == GraphKeys.dictionary()) {
                dictionary.incrementAndGet();
            }
        }

        GetCounter install(final EmbeddedGraphStore store) {
            for (int m = 0; m < store.machines(); m++) {
                store.cluster().machine(m).store().setAccessObserver(this);
            }
            return this;
        }
    }

    @Test
    void anUnlabelledTwoHopReadsNoDictionaryRecordOnceWarm() {
        try (PraghGraph graph = TestGraphs.open()) {
            final Vertex a = graph.addVertex(T.label, "person");
            final Vertex b = graph.addVertex(T.label, "person");
            final Vertex c = graph.addVertex(T.label, "person");
            a.addEdge("knows", b);
            b.addEdge("likes", c);
            b.addEdge("knows", a);
            final GraphTraversalSource fused = graph.traversal();
            final GraphTraversalSource unfused = graph.traversal().withoutStrategies(PraghHopStrategy.class);
            assertEquals(2L, fused.V(a.id()).out().out().count().next()); // warm-up: plans built, names known

            final GetCounter gets = new GetCounter().install((EmbeddedGraphStore) graph.store());
            for (int i = 0; i < 3; i++) {
                assertEquals(2L, fused.V(a.id()).out().out().count().next(), "fused a->b->{c,a}");
                assertEquals(2L, unfused.V(a.id()).out().out().count().next(), "unfused a->b->{c,a}");
                assertEquals(1L, fused.V(a.id()).out("knows").out("likes").count().next(), "labelled a->b->c");
                assertEquals(0L, fused.V(a.id()).out("never-added").count().next(), "a label no edge carries");
            }
            assertTrue(gets.all.get() > 0, "the observers saw the hops' GETs, so a count of 0 below means something");
            assertEquals(0, gets.dictionary.get(), "GETs of the dictionary record by warm traversals");

            // A new edge label is added at the record's host as a name, then as an edge label, each read back once:
            // the only GETs the sole writer pays.
            a.addEdge("follows", c);
            assertEquals(2, gets.dictionary.get(), "GETs of the dictionary record by adding a name and its edge label");
            assertEquals(2L, fused.V(a.id()).out().count().next(), "the new edge label is walked without a GET");
            assertEquals(2, gets.dictionary.get());
        }
    }

    @Test
    void namesAddedByAnotherGraphOrOnAnotherMachineAreSeenWithoutReadingTheRecord() {
        final EmbeddedGraphStore store = EmbeddedGraphStore.open(TestGraphs.configuration());
        final PraghGraph reader = PraghGraph.open(TestGraphs.configuration(), store);
        final PraghGraph writer = PraghGraph.open(TestGraphs.configuration(), store);
        try {
            assertSame(reader.names(), writer.names(), "one dictionary per store, whichever graph asks");
            final Vertex a = reader.addVertex(T.id, 1L);
            final Vertex b = reader.addVertex(T.id, 2L);
            a.addEdge("knows", b);
            assertEquals(1L, reader.traversal().V(1L).out().count().next()); // warm

            final GetCounter gets = new GetCounter().install(store);
            writer.vertices(1L).next().addEdge("likes", writer.vertices(2L).next());
            // Work run by another machine's worker (as a fused hop or a routed traversal is) adds a third label.
            final int other = (store.cluster().home(GraphKeys.vertex(1L)) + 1) % store.machines();
            final long onOther = firstVidHomedAt(store, other);
            writer.addVertex(T.id, onOther);
            store.callOnHome(GraphKeys.vertex(onOther),
                () -> writer.vertices(1L).next().addEdge("created", writer.vertices(onOther).next()));
            final long addsReadBack = gets.dictionary.get();
            assertEquals(4, addsReadBack, "one read-back per new name and per new edge label ('likes', 'created')");

            assertEquals(3L, reader.traversal().V(1L).out().count().next(), "the reader walks all three labels");
            assertEquals(3L, reader.traversal().withoutStrategies(PraghHopStrategy.class).V(1L).out().count().next());
            assertEquals(addsReadBack, gets.dictionary.get(), "the reader read no dictionary record");
        } finally {
            reader.close(); // closes the store both graphs share
        }
    }

    private static long firstVidHomedAt(final EmbeddedGraphStore store, final int machine) {
        for (long vid = 100; ; vid++) {
            if (store.cluster().home(GraphKeys.vertex(vid)) == machine) {
                return vid;
            }
        }
    }
}
