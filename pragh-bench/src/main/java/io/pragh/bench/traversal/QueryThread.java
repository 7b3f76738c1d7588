package io.pragh.bench.traversal;

import io.pragh.bench.traversal.deploy.BenchCluster;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Recorder;

/**
 * A closed-loop client: runs its workload's queries one after the other through its own
 * {@link ClientWorkload.Client}, recording each latency and counting queries and updates, until stopped.
 *
 * <pre>{@code
 * QueryThread q = new QueryThread(index, generation, workload, counters, cluster);
 * new Thread(q).start();
 * }</pre>
 */
final class QueryThread implements Runnable {
    /** What every query thread of one mode records into. */
    record Counters(Recorder latencies, Recorder putLatencies, LongAdder queries, LongAdder puts) {
    }

    private final int index;
    private final int generation;
    private final ClientWorkload workload;
    private final Counters counters;
    private final BenchCluster cluster;
    private volatile boolean running = true;
    private volatile Throwable failure;

    /**
     * @param index      thread index; with the generation it fixes the thread's random stream
     * @param generation how many times the clients were restarted (the shard baseline pauses them to move shards)
     */
    QueryThread(int index, int generation, ClientWorkload workload, Counters counters, BenchCluster cluster) {
        this.index = index;
        this.generation = generation;
        this.workload = workload;
        this.counters = counters;
        this.cluster = cluster;
    }

    void stop() {
        running = false;
    }

    Throwable failure() {
        return failure;
    }

    @Override
    public void run() {
        try (ClientWorkload.Client client = workload.open(index, generation, cluster)) {
            while (running) {
                long t0 = System.nanoTime();
                boolean put = client.next();
                long latency = System.nanoTime() - t0;
                counters.latencies().recordValue(latency);
                if (put) {
                    counters.putLatencies().recordValue(latency);
                    counters.puts().increment();
                }
                counters.queries().increment();
            }
        } catch (Throwable t) {
            failure = t;
        }
    }
}
