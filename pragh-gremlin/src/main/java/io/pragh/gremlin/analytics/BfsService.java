package io.pragh.gremlin.analytics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code g.call("pragh.bfs", [source: 1, label: "knows", property: "hops"])}: {@link GraphAlgorithms#bfs} from
 * vertex {@code source} along out-edges of {@code label} (every label when absent); writes each reached vertex's
 * distance as vertex property {@code property} when given, and answers the source, the vertices reached, the depth
 * (largest distance) and {@code distances}, vertex id to hops.
 *
 * <p>Example: {@code g.call("pragh.bfs", [source: 1]).next() // [source:1, reached:3, depth:2, distances:[1:0, 2:1, 3:2]]}
 */
final class BfsService extends io.pragh.gremlin.view.CallService<Map<String, Object>> {
    static final String NAME = GraphAlgorithms.BFS_SERVICE;

    private final GraphAlgorithms algorithms;

    BfsService(final GraphAlgorithms algorithms) {
        super(NAME);
        this.algorithms = algorithms;
    }

    @Override
    protected List<Map<String, Object>> answers(final Map<?, ?> params) {
        final long source = number(params, "source");
        final Map<Long, Long> distances = algorithms.bfs(source, optionalString(params, "label"));
        final String property = optionalString(params, "property");
        if (property != null) {
            distances.forEach((vid, hops) -> algorithms.graph().vertexHandle(vid).property(property, hops));
        }
        final Map<String, Object> out = new LinkedHashMap<>();
        out.put("source", source);
        out.put("reached", distances.size());
        out.put("depth", distances.values().stream().mapToLong(Long::longValue).max().orElse(0));
        out.put("distances", distances);
        return List.of(out);
    }
}
