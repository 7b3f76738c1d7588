package io.pragh.gremlin.events;

import io.pragh.durability.SyncPolicy;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.structure.TestGraphs;
import io.pragh.gremlin.view.PraghViews;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ViewEventsTest {
    /** Generous: a flush waits for handlers, it does not time them. */
    private static final long FLUSH_MILLIS = 60_000;

    private static long vid(final Vertex v) {
        return PraghGraph.toVid(v.id());
    }

    private static void flush(final ViewEvents events) throws InterruptedException {
        assertTrue(events.flush(FLUSH_MILLIS), "the event pool handled what was queued");
    }

    @Test
    void eachCommittedUpdateOfAMemberIsHandledExactlyOnceAndInOrder() throws Exception {
        try (PraghGraph graph = TestGraphs.open()) {
            final Vertex a = graph.addVertex();
            final Vertex b = graph.addVertex();
            final PraghViews views = PraghViews.of(graph);
            views.create("city");
            views.add("city", vid(a), vid(b));
            try (ViewEvents events = ViewEvents.of(views)) {
                events.subscribe("speeds", "city", EventKind.PROPERTY_UPDATE);
                final Map<Long, List<Object>> seen = new ConcurrentHashMap<>();
                events.handle("speeds", (ViewHandler.PropertyUpdate) e ->
                    seen.computeIfAbsent(e.vid(), k -> Collections.synchronizedList(new ArrayList<>())).add(e.value()));
                for (int i = 0; i < 200; i++) {
                    a.property("speed", i);
                    b.property("speed", 1000 + i);
                }
                flush(events);
                assertEquals(IntStream.range(0, 200).boxed().collect(Collectors.toList()), seen.get(vid(a)));
                assertEquals(IntStream.range(1000, 1200).boxed().collect(Collectors.toList()), seen.get(vid(b)));
                assertEquals(0, events.dropped());
            }
        }
    }

    @Test
    void updatesOfVerticesOutsideTheViewAreNeverHandled() throws Exception {
        try (PraghGraph graph = TestGraphs.open()) {
            final Vertex member = graph.addVertex();
            final Vertex outsider = graph.addVertex();
            final Vertex leaver = graph.addVertex();
            final PraghViews views = PraghViews.of(graph);
            views.create("city");
            views.add("city", vid(member), vid(leaver));
            views.remove("city", vid(leaver));
            try (ViewEvents events = ViewEvents.of(views)) {
                events.subscribe("all", "city", EventKind.VERTEX_UPDATE, EventKind.PROPERTY_UPDATE,
                    EventKind.EDGE_UPDATE);
                final List<String> seen = Collections.synchronizedList(new ArrayList<>());
                events.handle("all", new Recorder(seen));
                outsider.property("speed", 1);
                leaver.property("speed", 1);
                member.addEdge("road", outsider); // one end outside: not an edge of the view
                member.property("speed", 2);
                final Vertex second = graph.addVertex();
                // Its creation committed while it was out: never delivered, even if handled after it joins.
                views.add("city", vid(second));
                member.addEdge("road", second);
                flush(events);
                assertEquals(List.of("PROPERTY_UPDATE " + vid(member), "EDGE_UPDATE " + vid(member)), seen);
            }
        }
    }

    @Test
    void membershipIsAsOfCommitEvenWhenItChangesBeforeTheHandlerRuns() throws Exception {
        try (PraghGraph graph = TestGraphs.open()) {
            final Vertex a = graph.addVertex();
            final PraghViews views = city(graph, a);
            try (ViewEvents events = ViewEvents.of(views)) {
                events.subscribe("speeds", "city", EventKind.PROPERTY_UPDATE);
                final List<Object> seen = Collections.synchronizedList(new ArrayList<>());
                final CountDownLatch release = new CountDownLatch(1);
                events.handle("speeds", (ViewHandler.PropertyUpdate) e -> {
                    seen.add(e.value());
                    if (Integer.valueOf(1).equals(e.value())) {
                        awaitQuietly(release); // holds a's lane: the updates below queue behind it
                    }
                });
                a.property("speed", 1); // a member
                a.property("speed", 2); // a member when it commits, not when it is handled
                views.remove("city", vid(a));
                a.property("speed", 3); // not a member when it commits, a member when it is handled
                views.add("city", vid(a));
                a.property("speed", 4);
                views.remove("city", vid(a));
                release.countDown();
                flush(events);
                assertEquals(List.of(1, 2, 4), seen);
            }
        }
    }

    @Test
    void handlersOfCombinedViewsSeeExactlyTheCombinedMembers() throws Exception {
        try (PraghGraph graph = TestGraphs.open()) {
            final long[] v = new long[4];
            final Vertex[] vs = new Vertex[4];
            for (int i = 0; i < 4; i++) {
                vs[i] = graph.addVertex();
                v[i] = vid(vs[i]);
            }
            final PraghViews views = PraghViews.of(graph);
            views.create("a");
            views.create("b");
            views.add("a", v[0], v[1]);
            views.add("b", v[1], v[2]);
            views.union("u", "a", "b");
            views.intersection("i", "a", "b");
            views.difference("d", "a", "b");
            try (ViewEvents events = ViewEvents.of(views)) {
                final Map<String, Set<Long>> seen = new ConcurrentHashMap<>();
                for (final String name : List.of("u", "i", "d")) {
                    events.subscribe(name, name, EventKind.PROPERTY_UPDATE);
                    events.handle(name, (ViewHandler.PropertyUpdate) e ->
                        seen.computeIfAbsent(e.view(), k -> Collections.synchronizedSet(new TreeSet<>())).add(e.vid()));
                }
                for (final Vertex x : vs) {
                    x.property("speed", 7);
                }
                flush(events);
                assertEquals(Set.of(v[0], v[1], v[2]), seen.get("u"));
                assertEquals(Set.of(v[1]), seen.get("i"));
                assertEquals(Set.of(v[0]), seen.get("d"));
            }
        }
    }

    @Test
    void aHandlerOfNoSubscribedKindAndAMissingViewAreRefusedByName() {
        try (PraghGraph graph = TestGraphs.open()) {
            final PraghViews views = PraghViews.of(graph);
            views.create("city");
            try (ViewEvents events = ViewEvents.of(views)) {
                events.subscribe("reads", "city", EventKind.VERTEX_READ);
                final IllegalArgumentException kind = assertThrows(IllegalArgumentException.class,
                    () -> events.handle("reads", (ViewHandler.PropertyUpdate) e -> { }));
                assertTrue(kind.getMessage().contains("reads"), kind.getMessage());
                final IllegalArgumentException view = assertThrows(IllegalArgumentException.class,
                    () -> events.subscribe("x", "nowhere", EventKind.VERTEX_UPDATE));
                assertTrue(view.getMessage().contains("nowhere"), view.getMessage());
            }
        }
    }

    @Test
    void readsOfMembersAreEventsButAHandlersOwnReadsAreNot() throws Exception {
        try (PraghGraph graph = TestGraphs.open()) {
            final Vertex a = graph.addVertex();
            a.property("name", "a");
            final PraghViews views = city(graph, a);
            try (ViewEvents events = ViewEvents.of(views)) {
                events.subscribe("reads", "city", EventKind.VERTEX_READ);
                final List<Long> seen = Collections.synchronizedList(new ArrayList<>());
                events.handle("reads", (ViewHandler.VertexRead) e -> {
                    seen.add(e.vid());
                    e.views().graph().vertices(e.vid()).next().value("name"); // a read on the lane: no event
                });
                graph.traversal().V(vid(a)).values("name").next();
                flush(events);
                assertTrue(!seen.isEmpty() && seen.stream().allMatch(x -> x == vid(a)), seen.toString());
                final int after = seen.size();
                flush(events);
                assertEquals(after, seen.size(), "the handler's own reads fed no further events");
            }
        }
    }

    /**
     * The graph's housekeeping reads (the segment sweep reads every home list each period, on a duty thread) are not
     * read events: counted, they gave machines nobody read through a share of a hot view's placement.
     */
    @Test
    void readsOnTheGraphsDutyThreadsAreNoEvents() throws Exception {
        try (PraghGraph graph = TestGraphs.open()) {
            final Vertex a = graph.addVertex();
            final PraghViews views = city(graph, a);
            try (ViewEvents events = ViewEvents.of(views)) {
                events.subscribe("reads", "city", EventKind.VERTEX_READ);
                final List<Long> seen = Collections.synchronizedList(new ArrayList<>());
                events.handle("reads", (ViewHandler.VertexRead) e -> seen.add(e.vid()));
                final long key = io.pragh.gremlin.storage.GraphKeys.vertex(vid(a));
                final Thread duty = io.pragh.gremlin.structure.DutyReads.newThread(() -> graph.store().get(key),
                    "test-duty");
                duty.start();
                duty.join();
                graph.store().get(key);
                flush(events);
                assertEquals(List.of(vid(a)), seen, "the user's read is an event, the duty's is not");
            }
        }
    }

    @Test
    void subscriptionsSurviveARestartAndFireOnceHandlersAreBack(@TempDir final Path dir) throws Exception {
        final long a;
        try (PraghGraph graph = durable(dir)) {
            final Vertex v = graph.addVertex();
            a = vid(v);
            final PraghViews views = PraghViews.of(graph);
            views.create("city");
            views.add("city", a);
            try (ViewEvents events = ViewEvents.of(views)) {
                events.subscribe("speeds", "city", EventKind.PROPERTY_UPDATE);
                events.subscribe("gone", "city", EventKind.VERTEX_UPDATE);
                events.unsubscribe("gone");
            }
        }
        try (PraghGraph graph = durable(dir)) {
            try (ViewEvents events = ViewEvents.of(PraghViews.of(graph))) {
                assertEquals(Map.of("speeds", "city"), events.subscriptions());
                assertEquals(Set.of(EventKind.PROPERTY_UPDATE), events.kinds("speeds"));
                final List<Object> seen = Collections.synchronizedList(new ArrayList<>());
                events.handle("speeds", (ViewHandler.PropertyUpdate) e -> seen.add(e.value()));
                graph.vertices(a).next().property("speed", 55);
                graph.vertices(a).next().property("speed", 56);
                flush(events);
                assertEquals(List.of(55, 56), seen);
            }
        }
    }

    /** The views of {@code graph}, with view "city" holding {@code members}. */
    private static PraghViews city(final PraghGraph graph, final Vertex... members) {
        final PraghViews views = PraghViews.of(graph);
        views.create("city");
        for (final Vertex m : members) {
            views.add("city", vid(m));
        }
        return views;
    }

    private static void awaitQuietly(final CountDownLatch latch) {
        try {
            latch.await(FLUSH_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static PraghGraph durable(final Path dir) {
        return PraghGraph.open(TestGraphs.configuration(), EmbeddedGraphStore.build(EmbeddedCluster.builder()
            .machines(2).workersPerMachine(1).pinThreads(false).keysPerMachine(16_384).valueBytesPerMachine(4L << 20)
            .durability(dir, SyncPolicy.NONE, 60_000)));
    }

    /** Records "KIND vid" of every update event. */
    private static final class Recorder implements ViewHandler.VertexUpdate, ViewHandler.PropertyUpdate,
        ViewHandler.EdgeUpdate {
        private final List<String> seen;

        Recorder(final List<String> seen) {
            this.seen = seen;
        }

        @Override
        public void onVertexUpdate(final ViewEvent e) {
            seen.add(e.kind() + " " + e.vid());
        }

        @Override
        public void onPropertyUpdate(final ViewEvent e) {
            seen.add(e.kind() + " " + e.vid());
        }

        @Override
        public void onEdgeUpdate(final ViewEvent e) {
            seen.add(e.kind() + " " + e.vid());
        }
    }

    @Test
    void anEdgeMembersUpdatesFireItsViewAndOtherEdgesOfTheSameListDoNot() throws Exception {
        try (PraghGraph graph = TestGraphs.open()) {
            final Vertex a = graph.addVertex();
            final Vertex b = graph.addVertex();
            final Vertex c = graph.addVertex();
            final org.apache.tinkerpop.gremlin.structure.Edge member = a.addEdge("road", b);
            final org.apache.tinkerpop.gremlin.structure.Edge other = a.addEdge("road", c);
            final PraghViews views = PraghViews.of(graph);
            views.create("roads");
            views.addEdges("roads", member);
            try (ViewEvents events = ViewEvents.of(views)) {
                events.subscribe("edges", "roads", EventKind.PROPERTY_UPDATE, EventKind.EDGE_UPDATE);
                final List<String> seen = Collections.synchronizedList(new ArrayList<>());
                events.handle("edges", (ViewHandler.PropertyUpdate) e -> seen.add(e.kind() + " " + e.vid()));
                member.property("closed", true);
                other.property("closed", true);
                a.property("speed", 10); // a is no member: its own updates are not the view's
                flush(events);
                assertEquals(List.of(EventKind.PROPERTY_UPDATE + " " + vid(a)), seen);
                other.remove();
                flush(events);
                assertEquals(1, seen.size(), "removing a non-member edge of the list fires nothing: " + seen);
            }
        }
    }
}
