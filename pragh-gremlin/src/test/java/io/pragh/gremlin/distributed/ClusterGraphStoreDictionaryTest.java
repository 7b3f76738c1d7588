package io.pragh.gremlin.distributed;

import io.pragh.gremlin.process.PraghHopStrategy;
import io.pragh.gremlin.structure.PraghGraph;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.commons.configuration2.Configuration;
import org.apache.tinkerpop.gremlin.structure.T;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

/**
 * A cluster machine's dictionary is shared with other processes: it sees the edge labels another machine's graph
 * added through the store, even once it has read the record and knows labels of its own. Two {@link
 * ClusterGraphStore}s over two server machines in this JVM on the TCP fabric ({@link InJvmCluster}) stand for two
 * server processes here: each builds its own dictionary, as each process does, and they meet only in the stored
 * record.
 */
class ClusterGraphStoreDictionaryTest {
    @Test
    void aMachineSeesEdgeLabelsAnotherProcessAddedThroughTheStore() {
        final Configuration conf = new BaseConfiguration();
        conf.setProperty(PraghGraph.MACHINES, 2);
        final InJvmCluster machines = InJvmCluster.start(2);
        final PraghGraph first = PraghGraph.open(conf, machines.store(0));
        final PraghGraph second = PraghGraph.open(conf, machines.store(1));
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
