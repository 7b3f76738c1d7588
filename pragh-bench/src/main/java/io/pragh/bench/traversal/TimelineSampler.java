package io.pragh.bench.traversal;

import io.pragh.bench.traversal.deploy.BenchCluster;
import io.pragh.fabric.FabricStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Samples a running session every tick on its own thread, whatever the session's driver is doing (a phase, or
 * waiting for migrations): throughput and remote access rate over the tick, labelled with the phase then running.
 * Events (an interval's end, a migration done, a scope change) are stamped on the same clock.
 *
 * <pre>{@code
 * TimelineSampler t = session.startTimeline(0.5);
 * ... phases ...
 * List<TimelineSampler.Point> points = t.stop();
 * }</pre>
 */
public final class TimelineSampler {
    /** One tick: its end time since the sampler started, the phase label, queries/s and remote rate in the tick. */
    public record Point(double seconds, String phase, double throughputQps, double remoteAccessRate) {
        /** The report's object: {@code t}, {@code phase}, {@code throughput_qps}, {@code remote_access_rate}. */
        public Map<String, Object> asMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("t", seconds);
            m.put("phase", phase);
            m.put("throughput_qps", throughputQps);
            m.put("remote_access_rate", remoteAccessRate);
            return m;
        }
    }

    /** Something that happened at {@code seconds}. */
    public record Event(double seconds, String what) {
        public Map<String, Object> asMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("t", seconds);
            m.put("what", what);
            return m;
        }
    }

    private final BenchCluster cluster;
    private final LongAdder queries;
    private final long tickNanos;
    private final long startNanos;
    private final List<Point> points = new ArrayList<>();
    private final List<Event> events = new ArrayList<>();
    private final Thread thread;
    private volatile String phase = "start";
    private volatile boolean running = true;
    private volatile RuntimeException failure;

    TimelineSampler(BenchCluster cluster, LongAdder queries, double tickSeconds) {
        if (!(tickSeconds > 0)) {
            throw new IllegalArgumentException("--tick " + tickSeconds + " is invalid: must be > 0");
        }
        this.cluster = cluster;
        this.queries = queries;
        this.tickNanos = (long) (tickSeconds * 1e9);
        this.startNanos = System.nanoTime();
        this.thread = new Thread(this::sample, "pragh-bench-timeline");
        thread.setDaemon(true);
        thread.start();
    }

    void phase(String name) {
        phase = name;
    }

    /** Records an event at the current time. */
    public synchronized void event(String what) {
        events.add(new Event(seconds(System.nanoTime()), what));
    }

    private double seconds(long nanos) {
        return (nanos - startNanos) / 1e9;
    }

    /** Samples until stopped; a failure to read the cluster's figures (an RPC, over processes) ends it, kept for stop. */
    private void sample() {
        try {
            sampleTicks();
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    private void sampleTicks() {
        long lastT = startNanos;
        long lastQ = queries.sum();
        FabricStats.Snapshot lastS = cluster.stats();
        long next = startNanos + tickNanos;
        while (running) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                try {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                } catch (InterruptedException e) {
                    return;
                }
                continue;
            }
            long t = System.nanoTime();
            long q = queries.sum();
            FabricStats.Snapshot s = cluster.stats();
            synchronized (this) {
                points.add(new Point(seconds(t), phase, (q - lastQ) / ((t - lastT) / 1e9),
                    s.minus(lastS).remoteAccessRate()));
            }
            lastT = t;
            lastQ = q;
            lastS = s;
            next += tickNanos;
        }
    }

    /** Stops sampling (idempotent) and returns the ticks recorded. */
    public List<Point> stop() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(10_000);
        if (failure != null) {
            throw new IllegalStateException("the timeline stopped sampling: " + failure.getMessage(), failure);
        }
        return points();
    }

    public synchronized List<Point> points() {
        return List.copyOf(points);
    }

    public synchronized List<Event> events() {
        return List.copyOf(events);
    }

    /** Each phase's mean throughput and remote access rate over its ticks (seconds: its last tick), in run order. */
    public synchronized Map<String, Point> meanByPhase() {
        Map<String, double[]> sums = new LinkedHashMap<>();
        for (Point p : points) {
            double[] s = sums.computeIfAbsent(p.phase(), k -> new double[4]);
            s[0] = Math.max(s[0], p.seconds());
            s[1] += p.throughputQps();
            s[2] += p.remoteAccessRate();
            s[3]++;
        }
        Map<String, Point> out = new LinkedHashMap<>();
        sums.forEach((phase, s) -> out.put(phase, new Point(s[0], phase, s[1] / s[3], s[2] / s[3])));
        return out;
    }

    /** The report's object: {@code tick}, {@code timeline} (the ticks) and {@code events}. */
    public synchronized Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("tick", tickNanos / 1e9);
        m.put("timeline", points.stream().map(Point::asMap).toList());
        m.put("events", events.stream().map(Event::asMap).toList());
        return m;
    }
}
