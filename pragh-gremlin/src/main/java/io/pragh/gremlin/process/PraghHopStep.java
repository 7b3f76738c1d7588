package io.pragh.gremlin.process;

import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.Traverser;
import org.apache.tinkerpop.gremlin.process.traversal.step.util.AbstractStep;
import org.apache.tinkerpop.gremlin.process.traversal.traverser.TraverserRequirement;
import org.apache.tinkerpop.gremlin.process.traversal.util.FastNoSuchElementException;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * The fused start of {@code g.V(ids).out(..)...}: finds which start vertices exist, walks every hop on the home
 * machine of the first start vertex (each hop one batch of GETs, one per vertex, label and direction, all from that
 * machine, so the split store's migration brings hot adjacency there), and emits each reached vertex once with the number of walks that
 * reach it as its bulk. With {@code countEdgesAtEnd} it instead emits one {@code Long}: the walks that end on an
 * edge of the final hop, which is what {@code ...outE().count()} counts.
 *
 * <p>Example: {@code g.V(1).out("knows").out().count()} runs as {@code PraghHopStep([1],[out[knows], out],count)}.
 */
public final class PraghHopStep<E> extends AbstractStep<Object, E> {
    private final Object[] ids;
    private final List<Hop> hops;
    private final boolean countEdgesAtEnd;
    private Iterator<Traverser.Admin<E>> results;

    public PraghHopStep(final Traversal.Admin<?, ?> traversal, final Object[] ids, final List<Hop> hops, final boolean countEdgesAtEnd) {
        super(traversal);
        this.ids = ids;
        this.hops = List.copyOf(hops);
        this.countEdgesAtEnd = countEdgesAtEnd;
    }

    public List<Hop> hops() {
        return hops;
    }

    public boolean countsEdgesAtEnd() {
        return countEdgesAtEnd;
    }

    @Override
    protected Traverser.Admin<E> processNextStart() {
        if (results == null) {
            results = run().iterator();
        }
        if (!results.hasNext()) {
            throw FastNoSuchElementException.instance();
        }
        return results.next();
    }

    @SuppressWarnings("unchecked")
    private List<Traverser.Admin<E>> run() {
        final PraghGraph graph = (PraghGraph) getTraversal().getGraph().orElseThrow();
        final GraphStore store = graph.store();
        final long[] starts = existingStarts(store);
        if (starts.length == 0) {
            return countEdgesAtEnd
                ? List.of(getTraversal().getTraverserGenerator().generate((E) (Long) 0L, (AbstractStep) this, 1L))
                : Collections.emptyList();
        }
        final int last = countEdgesAtEnd ? hops.size() - 1 : hops.size();
        final Object outcome = store.callOnHome(GraphKeys.vertex(starts[0]), () -> {
            Frontier frontier = Frontier.of(starts);
            for (int h = 0; h < last; h++) {
                final Hop hop = hops.get(h);
                frontier = frontier.expand(store, hop.direction, graph.edgeLabelIds(hop.labels));
            }
            if (countEdgesAtEnd) {
                final Hop hop = hops.get(last);
                return (Object) frontier.countEdges(store, hop.direction, graph.edgeLabelIds(hop.labels));
            }
            return frontier;
        });
        if (countEdgesAtEnd) {
            return List.of(getTraversal().getTraverserGenerator().generate((E) outcome, (AbstractStep) this, 1L));
        }
        final Frontier frontier = (Frontier) outcome;
        final List<Traverser.Admin<E>> out = new ArrayList<>(frontier.size());
        for (int i = 0; i < frontier.size(); i++) {
            out.add(getTraversal().getTraverserGenerator().generate((E) graph.vertexHandle(frontier.vid(i)), (AbstractStep) this, frontier.bulk(i)));
        }
        return out;
    }

    /** The start ids that name stored vertices, in order, duplicates kept (as {@code V(1, 1)} yields two). */
    private long[] existingStarts(final GraphStore store) {
        final long[] starts = new long[ids.length];
        int n = 0;
        for (final Object id : ids) {
            final long vid = PraghGraph.toVid(id);
            if (vid >= 0 && store.contains(GraphKeys.vertex(vid))) {
                starts[n++] = vid;
            }
        }
        return Arrays.copyOf(starts, n);
    }

    @Override
    public Set<TraverserRequirement> getRequirements() {
        return Collections.singleton(TraverserRequirement.OBJECT);
    }

    @Override
    public void reset() {
        super.reset();
        results = null;
    }

    @Override
    public String toString() {
        return StringFactory.stepString(this, Arrays.toString(ids), hops, countEdgesAtEnd ? "count" : "vertices");
    }
}
