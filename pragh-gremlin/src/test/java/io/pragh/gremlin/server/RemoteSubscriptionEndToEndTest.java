package io.pragh.gremlin.server;

import io.pragh.gremlin.events.ViewEvents;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.view.PraghViews;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource.traversal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RemoteSubscriptionEndToEndTest {
    @Test
    void aRemoteSubscriberReceivesTheEventsOfItsViewInOrderAndNoOthers() throws Exception {
        try (ServedGraph served = new ServedGraph()) {
            final PraghGraph graph = served.graph;
            final Vertex member = graph.addVertex();
            final Vertex outsider = graph.addVertex();
            final PraghViews views = PraghViews.of(graph);
            views.create("city");
            views.add("city", PraghGraph.toVid(member.id()));
            final ViewEvents events = ViewEvents.of(views); // the server's own: one per graph
            final Cluster cluster = Cluster.build("127.0.0.1").port(served.port).create();
            final ExecutorService reader = Executors.newSingleThreadExecutor();
            try {
                final GraphTraversalSource g = traversal().with(DriverRemoteConnection.using(cluster, "g"));
                // The subscriber reads on a thread of its own: promise(t -> t.toList()) runs toList on the calling
                // thread when the request is sent before promise returns, and this thread must write the events.
                final CompletableFuture<List<Map<String, Object>>> stream = CompletableFuture.supplyAsync(
                    () -> g.with("batchSize", 1).<Map<String, Object>>call("pragh.subscribe", Map.of("view", "city",
                        "events", List.of("PROPERTY_UPDATE"), "limit", 3, "timeout", 60_000)).toList(), reader);
                while (events.remoteSubscribers() == 0) {
                    assertTrue(!stream.isDone(), "the stream ended before it opened: " + stream);
                    Thread.sleep(10); // waiting for the request to reach the server, not timing it
                }
                for (int i = 0; i < 3; i++) {
                    outsider.property("speed", 100 + i);
                    member.property("speed", i);
                }
                final List<Map<String, Object>> got;
                try {
                    got = stream.get(120, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException e) {
                    throw new AssertionError("the stream failed; delivered " + events.delivered() + ", failures "
                        + events.failures() + ", dropped " + events.dropped() + ", open streams "
                        + events.remoteSubscribers(), e);
                }
                assertEquals(List.of(0, 1, 2), got.stream().map(e -> e.get("value")).collect(Collectors.toList()));
                assertTrue(got.stream().allMatch(e -> "PROPERTY_UPDATE".equals(e.get("kind"))
                    && "city".equals(e.get("view")) && "speed".equals(e.get("property"))), got.toString());
                assertEquals(0, events.remoteSubscribers(), "the ended stream was closed");
            } finally {
                reader.shutdownNow();
                cluster.close();
            }
        }
    }

    @Test
    void aSubscriptionToAQuietViewOutlastsTheKeepAlivePingAndEndsEmpty() throws Exception {
        final ServeOptions options = new ServeOptions();
        options.idleTimeoutSeconds = 2; // the server pings a silent client every second
        try (ServedGraph served = new ServedGraph(options)) {
            final PraghViews views = PraghViews.of(served.graph);
            views.create("quiet");
            final Cluster cluster = Cluster.build("127.0.0.1").port(served.port).create();
            try {
                final GraphTraversalSource g = traversal().with(DriverRemoteConnection.using(cluster, "g"));
                final List<Object> got = g.with("batchSize", 1)
                    .call("pragh.subscribe", Map.of("view", "quiet", "timeout", 4_000)).toList();
                assertEquals(List.of(), got, "no event, and a stream that ended by its own timeout");
                assertEquals(0L, (long) g.V().count().next(), "the connection still serves");
            } finally {
                cluster.close();
            }
        }
    }
}
