package io.pragh.gremlin.distributed;

import io.pragh.gremlin.events.ViewEvents;
import io.pragh.gremlin.hotspot.HotspotReport;
import io.pragh.gremlin.hotspot.ViewHotspots;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.view.PraghViews;
import io.pragh.server.rpc.ClientException;
import io.pragh.server.rpc.MachineClient;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * View-driven hotspot migration on a multi-process cluster (two server machines, each with its Gremlin front end,
 * {@code extensions: [views]}): each process counts its own machine's reads of a watched view, and the client port's
 * HOTSPOT_READS takes (and resets) them; a round runs only in the coordinator's process (machine 0: no membership),
 * gathers every process's counts, reads the members' hosts (HOSTS) and hands the moves to the coordinator (PLACE), so
 * a view read only through machine 1 ends up there, values moved, keys home, and the coordinator counts the moves
 * as its approvals; read then only through machine 0, the next round brings it there.
 */
@Timeout(300)
class HotspotRoundAcrossProcessesTest {
    private static final int MEMBERS = 24;
    /** Low enough that any run, however slow, finds the view hot. */
    private static final double HOT = 1e-3;

    @Test
    void aViewReadThroughOneMachineGathersThereThroughTheCoordinator() throws Exception {
        try (InJvmCluster cluster = InJvmCluster.start(2, s -> s
                .withGremlinPortBase(InJvmCluster.freeConsecutivePorts(2)).withSection("extensions", "[views]")
                 // The split policy's own intervals would approve moves of the remote reads below too, and the
                 // coordinator's approvals must count this test's rounds alone.
                 .withSection("policy", "{trigger: manual}"));
             MachineClient one = new MachineClient(cluster.config().machine(1).clientAddress(), 30_000,
                 cluster.config().secret(), null);
             MachineClient zero = new MachineClient(cluster.config().machine(0).clientAddress(), 30_000,
                 cluster.config().secret(), null)) {
            final ViewEvents[] events = {ViewEvents.serving(cluster.node(0).machine().store()),
                ViewEvents.serving(cluster.node(1).machine().store())};
            final ViewHotspots[] hotspots = {ViewHotspots.open(events[0]), ViewHotspots.open(events[1])};
            assertTrue(hotspots[0] != null && hotspots[1] != null, "every machine's front end opens its hotspots");

            final PraghViews views = events[1].views();
            final PraghGraph graph = views.graph();
            final long[] members = new long[MEMBERS];
            final List<Vertex> vs = new ArrayList<>();
            for (int i = 0; i < MEMBERS; i++) {
                final Vertex v = graph.addVertex("speed", i);
                vs.add(v);
                members[i] = PraghGraph.toVid(v.id());
            }
            for (int i = 0; i < MEMBERS; i++) {
                vs.get(i).addEdge("road", vs.get((i + 1) % MEMBERS));
            }
            views.create("hot");
            views.add("hot", members);
            final long[] vertexKeys = Arrays.stream(members).map(GraphKeys::vertex).toArray();
            final int[] homes = one.hosts(vertexKeys, 0, MEMBERS);
            assertTrue(Arrays.stream(homes).anyMatch(h -> h == 0), "some members start on machine 0: "
                + Arrays.toString(homes));

            final Map<Long, byte[]> before = values(one, members, graph); // read before the watch: not counted

            // (1) Watched from machine 1's process; counted in each process; HOTSPOT_READS takes them and resets.
            hotspots[1].watch("hot", HOT);
            assertEquals(Map.of("hot", HOT), hotspots[0].watched(), "the watch reached the other process");
            final int reads = 5;
            for (int r = 0; r < reads; r++) {
                for (final long key : vertexKeys) {
                    cluster.node(1).machine().get(key);
                }
            }
            assertTrue(events[1].flush(60_000), "machine 1's process handled its read events");
            final long[] taken = ViewEventFrames.reads(one.extension("HOTSPOT_READS",
                ViewEventFrames.hotspotReads("hot")), 2);
            assertEquals(reads * MEMBERS, taken[1], "machine 1's reads, counted in its process: " + Arrays.toString(taken));
            assertEquals(0, taken[0], "no reads of machine 0 in machine 1's process");
            assertEquals(Arrays.stream(homes).filter(h -> h == 0).count() * reads, taken[2],
                "remote: the reads of values on machine 0");
            assertArrayEquals(new long[3], ViewEventFrames.reads(one.extension("HOTSPOT_READS",
                ViewEventFrames.hotspotReads("hot")), 2), "taking reset them");
            final ClientException unwatched = assertThrows(ClientException.class,
                () -> one.extension("HOTSPOT_READS", ViewEventFrames.hotspotReads("cold")));
            assertTrue(unwatched.getMessage().contains("view 'cold' is not watched"), unwatched.getMessage());

            // (4) One runner: the coordinator's process.
            final IllegalArgumentException elsewhere = assertThrows(IllegalArgumentException.class,
                () -> hotspots[1].runRound());
            assertTrue(elsewhere.getMessage().contains("machine 0 coordinates"), elsewhere.getMessage());

            // (2, 3) The round on machine 0's process: every process's counts, hosts asked, moves placed.
            for (int r = 0; r < reads; r++) {
                for (final long key : vertexKeys) {
                    cluster.node(1).machine().get(key);
                }
            }
            assertTrue(events[1].flush(60_000), "machine 1's process handled its read events");
            final long approvedBefore = zero.stats().approvals();
            final HotspotReport report = hotspots[0].runRound().get(0);
            assertEquals(reads * MEMBERS, report.reads(), "the round counted machine 1's reads: " + report);
            assertTrue(report.hot() && report.moved() > 0, report.toString());
            assertArrayEquals(new int[] {0, MEMBERS}, hotspots[0].membersByHost("hot"), "gathered on its reader");
            final int[] labels = graph.store().names().edgeLabels();
            final long[] all = Arrays.stream(members).flatMap(vid -> Arrays.stream(memberKeys(vid, labels))).toArray();
            final int[] hosts = one.hosts(all, 0, all.length);
            for (int k = 0; k < all.length; k++) {
                assertTrue(hosts[k] == 1 || hosts[k] == -1, "key " + all[k] + " of a member is on machine 1 (or has"
                    + " no value), not " + hosts[k]);
            }
            assertEquals(report.moved(), zero.stats().approvals() - approvedBefore,
                "every move went through the coordinator, counted with its approvals");
            assertEquals(before.keySet(), values(zero, members, graph).keySet());
            values(zero, members, graph).forEach((key, value) -> assertArrayEquals(before.get(key), value,
                "key " + key + " reads the same after its move"));
            // Since that round the view was read only through machine 0 (the reads just above): it follows its reader.
            assertTrue(events[0].flush(60_000), "machine 0's process handled its read events");
            final HotspotReport back = hotspots[0].runRound().get(0);
            assertEquals(Arrays.stream(hosts).filter(h -> h >= 0).count(), back.moved(), back.toString());
            assertArrayEquals(new int[] {MEMBERS, 0}, hotspots[0].membersByHost("hot"), "gathered on machine 0");
        }
    }

    private static long[] memberKeys(final long vid, final int[] labels) {
        final List<Long> out = new ArrayList<>(List.of(GraphKeys.vertex(vid), io.pragh.gremlin.storage.ViewRecords.members(vid)));
        for (final int label : labels) {
            out.add(GraphKeys.out(vid, label));
            out.add(GraphKeys.in(vid, label));
            out.add(GraphKeys.edgeProperties(vid, label));
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    /** The members' vertex records and road lists as machine {@code at} reads them. */
    private static Map<Long, byte[]> values(final MachineClient at, final long[] members, final PraghGraph graph) {
        final int road = graph.store().names().id("road");
        final Map<Long, byte[]> out = new HashMap<>();
        for (final long vid : members) {
            out.put(GraphKeys.vertex(vid), at.get(GraphKeys.vertex(vid)));
            out.put(GraphKeys.out(vid, road), at.get(GraphKeys.out(vid, road)));
        }
        return out;
    }
}
