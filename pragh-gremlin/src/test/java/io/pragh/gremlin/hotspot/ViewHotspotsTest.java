package io.pragh.gremlin.hotspot;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.Machine;
import io.pragh.gremlin.events.ViewEvents;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.structure.TestGraphs;
import io.pragh.gremlin.view.PraghViews;
import org.agrona.collections.LongArrayList;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ViewHotspotsTest {
    private static final int MEMBERS = 32;
    /** Low enough that any run, however slow, finds a view read a few hundred times hot. */
    private static final double HOT = 1e-3;

    /** A ring of {@code MEMBERS} member vertices joined by "road" edges, and as many outsiders: the view "hot". */
    private static final class Ring {
        final PraghGraph graph;
        final EmbeddedCluster cluster;
        final PraghViews views;
        final long[] members = new long[MEMBERS];
        final long[] outsiders = new long[MEMBERS];

        Ring(final PraghGraph graph) {
            this.graph = graph;
            this.cluster = ((EmbeddedGraphStore) graph.store()).cluster();
            final List<Vertex> vs = new ArrayList<>();
            for (int i = 0; i < MEMBERS; i++) {
                final Vertex v = graph.addVertex("speed", i);
                vs.add(v);
                members[i] = PraghGraph.toVid(v.id());
                outsiders[i] = PraghGraph.toVid(graph.addVertex("speed", -i).id());
            }
            for (int i = 0; i < MEMBERS; i++) {
                vs.get(i).addEdge("road", vs.get((i + 1) % MEMBERS));
            }
            views = PraghViews.of(graph);
            views.create("hot");
            views.add("hot", members);
        }

        /** Every key of the members' that a read touches: vertex records and outgoing "road" lists. */
        long[] readKeys() {
            final int road = graph.store().names().id("road");
            final long[] keys = new long[2 * MEMBERS];
            for (int i = 0; i < MEMBERS; i++) {
                keys[2 * i] = GraphKeys.vertex(members[i]);
                keys[2 * i + 1] = GraphKeys.out(members[i], road);
            }
            return keys;
        }

        void read(final Machine from, final int times) {
            for (int t = 0; t < times; t++) {
                for (final long key : readKeys()) {
                    from.get(key);
                }
            }
        }

        Map<Long, byte[]> values() {
            final Map<Long, byte[]> out = new HashMap<>();
            for (final long key : readKeys()) {
                out.put(key, cluster.machine(0).get(key));
            }
            return out;
        }

        long roadsFromMembers() {
            final GraphTraversalSource g = graph.traversal();
            return g.V(Arrays.stream(members).boxed().toArray()).out("road").count().next();
        }
    }

    private static void flush(final ViewEvents events) throws InterruptedException {
        assertTrue(events.flush(60_000), "the event pool handled the counted reads");
    }

    @Test
    void aHotViewsValuesMoveToTheMachineThatReadsThemWhileTheirKeysStayHome() throws Exception {
        try (PraghGraph graph = TestGraphs.open()) {
            final Ring ring = new Ring(graph);
            try (ViewEvents events = ViewEvents.of(ring.views); ViewHotspots hotspots = ViewHotspots.of(events)) {
                final Map<Long, byte[]> before = ring.values(); // before the watch: reads counted from then on
                hotspots.watch("hot", HOT);
                final int reader = 2;
                ring.read(ring.cluster.machine(reader), 5);
                flush(events);

                final HotspotReport first = hotspots.runRound().get(0);
                assertTrue(first.hot(), "read " + first.reads() + " times: hot");
                assertEquals(5L * 2 * MEMBERS, first.reads());
                assertTrue(first.remoteReads() > 0, "the members' values started at their homes, most not on 2");
                assertTrue(first.moved() > 0);

                final int labels = graph.store().names().edgeLabels().length;
                boolean awayFromHome = false;
                for (final long vid : ring.members) {
                    final LongArrayList keys = MemberValues.keys(ring.cluster, vid, graph.store().names().edgeLabels());
                    assertTrue(keys.size() >= 2 + 2 * labels, "vertex, membership, in/out lists of member " + vid);
                    for (int k = 0; k < keys.size(); k++) {
                        final long key = keys.getLong(k);
                        assertEquals(reader, MemberValues.host(ring.cluster, key), "value of key " + key + " moved to the reader");
                        final int home = ring.cluster.placement().home(key);
                        assertTrue(ring.cluster.machine(home).store().keys().find(key) >= 0, "key " + key + " stays home");
                        if (home != reader) {
                            awayFromHome = true;
                            assertTrue(ring.cluster.machine(reader).store().keys().find(key) < 0,
                                "no key " + key + " at the reader: only its value moved");
                        }
                    }
                }
                assertTrue(awayFromHome, "some member is homed away from the reader");
                for (final long vid : ring.outsiders) {
                    assertFalse(TestGraphs.migrated(ring.cluster, GraphKeys.vertex(vid)), "outsider " + vid + " stays");
                }
                ring.read(ring.cluster.machine(reader), 5);
                flush(events);
                final HotspotReport second = hotspots.runRound().get(0);
                assertEquals(5L * 2 * MEMBERS, second.reads());
                assertEquals(0, second.remoteReads(), "every read of the view is local now");
                assertEquals(0, second.moved(), "placed already");
                final Map<Long, byte[]> after = ring.values();
                before.forEach((key, value) -> assertArrayEquals(value, after.get(key), "key " + key + " reads the same"));
                assertEquals(MEMBERS, ring.roadsFromMembers());
            }
        }
    }

    @Test
    void aViewEveryMachineReadsAlikeSpreadsEvenlyFromTheOneMachineHoldingIt() throws Exception {
        try (PraghGraph graph = TestGraphs.open()) {
            final Ring ring = new Ring(graph);
            for (final long vid : ring.members) {
                final LongArrayList keys = MemberValues.keys(ring.cluster, vid, graph.store().names().edgeLabels());
                for (int k = 0; k < keys.size(); k++) {
                    ring.cluster.machine(1).migrate(keys.getLong(k)); // Concerto's hotspot: one server holds the view
                }
            }
            try (ViewEvents events = ViewEvents.of(ring.views); ViewHotspots hotspots = ViewHotspots.of(events)) {
                hotspots.watch("hot", HOT);
                assertArrayEquals(new int[] {0, MEMBERS, 0, 0}, hotspots.membersByHost("hot"));
                for (int m = 0; m < ring.cluster.machineCount(); m++) {
                    ring.read(ring.cluster.machine(m), 2);
                }
                flush(events);
                assertTrue(hotspots.runRound().get(0).moved() > 0);
                final int quarter = MEMBERS / 4;
                assertArrayEquals(new int[] {quarter, quarter, quarter, quarter}, hotspots.membersByHost("hot"));
                assertEquals(MEMBERS, ring.roadsFromMembers());
            }
        }
    }

    @Test
    void aViewReadBelowItsThresholdStaysWhereItIs() throws Exception {
        try (PraghGraph graph = TestGraphs.open()) {
            final Ring ring = new Ring(graph);
            try (ViewEvents events = ViewEvents.of(ring.views); ViewHotspots hotspots = ViewHotspots.of(events)) {
                hotspots.watch("hot", 1e12);
                ring.read(ring.cluster.machine(3), 2);
                flush(events);
                final HotspotReport r = hotspots.runRound().get(0);
                assertFalse(r.hot());
                assertEquals(0, r.moved());
                for (final long vid : ring.members) {
                    assertFalse(TestGraphs.migrated(ring.cluster, GraphKeys.vertex(vid)));
                }
            }
        }
    }

    @Test
    void aWatchSetFromGremlinIsStoredWithTheViewAndBackWhenReopened() throws Exception {
        try (PraghGraph graph = TestGraphs.open()) {
            final Ring ring = new Ring(graph);
            try (ViewEvents events = ViewEvents.of(ring.views)) {
                try (ViewHotspots hotspots = ViewHotspots.of(events)) {
                    final Map<?, ?> status = (Map<?, ?>) graph.traversal()
                        .call("pragh.hotspot", Map.of("op", "watch", "view", "hot", "readsPerSecond", 5)).next();
                    assertEquals("hot", status.get("view"));
                    assertEquals(4, ((List<?>) status.get("membersByMachine")).size(), "one count per machine");
                }
                try (ViewHotspots reopened = ViewHotspots.of(events)) {
                    assertEquals(Map.of("hot", 5.0), reopened.watched());
                    ring.read(ring.cluster.machine(1), 1);
                    flush(events);
                    final Map<?, ?> round = (Map<?, ?>) graph.traversal()
                        .call("pragh.hotspot", Map.of("op", "round")).next();
                    assertEquals((long) 2 * MEMBERS, round.get("reads"));
                }
            }
        }
    }

    @Test
    void withAutomaticMigrationOnTheMovesGoThroughTheCoordinatorWhichKnowsWhereTheValuesAre() throws Exception {
        final org.apache.commons.configuration2.Configuration conf = TestGraphs.configuration();
        conf.setProperty(EmbeddedGraphStore.MIGRATION, true);
        try (PraghGraph graph = PraghGraph.open(conf)) {
            final Ring ring = new Ring(graph);
            try (ViewEvents events = ViewEvents.of(ring.views); ViewHotspots hotspots = ViewHotspots.of(events)) {
                hotspots.watch("hot", HOT);
                ring.read(ring.cluster.machine(3), 3);
                flush(events);
                hotspots.runRound();
                for (final long vid : ring.members) {
                    final long key = GraphKeys.vertex(vid);
                    assertEquals(3, MemberValues.host(ring.cluster, key), "member " + vid + " on its reader");
                    assertEquals(3, ring.cluster.migrationControl().coordinator().hostOf(key),
                        "the coordinator knows where member " + vid + "'s value went");
                }
                assertEquals(MEMBERS, ring.roadsFromMembers());
            }
        }
    }
}
