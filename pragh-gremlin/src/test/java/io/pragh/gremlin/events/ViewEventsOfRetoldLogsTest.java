package io.pragh.gremlin.events;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.structure.TestGraphs;
import io.pragh.gremlin.view.PraghViews;
import io.pragh.migration.Migrator;
import io.pragh.store.MachineStore;
import io.pragh.store.UpdateLog;
import org.agrona.DirectBuffer;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A durable home is told a migrated value's update again when the value's host sent its LOG again (every second while
 * the record is pending) because the first append was slow; the first append's completion may then come after the
 * repeat's, and after the key's next update. Each committed update is still handled once, in order.
 */
// A hang bound only: beside a CPU hog a cluster test took 93 s, 1-5 s quietly (session 16).
@Timeout(300)
class ViewEventsOfRetoldLogsTest {
    /**
     * A log that acknowledges every append at once, but holds the first append of {@link #held}'s key until a later
     * version of that key was appended: the host, not settled, sends its LOG again meanwhile.
     */
    private static final class HoldingLog implements UpdateLog {
        private final MachineStore store;
        private final Holder held;

        HoldingLog(final MachineStore store, final Holder held) {
            this.store = store;
            this.held = held;
        }

        @Override
        public void append(final long key, final long version, final int mutatorId, final DirectBuffer arg,
                           final int argOff, final int argLen, final int origin, final long request) {
            if (key != held.key) {
                store.acknowledge(origin, request);
                return;
            }
            synchronized (held) {
                if (held.version < 0) {
                    held.version = version; // held: its completion comes last
                    held.origin = origin;
                    held.request = request;
                    return;
                }
            }
            store.acknowledge(origin, request); // the repeat, or a later version
            if (version > held.version && held.released.getCount() > 0) {
                store.acknowledge(held.origin, held.request); // the first append completes now, after both
                held.released.countDown();
            }
        }
    }

    /** The key whose first logged update is held, and that update's request. */
    private static final class Holder {
        volatile long key = -1;
        long version = -1;
        int origin;
        long request;
        final CountDownLatch released = new CountDownLatch(1);
    }

    @Test
    void anUpdateOfAMigratedValueWhoseLogIsToldAgainAfterALaterOneIsHandledOnceAndInOrder() throws Exception {
        final Holder held = new Holder();
        try (PraghGraph graph = TestGraphs.open()) {
            final EmbeddedCluster cluster = ((EmbeddedGraphStore) graph.store()).cluster();
            for (int m = 0; m < cluster.machineCount(); m++) {
                final MachineStore store = cluster.machine(m).store();
                store.setUpdateLog(new HoldingLog(store, held));
            }
            final Vertex v = graph.addVertex();
            final long vid = PraghGraph.toVid(v.id());
            final long key = GraphKeys.vertex(vid);
            final int away = (cluster.placement().home(key) + 1) % cluster.machineCount();
            assertEquals(Migrator.Outcome.MIGRATED, cluster.machine(away).migrate(key),
                "the value moves away from its home: its host sends its updates' LOGs to the home");
            final PraghViews views = PraghViews.of(graph);
            views.create("city");
            views.add("city", vid);
            try (ViewEvents events = ViewEvents.of(views)) {
                events.subscribe("speeds", "city", EventKind.PROPERTY_UPDATE);
                final List<Object> seen = Collections.synchronizedList(new ArrayList<>());
                events.handle("speeds", (ViewHandler.PropertyUpdate) e -> seen.add(e.value()));
                held.key = key;
                v.property("speed", 1); // acknowledged once the host's second LOG was logged
                v.property("speed", 2); // its append releases the first append of speed 1
                assertTrue(held.released.await(60, TimeUnit.SECONDS), "the held append was completed");
                assertTrue(events.flush(60_000));
                assertEquals(List.of(1, 2), List.copyOf(seen), "each update handled once, in commit order");
                assertEquals(0, events.dropped() + events.failures());
            }
        }
    }
}
