package io.pragh.gremlin.analytics;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Plain in-memory BFS and PageRank over an edge list (vertex to out-neighbours, one per edge), with the definitions
 * {@link GraphAlgorithms} states: what its services are checked against.
 *
 * <p>Example: {@code Map<Long, Long> hops = ReferenceAlgorithms.bfs(Map.of(1L, List.of(2L)), 1);}
 */
public final class ReferenceAlgorithms {
    private ReferenceAlgorithms() {
    }

    public static Map<Long, Long> bfs(final Map<Long, List<Long>> out, final long source) {
        final Map<Long, Long> level = new HashMap<>();
        level.put(source, 0L);
        final ArrayDeque<Long> queue = new ArrayDeque<>(List.of(source));
        while (!queue.isEmpty()) {
            final long v = queue.poll();
            for (final long n : out.getOrDefault(v, List.of())) {
                if (!level.containsKey(n)) {
                    level.put(n, level.get(v) + 1);
                    queue.add(n);
                }
            }
        }
        return level;
    }

    public static Map<Long, Double> pageRank(final Map<Long, List<Long>> out, final long[] vids,
                                             final int iterations, final double d) {
        final int n = vids.length;
        Map<Long, Double> rank = new HashMap<>();
        for (final long v : vids) {
            rank.put(v, 1.0 / n);
        }
        for (int it = 0; it < iterations; it++) {
            final Map<Long, Double> next = new HashMap<>();
            double dangling = 0;
            for (final long v : vids) {
                next.putIfAbsent(v, 0.0);
                final List<Long> ns = out.getOrDefault(v, List.of());
                if (ns.isEmpty()) {
                    dangling += rank.get(v);
                }
                for (final long w : ns) {
                    next.merge(w, rank.get(v) / ns.size(), Double::sum);
                }
            }
            final double mass = dangling;
            next.replaceAll((v, in) -> (1 - d) / n + d * (in + mass / n));
            rank = next;
        }
        return rank;
    }
}
