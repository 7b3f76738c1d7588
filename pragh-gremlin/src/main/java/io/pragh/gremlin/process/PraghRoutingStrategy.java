package io.pragh.gremlin.process;

import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.structure.TraversalRouter;
import org.apache.tinkerpop.gremlin.process.remote.RemoteConnection;
import org.apache.tinkerpop.gremlin.process.remote.traversal.step.map.RemoteStep;
import org.apache.tinkerpop.gremlin.process.traversal.Step;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.TraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.GraphStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.util.EmptyStep;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.AbstractTraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.util.TraversalHelper;

import java.util.List;
import java.util.Set;

/**
 * Runs a root traversal that starts at {@code V(ids)}, all homed on one other machine, on that machine: its steps
 * are replaced by one {@link RemoteStep} that sends the traversal's bytecode to the home's Gremlin port and streams
 * the traversers back (bulks included). Every traversal a Gremlin port receives, as bytecode or as a script, is
 * built into a traversal and passes through here, so this is the one place routing is decided, on the actual start
 * step rather than on request text. It does nothing when the graph has no {@link TraversalRouter} (an embedded
 * store), and it runs before {@link PraghHopStrategy}, which then fuses the hops where they are executed.
 *
 * <p>Forwarding never exhausts a machine's Gremlin workers. The worker evaluating a forwarded traversal waits while
 * the home evaluates it on one of its own, so two machines forwarding to each other with every worker could each
 * wait for the other forever (until the evaluation timeout). A forward therefore first takes one of the router's
 * permits ({@link TraversalRouter#tryForward}, fewer than the workers, never waiting), and {@link ForwardPermitStep}
 * returns it when the traversal ends; with no permit free the traversal runs where it arrived, reading through the
 * fabric (the same answer, slower). A machine never forwards what it receives as the home, so at most the permitted
 * number of its workers wait on other machines and the rest always serve incoming forwarded traversals, which wait
 * on nobody: no cycle of waiting machines can form.
 *
 * <p>Example: {@code g.V(7).out().out().count()} sent to machine 0 when vertex 7's home is machine 2 becomes
 * {@code RemoteStep(machine 2), ForwardPermitStep} on machine 0, and {@code PraghHopStep([7],[out, out],count)} on
 * machine 2.
 */
public final class PraghRoutingStrategy extends AbstractTraversalStrategy<TraversalStrategy.ProviderOptimizationStrategy>
    implements TraversalStrategy.ProviderOptimizationStrategy {

    private static final PraghRoutingStrategy INSTANCE = new PraghRoutingStrategy();

    private PraghRoutingStrategy() {
    }

    public static PraghRoutingStrategy instance() {
        return INSTANCE;
    }

    @Override
    public Set<Class<? extends ProviderOptimizationStrategy>> applyPost() {
        return Set.of(PraghHopStrategy.class);
    }

    @Override
    public void apply(final Traversal.Admin<?, ?> traversal) {
        if (!(traversal.getParent() instanceof EmptyStep) || TraversalHelper.onGraphComputer(traversal)
            || !(traversal.getGraph().orElse(null) instanceof PraghGraph)) {
            return;
        }
        final TraversalRouter router = ((PraghGraph) traversal.getGraph().get()).router();
        final List<Step> steps = traversal.getSteps();
        if (router == null || steps.isEmpty() || steps.get(0).getClass() != GraphStep.class) {
            return;
        }
        final GraphStep<?, ?> start = (GraphStep<?, ?>) steps.get(0);
        if (!start.returnsVertex() || start.getIds().length == 0) {
            return;
        }
        final int home = homeOf(router, start.getIds());
        if (home < 0) {
            return;
        }
        if (home == router.self()) {
            router.ranAtHome();
            return;
        }
        if (!router.tryForward(home)) {
            return; // this machine forwards all it may at once: run here, reading through the fabric
        }
        final RemoteConnection connection;
        try {
            connection = router.connectionTo(home);
        } catch (RuntimeException | Error e) {
            router.forwardEnded(home);
            throw e;
        }
        TraversalHelper.removeAllSteps(traversal);
        traversal.addStep(new RemoteStep<>(traversal, connection));
        traversal.addStep(new ForwardPermitStep<>(traversal, () -> router.forwardEnded(home),
            failure -> router.forwardFailed(home, failure)));
    }

    /** The one home of every id that can name a vertex, or -1 when they have several or there are none. */
    private static int homeOf(final TraversalRouter router, final Object[] ids) {
        int home = -1;
        for (final Object id : ids) {
            final long vid = PraghGraph.toVid(id);
            if (vid < 0) {
                continue; // names nothing stored: no home to prefer
            }
            final int h = router.homeOf(vid);
            if (home >= 0 && h != home) {
                return -1;
            }
            home = h;
        }
        return home;
    }
}
