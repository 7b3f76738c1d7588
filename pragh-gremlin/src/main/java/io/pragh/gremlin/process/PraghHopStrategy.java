package io.pragh.gremlin.process;

import io.pragh.gremlin.structure.PraghGraph;
import org.apache.tinkerpop.gremlin.process.traversal.Step;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.TraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.CountGlobalStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.GraphStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.VertexStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.util.EmptyStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.sideEffect.IdentityStep;
import org.apache.tinkerpop.gremlin.process.traversal.step.map.NoOpBarrierStep;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.AbstractTraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.traverser.TraverserRequirement;
import org.apache.tinkerpop.gremlin.process.traversal.util.TraversalHelper;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Fuses the start of a root traversal of the shape {@code V(ids).out|in|both(labels)...} into one
 * {@link PraghHopStep}, and {@code V(ids).out(..)...outE|inE|bothE(..).count()} (what AdjacentToIncidentStrategy
 * makes of {@code ...out().count()}) into one that only counts. It leaves alone anything whose answer could depend on
 * the walked path: labelled steps, path or sack requirements, single-bulk traversers, child traversals, graph
 * computers, and configured (parameterised) vertex steps.
 *
 * <p>Example: {@code g.V(1).out("knows").out().count()} becomes {@code PraghHopStep([1],[out[knows], out],count)};
 * {@code g.withoutStrategies(PraghHopStrategy.class)} runs the same traversal unfused.
 */
public final class PraghHopStrategy extends AbstractTraversalStrategy<TraversalStrategy.ProviderOptimizationStrategy>
    implements TraversalStrategy.ProviderOptimizationStrategy {

    private static final PraghHopStrategy INSTANCE = new PraghHopStrategy();
    private static final Set<TraverserRequirement> UNFUSABLE = Set.of(TraverserRequirement.PATH,
        TraverserRequirement.LABELED_PATH, TraverserRequirement.ONE_BULK, TraverserRequirement.SACK,
        TraverserRequirement.NESTED_LOOP, TraverserRequirement.SINGLE_LOOP);

    private PraghHopStrategy() {
    }

    public static PraghHopStrategy instance() {
        return INSTANCE;
    }

    @Override
    public void apply(final Traversal.Admin<?, ?> traversal) {
        if (!(traversal.getParent() instanceof EmptyStep) || TraversalHelper.onGraphComputer(traversal)
            || !(traversal.getGraph().orElse(null) instanceof PraghGraph)) {
            return;
        }
        final List<Step> steps = traversal.getSteps();
        if (steps.isEmpty() || steps.get(0).getClass() != GraphStep.class) {
            return;
        }
        final GraphStep<?, ?> start = (GraphStep<?, ?>) steps.get(0);
        if (!start.returnsVertex() || start.getIds().length == 0 || !start.getLabels().isEmpty()
            || !start.getParameters().isEmpty()) {
            return;
        }
        for (final TraverserRequirement r : traversal.getTraverserRequirements()) {
            if (UNFUSABLE.contains(r)) {
                return;
            }
        }
        final List<Hop> hops = new ArrayList<>();
        int i = 1;
        int lastFused = 0;
        boolean countEdges = false;
        for (; i < steps.size(); i++) {
            final Step<?, ?> step = steps.get(i);
            if (!step.getLabels().isEmpty()) {
                break;
            }
            if (step instanceof NoOpBarrierStep || step.getClass() == IdentityStep.class) {
                continue; // bulking barriers and identities change nothing a fused walk would not also do
            }
            if (step.getClass() != VertexStep.class || !((VertexStep<?>) step).getParameters().isEmpty()) {
                break;
            }
            final VertexStep<?> hop = (VertexStep<?>) step;
            if (hop.returnsVertex()) {
                hops.add(new Hop(hop.getDirection(), hop.getEdgeLabels()));
                lastFused = i;
                continue;
            }
            final int next = nextNonBarrier(steps, i + 1);
            if (next < steps.size() && steps.get(next).getClass() == CountGlobalStep.class && steps.get(next).getLabels().isEmpty()) {
                hops.add(new Hop(hop.getDirection(), hop.getEdgeLabels()));
                lastFused = next;
                countEdges = true;
            }
            break;
        }
        if (hops.isEmpty()) {
            return;
        }
        for (int s = lastFused; s >= 0; s--) {
            traversal.removeStep(s);
        }
        traversal.addStep(0, new PraghHopStep<>(traversal, start.getIds(), hops, countEdges));
    }

    private static int nextNonBarrier(final List<Step> steps, int i) {
        while (i < steps.size() && steps.get(i) instanceof NoOpBarrierStep && steps.get(i).getLabels().isEmpty()) {
            i++;
        }
        return i;
    }
}
