package io.pragh.bench.traversal;

import io.pragh.bench.workload.AdjacencyGraph;
import io.pragh.bench.workload.StartVertexDistribution;
import io.pragh.bench.workload.ZipfianDistribution;
import io.pragh.keys.KeyLayout;
import io.pragh.keys.Placement;
import java.util.HashMap;
import java.util.Map;

/**
 * The lowest remote access rate any placement of values could reach on a workload's two-hop GETs, with every key
 * lookup served locally (a perfect location cache) and each value on the one machine that reads it most: what is
 * left is contention, a value read from several machines. Computed exactly from the start-vertex probabilities,
 * so the benchmark's split-cache figure can be read against it. It is the floor of the loaded graph: edge inserts
 * put new neighbours among a hot low-degree vertex's first {@code fanout}, read by that vertex's queries alone and so
 * easy to localise, which can take a run's measured rate below it.
 *
 * <pre>{@code
 * double floor = LocalityBound.remoteRateFloor(graph, scopeVertices, dist, fanout, machines);
 * }</pre>
 */
final class LocalityBound {
    private LocalityBound() {
    }

    static double remoteRateFloor(AdjacencyGraph graph, int[] scopeVertices, StartVertexDistribution dist,
                                  int fanout, int machines) {
        Placement placement = Placement.hashed(machines);
        Map<Integer, double[]> weights = new HashMap<>();
        double gets = 0;
        for (int i = 0; i < scopeVertices.length; i++) {
            double p = dist instanceof ZipfianDistribution z ? z.probability(i) : 1.0 / scopeVertices.length;
            int s = scopeVertices[i];
            int home = placement.home(KeyLayout.key(s, TwoHopWorkload.LABEL, KeyLayout.OUT));
            // The start vertex's own list is read at its home: local whatever happens.
            gets += p;
            int n = Math.min(graph.degree(s), fanout);
            for (int j = 0; j < n; j++) {
                weights.computeIfAbsent(graph.neighbour(s, j), k -> new double[machines])[home] += p;
                gets += p;
            }
        }
        double remote = 0;
        for (double[] w : weights.values()) {
            double sum = 0;
            double max = 0;
            for (double x : w) {
                sum += x;
                max = Math.max(max, x);
            }
            remote += sum - max;
        }
        // Two accesses per GET (key lookup, value read); only value reads can be remote here.
        return remote / (2 * gets);
    }
}
