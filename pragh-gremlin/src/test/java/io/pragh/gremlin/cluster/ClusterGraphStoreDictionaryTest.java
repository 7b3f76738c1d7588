package io.pragh.gremlin.cluster;

import io.pragh.gremlin.process.PraghHopStrategy;
import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.structure.TestGraphs;
import org.apache.commons.configuration2.Configuration;
import org.apache.tinkerpop.gremlin.structure.T;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

/**
 * A cluster machine's dictionary is shared with other processes: it sees the edge labels another machine's graph
 * added through the store, even once it has read the record and knows labels of its own. Two {@link
 * ClusterGraphStore}s over two machines of one embedded cluster stand for two server processes here: each builds
 * its own dictionary, as each process does, and they meet only in the stored record.
 */
class ClusterGraphStoreDictionaryTest {
    @Test
    void aMachineSeesEdgeLabelsAnotherProcessAddedThroughTheStore() {
        final Configuration conf = TestGraphs.configuration();
        final EmbeddedGraphStore machines = EmbeddedGraphStore.open(conf); // a cluster with the graph mutators
        final List<InetSocketAddress> noScans = Collections.nCopies(machines.machines(), null);
        final PraghGraph first = PraghGraph.open(conf,
            new ClusterGraphStore(machines.cluster().machine(0), noScans, 1_000, null, null));
        final PraghGraph second = PraghGraph.open(conf,
            new ClusterGraphStore(machines.cluster().machine(1), noScans, 1_000, null, null));
        try {
            assertNotSame(first.names(), second.names(), "one dictionary per process");
            first.addVertex(T.id, 1L, T.label, "person").addEdge("knows", first.addVertex(T.id, 2L));
            assertEquals(1L, second.traversal().V(1L).out().count().next(), "second walks the label first added");
            assertEquals("knows", second.traversal().V(1L).outE().label().next());

            // Both know "knows" now; a label the second adds reaches the first, fused and through TinkerPop's plan.
            second.vertices(2L).next().addEdge("likes", second.vertices(1L).next());
            second.vertices(1L).next().addEdge("likes", second.addVertex(T.id, 3L));
            assertEquals(2L, first.traversal().V(1L).out().count().next(), "first walks 'knows' and second's 'likes'");
            assertEquals(1L, first.traversal().V(1L).out().out().count().next(), "1->2->1; 3 has no edges out");
            assertEquals(List.of(1L), first.traversal().withoutStrategies(PraghHopStrategy.class).V(2L).out().id().toList(),
                "first walks 2's only edge, labelled 'likes', step by step");
        } finally {
            first.close(); // closes its scan connections only
            second.close();
            machines.close();
        }
    }
}
