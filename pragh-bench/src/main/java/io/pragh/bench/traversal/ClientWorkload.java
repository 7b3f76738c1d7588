package io.pragh.bench.traversal;

import io.pragh.bench.traversal.deploy.BenchCluster;

/**
 * What the query threads of one mode run, one query per call: the traversal benchmark's two-hop GETs and edge
 * inserts ({@link TwoHopWorkload}), or another benchmark's queries on the same mode machinery (the RDF benchmark's
 * SPARQL mix). {@link ModeSession} times each query and counts it; the workload only runs it.
 *
 * <pre>{@code
 * try (ClientWorkload.Client c = workload.open(0, 0, cluster)) {
 *     boolean put = c.next();
 * }
 * }</pre>
 */
public interface ClientWorkload {
    /**
     * The client of one query thread.
     *
     * @param index      thread index; with the generation it fixes the thread's random stream
     * @param generation how many times the clients were restarted (the shard baseline pauses them to move shards)
     */
    Client open(int index, int generation, BenchCluster cluster);

    /** One thread's client: not thread-safe, closed by the thread that opened it. */
    interface Client extends AutoCloseable {
        /** Runs one query; returns whether it was an update (its latency also goes to the PUT histogram). */
        boolean next();

        @Override
        void close();
    }
}
