package io.pragh.gremlin.structure;

import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two PraghGraph instances over one store: they must agree on what every label and property key id means, see each
 * other's edge labels, and never assign the same element id. Each allocates ids as a server process does; over an
 * embedded store they share its one dictionary (processes with dictionaries of their own:
 * {@code ClusterGraphStoreDictionaryTest}).
 */
class SharedStoreGraphsTest {
    @Test
    void twoGraphsOverOneStoreAgreeOnTheDictionary() {
        final GraphStore store = EmbeddedGraphStore.open(new BaseConfiguration());
        final PraghGraph a = PraghGraph.open(new BaseConfiguration(), store);
        final PraghGraph b = PraghGraph.open(new BaseConfiguration(), store);
        try {
            // Interleaved first sightings: each name gets one id, whichever graph saw it first.
            final int person = a.names().intern("person");
            final int name = b.names().intern("name");
            final int knows = b.names().internEdgeLabel("knows");
            assertEquals(person, b.names().intern("person"));
            assertEquals(name, a.names().intern("name"));
            assertEquals(knows, a.names().id("knows"));
            assertEquals("knows", a.names().name(knows));
            assertEquals(3, new HashSet<>(List.of(person, name, knows)).size(), "distinct names, distinct ids");
            assertTrue(contains(a.names().edgeLabels(), knows), "an edge label added through b is one in a");
            assertEquals(-1, a.names().id("never-interned"));

            // Elements written through one graph read through the other, by names the other never interned itself.
            final Vertex marko = a.addVertex(T.label, "software", "lang", "java");
            final Vertex josh = a.addVertex(T.label, "person", "name", "josh");
            marko.addEdge("created", josh, "weight", 0.5d);
            final Vertex read = b.vertices(marko.id()).next();
            assertEquals("software", read.label());
            assertEquals("java", read.value("lang"));
            assertEquals(List.of(josh.id()), b.traversal().V(marko.id()).out().id().toList(),
                "b walks the 'created' edge label a added");
            assertEquals(0.5d, (double) b.traversal().V(marko.id()).outE("created").values("weight").next());
        } finally {
            a.close(); // closes the store both graphs share
        }
    }

    @Test
    void twoGraphsOverOneStoreNeverAssignTheSameId() {
        final GraphStore store = EmbeddedGraphStore.open(new BaseConfiguration());
        final PraghGraph a = PraghGraph.open(new BaseConfiguration(), store);
        final PraghGraph b = PraghGraph.open(new BaseConfiguration(), store);
        try {
            final Set<Object> ids = new HashSet<>();
            for (int i = 0; i < 3000; i++) { // across several id blocks of each graph
                assertTrue(ids.add((i % 2 == 0 ? a : b).addVertex().id()), "id assigned twice at vertex " + i);
            }
            // A user-supplied id inside the block after the next one to be claimed (b's next block, were a to claim
            // its own first) makes every later block start past it, in the other graph too.
            final long supplied = io.pragh.gremlin.storage.ByteReader.longAt(
                store.get(io.pragh.gremlin.storage.GraphKeys.idBlocks()), 0) + IdAllocator.BLOCK + 10;
            a.addVertex(T.id, supplied);
            for (int i = 0; i < 2 * IdAllocator.BLOCK; i++) {
                assertTrue((Long) b.addVertex().id() != supplied, "b assigned the id a's user supplied");
            }
        } finally {
            a.close(); // closes the store both graphs share
        }
    }

    private static boolean contains(final int[] values, final int v) {
        for (final int x : values) {
            if (x == v) {
                return true;
            }
        }
        return false;
    }

    @Test
    void aGraphWhoseStoreAnotherGraphClosedStopsItsSegmentSweep() throws InterruptedException {
        final GraphStore store = EmbeddedGraphStore.open(new BaseConfiguration());
        final BaseConfiguration quickSweep = new BaseConfiguration();
        quickSweep.setProperty(SegmentSealer.SWEEP_MILLIS, 20L);
        final PraghGraph a = PraghGraph.open(quickSweep, store);
        final PraghGraph b = PraghGraph.open(quickSweep, store);
        assertFalse(b.sweeper().stopped(), "b sweeps while the store is open");
        a.close(); // closes the store both graphs share; b is never closed
        final long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (!b.sweeper().stopped() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(b.sweeper().stopped(), "b's sweep stopped with the store instead of failing against it every period");
    }
}
