package io.pragh.gremlin.view;

import io.pragh.gremlin.structure.PraghGraph;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.__;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.decoration.SubgraphStrategy;
import org.apache.tinkerpop.gremlin.structure.Edge;
import org.apache.tinkerpop.gremlin.structure.Vertex;

/**
 * The strategy behind {@link PraghViews#withView}: TinkerPop's {@link SubgraphStrategy} with a vertex criterion
 * "is a member of the view, or an end of an edge member" (GETs of records homed with the vertex; SubgraphStrategy
 * keeps an edge only when both its ends pass) and an edge criterion "an edge
 * member, or both ends are members" (GETs at the edge's home), so every step that yields vertices or edges, including the provider's fused hops, yields
 * only what the view holds. SubgraphStrategy is a decoration strategy: it runs before PraghHopStrategy, which then
 * fuses what it still can around the inserted filters.
 *
 * <p>Example: {@code g.withStrategies(ViewStrategy.of(views, views.id("paloAlto"))).V().out()}
 */
final class ViewStrategy {
    private ViewStrategy() {
    }

    static SubgraphStrategy of(final PraghViews views, final int view) {
        return SubgraphStrategy.build()
            .vertices(__.<Vertex>filter(t -> views.holdsVertex(view, PraghGraph.toVid(t.get().id()))))
            .edges(__.<Edge>filter(t -> views.holdsEdge(view, t.get())))
            .create();
    }
}
