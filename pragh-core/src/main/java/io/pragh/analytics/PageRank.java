package io.pragh.analytics;

import java.util.List;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.LongArrayList;

/**
 * PageRank over a cluster's out-lists ({@link GraphAnalytics#pageRank}): a first scan numbers the vertices and
 * counts out-degrees (numbers looked up once per edge afterwards, from an array when the ids are dense:
 * {@link VertexIndex}), then every iteration each compute machine scans its lists and adds its vertices' shares to a
 * contribution array of its own, which the caller sums. Vertices without an out-list spread their rank evenly.
 *
 * <pre>{@code
 * PageRank.Result r = new PageRank(analytics, 0).run(10, 0.85);
 * double rankOf7 = r.rank(7);
 * }</pre>
 */
public final class PageRank {
    /** Ranks by vertex id. */
    public record Result(Long2LongHashMap index, double[] ranks) {
        /** The rank of {@code vid}, or NaN when the graph has no such vertex. */
        public double rank(long vid) {
            int i = (int) index.get(vid);
            return i < 0 ? Double.NaN : ranks[i];
        }

        public int vertices() {
            return ranks.length;
        }
    }

    private final GraphAnalytics analytics;
    private final int label;

    PageRank(GraphAnalytics analytics, int label) {
        this.analytics = analytics;
        this.label = label;
    }

    Result run(int iterations, double damping) {
        if (iterations < 0 || !(damping >= 0 && damping <= 1)) {
            throw new IllegalArgumentException("need iterations >= 0 and damping in [0, 1], got " + iterations
                + " and " + damping);
        }
        LongArrayList degrees = new LongArrayList();
        // Numbering: the lists' owners and everything they name.
        List<LongArrayList> seen = analytics.onEveryComputeMachine(scan -> {
            LongArrayList pairs = new LongArrayList();
            scan.scan(label, vid -> true, (vid, buf, off, len) -> {
                pairs.addLong(vid);
                pairs.addLong(len / 8);
                for (int i = 0; i + 8 <= len; i += 8) {
                    pairs.addLong(buf.getLong(off + i));
                    pairs.addLong(-1);
                }
            });
            return pairs;
        });
        VertexIndex index = emptyIndexFor(seen);
        for (LongArrayList pairs : seen) {
            for (int i = 0; i < pairs.size(); i += 2) {
                int at = index.number(pairs.getLong(i));
                if (at == degrees.size()) {
                    degrees.addLong(0);
                }
                if (pairs.getLong(i + 1) >= 0) {
                    degrees.setLong(at, pairs.getLong(i + 1));
                }
            }
        }
        int n = index.size();
        double[] rank = new double[n];
        java.util.Arrays.fill(rank, n == 0 ? 0 : 1.0 / n);
        for (int it = 0; it < iterations; it++) {
            double[] current = rank;
            List<double[]> parts = analytics.onEveryComputeMachine(scan -> {
                double[] contribution = new double[n];
                scan.scan(label, vid -> true, (vid, buf, off, len) -> {
                    int count = len / 8;
                    if (count == 0) {
                        return;
                    }
                    double share = current[index.of(vid)] / count;
                    for (int i = 0; i < count; i++) {
                        contribution[index.of(buf.getLong(off + 8 * i))] += share;
                    }
                });
                return contribution;
            });
            double dangling = 0;
            for (int v = 0; v < n; v++) {
                if (degrees.getLong(v) == 0) {
                    dangling += current[v];
                }
            }
            double[] next = new double[n];
            for (int v = 0; v < n; v++) {
                double in = 0;
                for (double[] part : parts) {
                    in += part[v];
                }
                next[v] = (1 - damping) / n + damping * (in + dangling / n);
            }
            rank = next;
        }
        return new Result(index.toMap(), rank);
    }

    /** An index over the range of every id the numbering scan found; the owners of out-lists count the vertices. */
    private static VertexIndex emptyIndexFor(List<LongArrayList> seen) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        long owners = 0;
        for (LongArrayList pairs : seen) {
            for (int i = 0; i < pairs.size(); i += 2) {
                long vid = pairs.getLong(i);
                min = Math.min(min, vid);
                max = Math.max(max, vid);
                owners += pairs.getLong(i + 1) >= 0 ? 1 : 0;
            }
        }
        return VertexIndex.forRange(min, max, owners);
    }
}
