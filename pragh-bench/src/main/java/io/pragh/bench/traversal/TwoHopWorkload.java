package io.pragh.bench.traversal;

import io.pragh.bench.traversal.deploy.BenchCluster;
import io.pragh.bench.traversal.deploy.QueryPath;
import io.pragh.bench.traversal.history.TraversalHistory;
import io.pragh.bench.workload.AdjacencyGraph;
import io.pragh.bench.workload.StartVertexDistribution;
import java.util.SplittableRandom;

/**
 * The traversal benchmark's queries: draw a start vertex, then run a two-hop GET on the start vertex's home machine
 * (every access is that machine's, seen by its monitor) or insert an edge from it at its home, through the thread's
 * own {@link QueryPath}. An inserted edge's far end is drawn from {@code edgeEnds}, the vertices that exist (have
 * edges): an edge to a vertex without an adjacency key would make every later two-hop through it look up a key that
 * is not there, a remote bucket read no cache can answer and no migration can localise. With a {@code history}, each
 * thread's path records the GETs and inserts of the sampled keys into it.
 *
 * <pre>{@code
 * ClientWorkload w = new TwoHopWorkload(startVertices, graph, graph.verticesWithEdges(), dist, 0.95, 100, false, 42,
 *     null);
 * }</pre>
 */
record TwoHopWorkload(StartVertices startVertices, AdjacencyGraph graph, int[] edgeEnds, StartVertexDistribution dist,
                      double getRatio, int fanout, boolean batchedGets, long seed, TraversalHistory history)
    implements ClientWorkload {
    /** The label of every edge of the benchmark's graph. */
    static final int LABEL = 0;
    static final int HOPS = 2;

    @Override
    public Client open(int index, int generation, BenchCluster cluster) {
        SplittableRandom rng = new SplittableRandom(seed * 1_000_003L + generation * 1_009L + index);
        QueryPath path = history == null ? cluster.openPath() : cluster.openPath(history.recorder());
        return new Client() {
            @Override
            public boolean next() {
                long start = startVertices.at(dist.next(rng));
                if (rng.nextDouble() < getRatio) {
                    path.kHop(start, LABEL, HOPS, fanout, batchedGets);
                    return false;
                }
                insertEdge(path, (int) start, edgeEnds[rng.nextInt(edgeEnds.length)]);
                return true;
            }

            @Override
            public void close() {
                path.close();
            }
        };
    }

    /** An edge PUT at the start vertex's home: see {@link io.pragh.bench.extension.CappedAppend} for why its list is capped. */
    private void insertEdge(QueryPath path, int src, long dst) {
        int cap = Math.max(graph.degree(src), fanout) + 1;
        path.insertEdge(src, LABEL, dst, cap);
    }
}
