package io.pragh.gremlin.process;

import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.structure.TestGraphs;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.process.remote.RemoteConnection;
import org.apache.tinkerpop.gremlin.process.remote.traversal.RemoteTraversal;
import org.apache.tinkerpop.gremlin.process.remote.traversal.step.map.RemoteStep;
import org.apache.tinkerpop.gremlin.process.traversal.Bytecode;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversal;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A forward holds one of its machine's permits from the routing strategy until the traversal ends, and returns it
 * exactly once whichever way it ends: results exhausted, closed early, never iterated, failed at the home or failed
 * to reach it. With every permit taken, a traversal homed elsewhere runs where it arrived and gives the same answer.
 * Two graphs over one store stand for two machines, as in {@link PraghRoutingStrategyTest}; machine 0 may forward
 * two traversals at a time.
 */
class ForwardPermitStepTest {
    private PraghGraph m0;
    private PraghGraph m1;
    private ParityRouter r0;
    private GraphTraversalSource[] machines;

    @BeforeEach
    void twoMachines() {
        final GraphStore store = EmbeddedGraphStore.open(TestGraphs.configuration());
        r0 = new ParityRouter(0, 2);
        final ParityRouter r1 = new ParityRouter(1, 1);
        m0 = PraghGraph.open(new BaseConfiguration(), store, r0);
        m1 = PraghGraph.open(new BaseConfiguration(), store, r1);
        machines = ParityRouter.ring(r0, r1, m0, m1);
    }

    @AfterEach
    void close() {
        m0.close(); // closes the store both graphs share
    }

    /** V(3) is homed on machine 1: sent to machine 0, it is forwarded (while a permit is free). */
    private GraphTraversal<Vertex, Object> forwardedFromMachine0() {
        return machines[0].V(3).out().id();
    }

    private static void assertForwarded(final Traversal<?, ?> t) {
        t.asAdmin().applyStrategies();
        assertTrue(t.asAdmin().getStartStep() instanceof RemoteStep, "forwarded: " + t.asAdmin().getSteps());
    }

    @Test
    void exhaustedResultsReturnThePermitOnce() throws Exception {
        final GraphTraversal<Vertex, Object> t = forwardedFromMachine0();
        assertForwarded(t);
        assertEquals(1, r0.inFlight);
        assertEquals(List.of(4L, 5L), t.toList().stream().map(o -> ((Number) o).longValue()).sorted().toList());
        assertEquals(0, r0.inFlight);
        assertEquals(1, r0.ended);
        t.close();
        assertEquals(1, r0.ended, "closing after the end returns nothing more");
    }

    @Test
    void closingBeforeTheEndReturnsThePermitOnce() throws Exception {
        final GraphTraversal<Vertex, Object> t = forwardedFromMachine0();
        assertForwarded(t);
        t.next(); // one of two results: the client stops here
        assertEquals(1, r0.inFlight, "still open: the permit is held");
        t.close();
        assertEquals(0, r0.inFlight);
        t.close();
        assertEquals(1, r0.ended, "closed twice, returned once");

        final GraphTraversal<Vertex, Object> neverRead = forwardedFromMachine0();
        assertForwarded(neverRead);
        neverRead.close();
        assertEquals(2, r0.ended, "a forward closed before its first result returns its permit too");
        assertEquals(0, r0.inFlight);
    }

    @Test
    void aForwardDroppedWithoutAnEndReturnsThePermitWhenCollected() throws Exception {
        final String explained = machines[0].V(3).out().explain().prettyPrint(); // strategies on a clone, never run
        assertTrue(explained.contains("RemoteStep"), explained);
        dropAForwardAfterOneResult();
        assertEquals(2, r0.forwardedTo.size(), "the explanation's clone and the dropped forward each took a permit");
        // Collection is up to the JVM: ask for it until both permits are back or 60 s have passed (the permits come
        // back on the Cleaner's thread, which a host starved of CPU can leave unscheduled for seconds).
        final long deadline = System.nanoTime() + 60_000_000_000L;
        while (r0.inFlight > 0 && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(20);
        }
        assertEquals(0, r0.inFlight, "permits of traversals nobody can end any more are returned once collected");
        assertEquals(2, r0.ended);
    }

    private void dropAForwardAfterOneResult() {
        final GraphTraversal<Vertex, Object> t = forwardedFromMachine0();
        t.next();
    }

    @Test
    void anErrorFromTheHomeReturnsThePermitOnce() throws Exception {
        final GraphTraversal<Vertex, Object> t = machines[0].V(3).out().fail("the home gives up").id();
        assertForwarded(t);
        final RuntimeException e = assertThrows(RuntimeException.class, t::toList);
        assertTrue(String.valueOf(e.getMessage()).contains("the home gives up"), "the home's error: " + e);
        assertEquals(1, r0.ended);
        t.close();
        assertEquals(1, r0.ended);
        assertEquals(List.of(1), r0.forwardedTo, "it was forwarded, and failed on the home");
    }

    @Test
    void aForwardThatCannotReachTheHomeReturnsThePermitOnce() throws Exception {
        r0.connection = new RemoteConnection() {
            @Override
            public <E> CompletableFuture<RemoteTraversal<?, E>> submitAsync(final Bytecode bytecode) {
                return CompletableFuture.failedFuture(new IllegalStateException("machine 1 is unreachable"));
            }

            @Override
            public void close() {
            }
        };
        final GraphTraversal<Vertex, Object> t = forwardedFromMachine0();
        assertForwarded(t);
        final IllegalStateException e = assertThrows(IllegalStateException.class, t::toList);
        assertEquals("machine 1 is unreachable", e.getMessage());
        assertEquals(1, r0.ended);
        t.close();
        assertEquals(1, r0.ended);
        assertEquals(0, r0.inFlight);
    }

    @Test
    void withEveryPermitTakenATraversalRunsWhereItArrivedWithTheSameAnswer() throws Exception {
        final long forwardedAnswer = machines[0].V(5).out().out().count().toList().get(0); // read to its end
        assertEquals(4L, forwardedAnswer);
        assertEquals(List.of(1), r0.forwardedTo);

        final GraphTraversal<Vertex, Object> holder = forwardedFromMachine0();
        holder.next(); // holds one of machine 0's two permits
        final GraphTraversal<Vertex, Object> second = forwardedFromMachine0();
        second.next(); // and the other
        final Traversal.Admin<Vertex, Long> atCapacity = machines[0].V(5).out().out().count().asAdmin();
        atCapacity.applyStrategies();
        assertTrue(atCapacity.getSteps().stream().noneMatch(s -> s instanceof RemoteStep || s instanceof ForwardPermitStep),
            "runs here: " + atCapacity.getSteps());
        assertEquals(forwardedAnswer, atCapacity.next());
        assertEquals(1, r0.ended, "the first forward returned its permit, the holders still hold theirs");
        assertEquals(1, r0.refused);
        assertEquals(List.of(1, 1, 1), r0.forwardedTo, "the holders forwarded, the other ran here");

        holder.close();
        second.close();
        assertEquals(List.of(forwardedAnswer), machines[0].V(5).out().out().count().toList(),
            "a permit free again: forwarded");
        assertEquals(List.of(1, 1, 1, 1), r0.forwardedTo);
        assertEquals(1, r0.refused);
        assertEquals(0, r0.inFlight);
    }
}
