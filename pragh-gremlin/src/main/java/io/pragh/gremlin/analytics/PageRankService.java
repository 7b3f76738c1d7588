package io.pragh.gremlin.analytics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code g.call("pragh.pagerank", [iterations: 20, damping: 0.85, label: "knows", property: "rank"])}:
 * {@link GraphAlgorithms#pageRank} over every vertex along out-edges of {@code label} (every label when absent),
 * {@code iterations} rounds (default {@value #DEFAULT_ITERATIONS}) with damping {@code damping} (default
 * {@value #DEFAULT_DAMPING}); writes each vertex's rank as vertex property {@code property} when given, and answers
 * the vertex count, the iterations, the damping and {@code ranks}, vertex id to rank.
 *
 * <p>Example: {@code g.call("pragh.pagerank", [iterations: 10]).next().get("ranks")}
 */
final class PageRankService extends io.pragh.gremlin.view.CallService<Map<String, Object>> {
    static final String NAME = GraphAlgorithms.PAGERANK_SERVICE;
    static final int DEFAULT_ITERATIONS = 20;
    static final double DEFAULT_DAMPING = 0.85;

    private final GraphAlgorithms algorithms;

    PageRankService(final GraphAlgorithms algorithms) {
        super(NAME);
        this.algorithms = algorithms;
    }

    @Override
    protected List<Map<String, Object>> answers(final Map<?, ?> params) {
        final long iterations = params.get("iterations") == null ? DEFAULT_ITERATIONS : number(params, "iterations");
        if (iterations < 0 || iterations > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(NAME + " needs iterations >= 0; got " + iterations);
        }
        final Object d = params.get("damping");
        if (d != null && !(d instanceof Number)) {
            throw new IllegalArgumentException(NAME + " needs parameter 'damping' (a number in [0, 1]); got " + d);
        }
        final double damping = d == null ? DEFAULT_DAMPING : ((Number) d).doubleValue();
        final Map<Long, Double> ranks = algorithms.pageRank(optionalString(params, "label"), (int) iterations, damping);
        final String property = optionalString(params, "property");
        if (property != null) {
            ranks.forEach((vid, rank) -> algorithms.graph().vertexHandle(vid).property(property, rank));
        }
        final Map<String, Object> out = new LinkedHashMap<>();
        out.put("vertices", ranks.size());
        out.put("iterations", (int) iterations);
        out.put("damping", damping);
        out.put("ranks", ranks);
        return List.of(out);
    }
}
