package io.pragh.server.cli;

import io.pragh.keys.KeyLayout;
import io.pragh.server.rpc.ClientException;
import io.pragh.server.rpc.ClusterClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A closed-loop PUT load on a running local cluster: {@code threads} clients, each with {@code pipeline} PUTs in
 * flight (1: waiting for each acknowledgement before the next PUT; more: that many sent at a time, spread over the
 * keys' homes and pipelined on each machine's connection), to random keys routed to their homes. What it measures is
 * acknowledged PUTs per second through the client RPC, so it shows what the durability setting and pipelining are
 * worth end to end (on a loaded 2-core host the absolute figures are noisy: compare settings side by side).
 *
 * <pre>{@code
 * ./pragh cluster load --dir /tmp/c --seconds 10 --threads 4 --pipeline 64
 * }</pre>
 */
final class WriteLoad {
    /** What a run did. */
    record Result(long acknowledged, long retryable, double seconds) {
        double perSecond() {
            return acknowledged / seconds;
        }
    }

    private WriteLoad() {
    }

    static Result run(LocalCluster cluster, int threads, double seconds, int keys, int valueBytes, int pipeline)
            throws InterruptedException {
        AtomicLong acked = new AtomicLong();
        AtomicLong retry = new AtomicLong();
        long end = System.nanoTime() + (long) (seconds * 1e9);
        List<Thread> workers = new ArrayList<>();
        List<RuntimeException> failures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            workers.add(new Thread(() -> {
                byte[] value = new byte[valueBytes];
                long[] batch = new long[pipeline];
                byte[][] values = new byte[pipeline][];
                java.util.Arrays.fill(values, value);
                try (ClusterClient c = cluster.client(10_000)) {
                    while (System.nanoTime() < end) {
                        for (int i = 0; i < pipeline; i++) {
                            batch[i] = KeyLayout.key(1 + ThreadLocalRandom.current().nextInt(keys), 2,
                                KeyLayout.PROPERTY);
                        }
                        try {
                            if (pipeline == 1) {
                                c.put(batch[0], value);
                            } else {
                                c.putAll(batch, values, pipeline);
                            }
                            acked.addAndGet(pipeline);
                        } catch (ClientException e) {
                            if (!e.retryable()) {
                                throw e;
                            }
                            retry.addAndGet(pipeline); // some of them may have taken effect: counted as not
                        }
                    }
                } catch (RuntimeException e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            }, "pragh-write-load-" + t));
        }
        long t0 = System.nanoTime();
        workers.forEach(Thread::start);
        for (Thread w : workers) {
            w.join();
        }
        double took = (System.nanoTime() - t0) / 1e9;
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
        return new Result(acked.get(), retry.get(), took);
    }
}
