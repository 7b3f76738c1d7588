package io.pragh.gremlin.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An in-JVM cluster starts one Gremlin Server per machine at the same moment. Gremlin Server registers its gauges in
 * one JVM-wide registry by check-then-register and a stop clears them all, so unserialized starts fail now and then
 * with "a metric named ... already exists" (CI saw it in a bench test that starts three servers).
 */
class ServersStartingTogetherTest {
    private static final int SERVERS = 4;
    private static final int ROUNDS = 3;

    @Test
    void serversStartedAtOnceInOneJvmAllStartEveryRound() throws Exception {
        final ExecutorService pool = Executors.newFixedThreadPool(SERVERS);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                final CyclicBarrier together = new CyclicBarrier(SERVERS);
                final List<Future<ServedGraph>> starts = new ArrayList<>();
                for (int i = 0; i < SERVERS; i++) {
                    starts.add(pool.submit(() -> {
                        together.await(30, TimeUnit.SECONDS);
                        return new ServedGraph();
                    }));
                }
                final List<ServedGraph> started = new ArrayList<>();
                Throwable failure = null;
                for (Future<ServedGraph> start : starts) {
                    try {
                        started.add(start.get(120, TimeUnit.SECONDS));
                    } catch (Exception e) {
                        failure = failure == null ? e : failure;
                    }
                }
                // Stopped together too: a stop clears the registry a start in the next round reads.
                final List<Future<?>> stops = new ArrayList<>();
                for (ServedGraph served : started) {
                    stops.add(pool.submit(() -> {
                        served.close();
                        return null;
                    }));
                }
                for (Future<?> stop : stops) {
                    stop.get(120, TimeUnit.SECONDS);
                }
                assertEquals(null, failure, "round " + round + ": a server failed to start");
                assertEquals(SERVERS, started.size());
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
