package io.pragh.gremlin.process;

import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.process.remote.traversal.step.map.RemoteStep;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two graphs over one store stand for two machines (even vertex ids homed on machine 0, odd on machine 1), each
 * reaching the other through an in-JVM remote connection: a traversal from {@code V(id)} received by the machine that
 * is not the id's home becomes one RemoteStep and runs on the home, with the same answer; one whose start vertices
 * have two homes, or that starts elsewhere, runs where it was received.
 */
class PraghRoutingStrategyTest {
    @Test
    void aTraversalFromVIdRunsOnTheHomeOfItsStartVertices() {
        final GraphStore store = EmbeddedGraphStore.open(new BaseConfiguration());
        final ParityRouter r0 = new ParityRouter(0, 4);
        final ParityRouter r1 = new ParityRouter(1, 4);
        final PraghGraph m0 = PraghGraph.open(new BaseConfiguration(), store, r0);
        final PraghGraph m1 = PraghGraph.open(new BaseConfiguration(), store, r1);
        try {
            final GraphTraversalSource[] machines = ParityRouter.ring(r0, r1, m0, m1);

            final Traversal.Admin<?, ?> sent = machines[0].V(3).out().out().count().asAdmin();
            sent.applyStrategies();
            assertEquals(2, sent.getSteps().size(), "replaced by a remote step and its permit: " + sent.getSteps());
            assertInstanceOf(RemoteStep.class, sent.getStartStep());
            assertInstanceOf(ForwardPermitStep.class, sent.getEndStep());
            assertEquals(1, r0.inFlight, "the forward holds a permit until it ends");
            assertEquals(4L, sent.next(), "two hops from 3 along next/skip: 5, 4, 6 and 7 mod 6");
            assertFalse(sent.hasNext());
            assertEquals(0, r0.inFlight, "its results read, the forward returned its permit");
            assertEquals(List.of(1), r0.forwardedTo, "machine 0 forwarded V(3) to its home, machine 1");
            assertEquals(1, r1.ranAtHome, "machine 1 ran it as the home");
            assertEquals(0, r0.ranAtHome);

            assertEquals(4L, machines[0].V(2).out().out().count().next(), "V(2) is homed on machine 0: runs there");
            assertEquals(1, r0.ranAtHome);
            assertEquals(List.of(1), r0.forwardedTo);

            assertEquals(List.of(3L, 4L), machines[1].V(2).out().id().order().toList());
            assertEquals(List.of(0), r1.forwardedTo, "machine 1 forwarded V(2) to machine 0");

            final Traversal.Admin<?, ?> twoHomes = machines[0].V(1, 2).out().count().asAdmin();
            twoHomes.applyStrategies();
            assertTrue(twoHomes.getSteps().stream().noneMatch(s -> s instanceof RemoteStep), "ids of two homes run"
                + " where received: " + twoHomes.getSteps());
            assertEquals(4L, twoHomes.next());
            assertEquals(6L, machines[1].V().count().next(), "a scan of every vertex runs where received");
            assertEquals(List.of(0), r1.forwardedTo);
        } finally {
            m0.close(); // closes the store both graphs share
        }
    }
}
