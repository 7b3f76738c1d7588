package io.pragh.gremlin.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.gremlin.storage.Adjacency;
import io.pragh.gremlin.storage.AdjacencySegments;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.storage.SegmentStamp;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.gremlin.structure.SegmentSealer;
import io.pragh.gremlin.structure.SegmentedLists;
import io.pragh.linearizability.CheckReport;
import io.pragh.linearizability.History;
import io.pragh.linearizability.LinearizabilityChecker;
import io.pragh.linearizability.Operation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * One supernode's list appended to from several threads entering at every machine of a 3-process-like cluster (one
 * client store per machine), each appender sealing segments of 4 on a 1 ms lease, so sealers take each other's
 * lists over mid-seal all the time: the history of appends and whole-list reads (tail and segments joined) is
 * checked for linearizability by search, against the store's own register model (the list's logical value is the
 * concatenation of its appends, wherever sealing moved them). Afterwards every append is there exactly once, and,
 * once a sweep ran, no segment holds entries the list does not name.
 */
class SupernodeAppendLinearizabilityTest {
    private static final int THREADS_PER_MACHINE = 2;
    private static final int APPENDS = 24;
    private static final int SEGMENT = 4;

    @Test
    void concurrentAppendsThatSealAndTakeOverFromEveryMachineAreLinearizableAndLoseNothing() throws Exception {
        try (InJvmCluster cluster = InJvmCluster.start(InJvmClusterPool.MACHINES)) {
            final List<GraphStore> stores = new ArrayList<>();
            for (int m = 0; m < cluster.machines(); m++) {
                stores.add(cluster.store(m));
            }
            final long vid = 7;
            final long key = GraphKeys.out(vid, 1);
            final History history = new History();
            final List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
            final CountDownLatch start = new CountDownLatch(1);
            final List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < stores.size() * THREADS_PER_MACHINE; t++) {
                final int client = t;
                final GraphStore store = stores.get(t % stores.size());
                final History.Recorder recorder = history.recorder(client);
                final SegmentSealer sealer = new SegmentSealer(store, SEGMENT, System::currentTimeMillis, 1);
                final Thread thread = new Thread(() -> {
                    try {
                        start.await();
                        for (int i = 0; i < APPENDS; i++) {
                            final byte[] entry = Adjacency.entry(1_000 + client, (long) client * 1_000 + i);
                            long invoke = System.nanoTime();
                            store.append(key, entry);
                            recorder.append(key, entry, invoke, System.nanoTime());
                            sealer.sealIfLong(key);
                            if (i % 3 == 2) {
                                invoke = System.nanoTime();
                                final byte[] whole = SegmentedLists.get(store, key);
                                recorder.get(key, whole, invoke, System.nanoTime());
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }, "appender-" + t);
                threads.add(thread);
                thread.start();
            }
            start.countDown();
            for (final Thread thread : threads) {
                thread.join();
            }
            assertEquals(List.of(), failures);

            final List<Operation> ops = history.drain();
            final CheckReport report = LinearizabilityChecker.forValues().check(ops);
            assertTrue(report.linearizable(), report.describe(Operation.ValueFormat.HEX, 3));

            final GraphStore store = stores.get(0);
            final int sealedMeanwhile = AdjacencySegments.slots(store.get(key)).length;
            final byte[] whole = SegmentedLists.get(store, key);
            final Set<Long> edges = new HashSet<>();
            for (int i = 0; i < Adjacency.count(whole); i++) {
                assertTrue(edges.add(Adjacency.edgeId(whole, i)), "edge " + Adjacency.edgeId(whole, i) + " twice");
            }
            assertEquals(threads.size() * APPENDS, edges.size(), "every acknowledged append, once (" + sealedMeanwhile
                + " segments sealed while appending)");

            // A sweeper whose clock is past every lease reclaims what a taken-over sealer left: then the segments
            // hold exactly the entries the list names.
            new SegmentSealer(store, SEGMENT, () -> System.currentTimeMillis() + 3_600_000, 1).sweep();
            final byte[] tail = store.get(key);
            long named = 0;
            for (final long slot : AdjacencySegments.slots(tail)) {
                named += SegmentStamp.entries(store.get(GraphKeys.segment(vid, (int) slot)));
            }
            final long[] held = {0};
            store.forEachKey(GraphKeys.SEGMENT, k -> {
                if (GraphKeys.vid(k) == vid && GraphKeys.label(k) != 0) {
                    held[0] += SegmentStamp.entries(store.get(k));
                }
            });
            assertEquals(named, held[0], "no orphaned entries left after the sweep");
            assertEquals(threads.size() * APPENDS,
                named + Adjacency.count(tail) - AdjacencySegments.headEntries(tail), "segments and tail: the list");
            for (final GraphStore s : stores) {
                s.close();
            }
        }
    }
}
