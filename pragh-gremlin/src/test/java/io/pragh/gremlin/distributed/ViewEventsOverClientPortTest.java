package io.pragh.gremlin.distributed;

import io.pragh.gremlin.events.EventKind;
import io.pragh.gremlin.events.ViewEvents;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.view.PraghViews;
import io.pragh.server.node.ServerNode;
import io.pragh.server.rpc.ClientException;
import io.pragh.server.rpc.MachineClient;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A client of the client port (not Gremlin) subscribes to a view's events with {@code extensions: [views]}: it
 * receives its members' updates in order and no one else's, and a closed stream, or a view that does not exist, is
 * an error that names it.
 */
@Timeout(300)
class ViewEventsOverClientPortTest {
    @Test
    void aClientPortSubscriberPollsTheEventsOfItsViewInOrderAndNoOthers() throws Exception {
        try (InJvmCluster cluster = InJvmCluster.start(1, s -> s
                .withGremlinPortBase(InJvmCluster.freeConsecutivePorts(1)).withSection("extensions", "[views]"));
             MachineClient machine = new MachineClient(cluster.config().machine(0).clientAddress(), 30_000,
                 cluster.config().secret(), null)) {
            final ServerNode node = cluster.node(0);
            // The machine's own graph, as its Gremlin front end serves it (same JVM).
            final ViewEvents served = ViewEvents.serving(node.machine().store());
            final PraghViews views = served.views();
            final PraghGraph graph = views.graph();
            final Vertex member = graph.addVertex();
            final Vertex outsider = graph.addVertex();
            views.create("city");
            views.add("city", PraghGraph.toVid(member.id()));
            final ViewEventsClient client = new ViewEventsClient(machine);
            final long stream = client.subscribe("city", Set.of(EventKind.PROPERTY_UPDATE));
            for (int i = 0; i < 3; i++) {
                outsider.property("speed", 100 + i);
                member.property("speed", i);
            }
            member.property("name", "main street");
            final List<Map<String, Object>> got = new ArrayList<>();
            while (got.size() < 4) {
                final List<Map<String, Object>> batch = client.poll(stream, 2);
                assertTrue(batch.size() <= 2, "at most the asked-for number: " + batch);
                got.addAll(batch);
                if (batch.isEmpty()) {
                    Thread.sleep(10); // waiting for the lanes, not timing them
                }
            }
            assertEquals(List.of(0, 1, 2, "main street"),
                got.stream().map(e -> e.get("value")).collect(Collectors.toList()));
            assertTrue(got.stream().allMatch(e -> "PROPERTY_UPDATE".equals(e.get("kind")) && "city".equals(e.get("view"))
                && e.get("vid").equals(PraghGraph.toVid(member.id()))), got.toString());
            client.unsubscribe(stream);
            final ClientException closed = assertThrows(ClientException.class, () -> client.poll(stream, 10));
            assertTrue(closed.getMessage().contains("no event stream " + stream), closed.getMessage());
            final ClientException missing = assertThrows(ClientException.class,
                () -> client.subscribe("nowhere", Set.of(EventKind.VERTEX_UPDATE)));
            assertTrue(missing.getMessage().contains("nowhere"), missing.getMessage());
        }
    }

    @Test
    void aLongPollIsAnsweredByTheNextEventOfItsViewOrEmptyWhenItsWaitEnds() throws Exception {
        try (InJvmCluster cluster = InJvmCluster.start(1, s -> s
                .withGremlinPortBase(InJvmCluster.freeConsecutivePorts(1)).withSection("extensions", "[views]"));
             MachineClient machine = new MachineClient(cluster.config().machine(0).clientAddress(), 60_000,
                 cluster.config().secret(), null)) {
            final ViewEvents served = ViewEvents.serving(cluster.node(0).machine().store());
            final PraghViews views = served.views();
            final Vertex member = views.graph().addVertex();
            views.create("city");
            views.add("city", PraghGraph.toVid(member.id()));
            final ViewEventsClient client = new ViewEventsClient(machine);
            final long stream = client.subscribe("city", Set.of(EventKind.PROPERTY_UPDATE));
            assertEquals(List.of(), client.poll(stream, 10, 100), "a quiet view: the wait ends empty");

            final java.util.concurrent.CompletableFuture<List<Map<String, Object>>> pending =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> client.poll(stream, 10, 30_000));
            Thread.sleep(300); // lets the poll reach the server first (ordering, not timing: it waits up to 30 s)
            member.property("speed", 7);
            final List<Map<String, Object>> got = pending.get(60, java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(List.of(7), got.stream().map(e -> e.get("value")).collect(Collectors.toList()),
                "the waiting poll carried the event committed while it waited");
            client.unsubscribe(stream);
        }
    }
}
