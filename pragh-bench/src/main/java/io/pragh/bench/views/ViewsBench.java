package io.pragh.bench.views;

import io.pragh.bench.charts.ChartFiles;
import io.pragh.bench.traversal.JsonFile;
import io.pragh.gremlin.events.EventKind;
import io.pragh.gremlin.events.ViewEvent;
import io.pragh.gremlin.events.ViewEvents;
import io.pragh.gremlin.events.ViewHandler;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.structure.PraghGraph;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.apache.commons.configuration2.BaseConfiguration;
import org.knowm.xchart.XYChart;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code ./pragh bench views}: Concerto's road-traffic case study (its Fig. 8). A generated road grid
 * ({@link RoadNetwork}) with 10 municipality views; writer threads update intersection speed sensors at a target
 * rate, a fraction of them incidents (speed 0). Two ways to react, each run alone at every rate of the sweep:
 * <ul>
 *   <li><b>handlers</b>: a property-update handler on every municipality view ({@link ViewEvents}); on an incident
 *       it runs the impact analysis and the detour search. Reported: event-to-handler-completion latency of every
 *       event (from the update's commit) and of incidents (from just before the writer issued the update);</li>
 *   <li><b>polling</b>: a client that reads every sensor back to back (batched GETs) and runs the same analysis on
 *       each new incident it finds; incident latency from the same start. Incidents overwritten before a scan
 *       reaches them are missed, and counted.</li>
 * </ul>
 * The sweep stops at the first rate the handlers do not sustain (writers below 95% of the target, an event
 * dropped, or a backlog not handled within 10 s of the writers' end); the headline is the highest sustained rate.
 * Writes {@code views.json} and {@code views.png} to {@code --out}.
 *
 * <pre>{@code
 * ./pragh bench views --out docs/results/views --rates 1000,2000,5000,10000,20000 --duration 5 --warmup 3
 * }</pre>
 */
public final class ViewsBench {
    private int width = 100;
    private int height = 100;
    private int machines = 4;
    private int writers = 2;
    private int durationSeconds = 5;
    private int warmupSeconds = 3;
    private double incidentFraction = 0.001;
    private List<Integer> rates = List.of(1_000, 2_000, 5_000, 10_000, 20_000, 40_000, 80_000);
    private Path out = Path.of("target/views");

    private ViewsBench() {
    }

    public static int run(final String[] args, final PrintStream out, final PrintStream err) throws Exception {
        final ViewsBench b = new ViewsBench();
        final boolean help = java.util.Arrays.asList(args).contains("--help");
        try {
            if (help) {
                throw new IllegalArgumentException("Concerto's road-traffic case study (see docs/results)");
            }
            b.parse(args);
        } catch (IllegalArgumentException e) {
            final PrintStream to = help ? out : err;
            to.println("pragh bench views: " + e.getMessage());
            to.println("usage: ./pragh bench views [--out DIR] [--width W --height H] [--machines N] [--writers T]"
                + " [--duration S] [--warmup S] [--rates R1,R2,...] [--incident-fraction F]");
            return help ? 0 : 2;
        }
        return b.run(out);
    }

    private void parse(final String[] args) {
        for (int i = 0; i < args.length; i++) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("flag " + args[i] + " needs a value");
            }
            final String v = args[++i];
            switch (args[i - 1]) {
                case "--out" -> out = Path.of(v);
                case "--width" -> width = Integer.parseInt(v);
                case "--height" -> height = Integer.parseInt(v);
                case "--machines" -> machines = Integer.parseInt(v);
                case "--writers" -> writers = Integer.parseInt(v);
                case "--duration" -> durationSeconds = Integer.parseInt(v);
                case "--warmup" -> warmupSeconds = Integer.parseInt(v);
                case "--incident-fraction" -> incidentFraction = Double.parseDouble(v);
                case "--rates" -> rates = java.util.Arrays.stream(v.split(",")).map(Integer::parseInt).toList();
                default -> throw new IllegalArgumentException("unknown flag " + args[i - 1]);
            }
        }
        if (writers < 1 || durationSeconds < 1 || warmupSeconds < 0 || rates.isEmpty() || incidentFraction <= 0
            || incidentFraction > 1) {
            throw new IllegalArgumentException("writers and duration must be positive, the warm-up not negative,"
                + " rates non-empty and the incident fraction in (0, 1]");
        }
    }

    private int run(final PrintStream log) throws Exception {
        final BaseConfiguration conf = new BaseConfiguration();
        conf.setProperty(PraghGraph.MACHINES, machines);
        final List<Map<String, Object>> runs = new ArrayList<>();
        Map<String, Object> headline = null;
        try (PraghGraph graph = PraghGraph.open(conf)) {
            final long t0 = System.nanoTime();
            final RoadNetwork roads = RoadNetwork.build(graph, width, height);
            log.printf("road grid %d x %d (%d intersections) built in %.1f s%n", width, height,
                roads.vertices.length, (System.nanoTime() - t0) / 1e9);
            try (ViewEvents events = ViewEvents.of(roads.views)) {
                warmUp(roads, events, log);
                for (final int rate : rates) {
                    final Map<String, Object> h = handlers(roads, events, rate);
                    final Map<String, Object> p = polling(roads, rate);
                    runs.add(h);
                    runs.add(p);
                    log.println(h);
                    log.println(p);
                    if (!(Boolean) h.get("sustained")) {
                        break;
                    }
                    headline = headline(h, p);
                }
            }
        }
        final Map<String, Object> report = new LinkedHashMap<>();
        final Map<String, Object> config = new LinkedHashMap<>();
        config.put("width", width);
        config.put("height", height);
        config.put("machines", machines);
        config.put("writers", writers);
        config.put("duration_s", durationSeconds);
        config.put("warmup_s", warmupSeconds);
        config.put("incident_fraction", incidentFraction);
        config.put("event_lanes", ViewEvents.LANES);
        config.put("lane_queue", ViewEvents.QUEUE);
        config.put("cores", Runtime.getRuntime().availableProcessors());
        report.put("config", config);
        report.put("headline", headline == null ? Map.of("sustained_rate", 0) : headline);
        report.put("runs", runs);
        JsonFile.write(out.resolve("views.json"), report);
        ChartFiles.save(out.resolve("views.png"), chart(runs));
        log.println("headline: " + report.get("headline"));
        log.println("wrote " + out.resolve("views.json") + " and " + out.resolve("views.png"));
        return 0;
    }

    /**
     * Both modes at the first rate for the warm-up, unreported: without it the first rate measured the JIT
     * compiling the handler and the analysis (a p99 of 690 ms at 4,000/s where 8,000/s next had 150 ms).
     */
    private void warmUp(final RoadNetwork roads, final ViewEvents events, final PrintStream log) throws Exception {
        if (warmupSeconds == 0) {
            return;
        }
        final int measured = durationSeconds;
        durationSeconds = warmupSeconds;
        try {
            handlers(roads, events, rates.get(0));
            polling(roads, rates.get(0));
        } finally {
            durationSeconds = measured;
        }
        log.printf("warmed up for %d s per mode at %d updates/s%n", warmupSeconds, rates.get(0));
    }

    private Map<String, Object> handlers(final RoadNetwork roads, final ViewEvents events, final int rate)
        throws Exception {
        roads.clearImpacted();
        final Histogram eventLatency = new ConcurrentHistogram(3);
        final Histogram incidentLatency = new ConcurrentHistogram(3);
        final Histogram eventWait = new ConcurrentHistogram(3);
        final Histogram analysis = new ConcurrentHistogram(3);
        final Map<Long, Long> incidentStart = new ConcurrentHashMap<>();
        final AtomicLong handled = new AtomicLong();
        final ViewHandler.PropertyUpdate handler = (ViewEvent e) -> {
            final long begun = System.nanoTime();
            eventWait.recordValue(micros(begun - e.committedNanos()));
            if (RoadNetwork.SPEED.equals(e.property()) && Integer.valueOf(0).equals(e.value())) {
                roads.analyse(e.vid());
                analysis.recordValue(micros(System.nanoTime() - begun));
                final Long start = incidentStart.remove(e.vid());
                if (start != null) {
                    incidentLatency.recordValue(micros(System.nanoTime() - start));
                    handled.incrementAndGet();
                }
            }
            eventLatency.recordValue(micros(System.nanoTime() - e.committedNanos()));
        };
        for (int m = 0; m < RoadNetwork.MUNICIPALITIES; m++) {
            events.subscribe("traffic-" + m, RoadNetwork.municipality(m), EventKind.PROPERTY_UPDATE);
            events.handle("traffic-" + m, handler);
        }
        final long droppedBefore = events.dropped();
        final long[] written = write(roads, rate, incidentStart, null);
        final boolean drained = events.flush(10_000);
        final long dropped = events.dropped() - droppedBefore;
        for (int m = 0; m < RoadNetwork.MUNICIPALITIES; m++) {
            events.unsubscribe("traffic-" + m);
        }
        final Map<String, Object> r = result("handlers", rate, written);
        r.put("events", eventLatency.getTotalCount());
        r.put("dropped", dropped);
        r.put("backlog_handled", drained);
        r.put("event_latency_ms", percentiles(eventLatency));
        // Where an event's latency goes: waiting from its commit until its handler starts (the tap, the lane's
        // queue, the lane thread getting a core), and an incident's analysis once started.
        r.put("event_wait_ms", percentiles(eventWait));
        r.put("analysis_ms", percentiles(analysis));
        r.put("incidents_handled", handled.get());
        r.put("incident_latency_ms", percentiles(incidentLatency));
        r.put("sustained", drained && dropped == 0 && (double) r.get("achieved_rate") >= 0.95 * rate);
        return r;
    }

    private Map<String, Object> polling(final RoadNetwork roads, final int rate) throws Exception {
        roads.clearImpacted();
        final Histogram incidentLatency = new ConcurrentHistogram(3);
        final Map<Long, Long> incidentStart = new ConcurrentHashMap<>();
        final int n = roads.vertices.length;
        final long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = GraphKeys.vertex(RoadNetwork.vid(roads.vertices[i]));
        }
        final int speedKey = roads.graph.store().names().id(RoadNetwork.SPEED);
        final int[] last = new int[n];
        java.util.Arrays.fill(last, 60);
        final AtomicLong scans = new AtomicLong();
        final AtomicLong handled = new AtomicLong();
        final Runnable scan = () -> {
            final List<Integer> found = new ArrayList<>();
            roads.graph.store().getAll(keys, n, (i, value) -> {
                final int speed = roads.speed(value, speedKey);
                if (speed == 0 && last[i] != 0) {
                    found.add(i);
                }
                last[i] = speed;
            });
            for (final int i : found) {
                final long vid = RoadNetwork.vid(roads.vertices[i]);
                roads.analyse(vid);
                final Long start = incidentStart.remove(vid);
                if (start != null) {
                    incidentLatency.recordValue(micros(System.nanoTime() - start));
                    handled.incrementAndGet();
                }
            }
            scans.incrementAndGet();
        };
        final long[] written = write(roads, rate, incidentStart, scan);
        scan.run(); // one last scan after the writers stopped
        final Map<String, Object> r = result("polling", rate, written);
        r.put("scans", scans.get());
        r.put("incidents_handled", handled.get());
        r.put("incidents_missed", written[1] - handled.get());
        r.put("incident_latency_ms", percentiles(incidentLatency));
        return r;
    }

    /**
     * Runs the writers for the duration at {@code rate} (and {@code beside}, when not null, back to back on one more
     * thread while they run); returns {updates, incidents, elapsed nanos}. The handlers mode has nothing beside: a
     * thread spinning on an empty task took a whole core from the handlers (a JFR profile of the first runs).
     */
    private long[] write(final RoadNetwork roads, final int rate, final Map<Long, Long> incidentStart,
                         final Runnable beside) throws InterruptedException {
        final AtomicLong updates = new AtomicLong();
        final AtomicLong incidents = new AtomicLong();
        final long start = System.nanoTime();
        final long end = start + durationSeconds * 1_000_000_000L;
        final long interval = (long) (1e9 * writers / rate);
        final List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            final long offset = interval * w / writers;
            threads.add(new Thread(() -> {
                final ThreadLocalRandom random = ThreadLocalRandom.current();
                long next = start + offset;
                for (long now = System.nanoTime(); now < end; now = System.nanoTime()) {
                    if (now < next) {
                        LockSupport.parkNanos(Math.min(next - now, 100_000));
                        continue;
                    }
                    next += interval;
                    final int i = random.nextInt(roads.vertices.length);
                    final boolean incident = random.nextDouble() < incidentFraction;
                    if (incident) {
                        incidentStart.put(RoadNetwork.vid(roads.vertices[i]), System.nanoTime());
                        incidents.incrementAndGet();
                    }
                    roads.vertices[i].property(RoadNetwork.SPEED, incident ? 0 : 30 + random.nextInt(41));
                    updates.incrementAndGet();
                }
            }, "views-writer-" + w));
        }
        final Thread side = beside == null ? null : new Thread(() -> {
            while (System.nanoTime() < end) {
                beside.run();
            }
        }, "views-poller");
        threads.forEach(Thread::start);
        if (side != null) {
            side.start();
        }
        for (final Thread t : threads) {
            t.join();
        }
        final long elapsed = System.nanoTime() - start;
        if (side != null) {
            side.join();
        }
        return new long[] {updates.get(), incidents.get(), elapsed};
    }

    private static Map<String, Object> result(final String mode, final int rate, final long[] written) {
        final Map<String, Object> r = new LinkedHashMap<>();
        r.put("mode", mode);
        r.put("target_rate", rate);
        r.put("achieved_rate", Math.round(written[0] / (written[2] / 1e9) * 10) / 10.0);
        r.put("updates", written[0]);
        r.put("incidents_written", written[1]);
        return r;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> headline(final Map<String, Object> h, final Map<String, Object> p) {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("sustained_rate", h.get("achieved_rate"));
        m.put("handler_event_latency_ms", h.get("event_latency_ms"));
        m.put("handler_incident_latency_ms", h.get("incident_latency_ms"));
        m.put("polling_incident_latency_ms", p.get("incident_latency_ms"));
        m.put("polling_incidents_missed", p.get("incidents_missed"));
        return m;
    }

    private static long micros(final long nanos) {
        return Math.max(1, nanos / 1_000);
    }

    private static Map<String, Object> percentiles(final Histogram h) {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("count", h.getTotalCount());
        m.put("p50", h.getValueAtPercentile(50) / 1000.0);
        m.put("p99", h.getValueAtPercentile(99) / 1000.0);
        m.put("max", h.getMaxValue() / 1000.0);
        return m;
    }

    @SuppressWarnings("unchecked")
    private static XYChart chart(final List<Map<String, Object>> runs) {
        final XYChart c = ChartFiles.xy("Road traffic: reaction latency (Concerto Fig. 8)", "sensor updates / s",
            "latency (ms)");
        series(c, runs, "handlers", "event_latency_ms", "p99", "handler, any event, p99");
        series(c, runs, "handlers", "incident_latency_ms", "p50", "handler, incident, p50");
        series(c, runs, "handlers", "incident_latency_ms", "p99", "handler, incident, p99");
        series(c, runs, "polling", "incident_latency_ms", "p50", "polling, incident, p50");
        series(c, runs, "polling", "incident_latency_ms", "p99", "polling, incident, p99");
        return c;
    }

    @SuppressWarnings("unchecked")
    private static void series(final XYChart c, final List<Map<String, Object>> runs, final String mode,
                               final String field, final String p, final String name) {
        final List<Double> x = new ArrayList<>();
        final List<Double> y = new ArrayList<>();
        for (final Map<String, Object> r : runs) {
            if (mode.equals(r.get("mode"))) {
                x.add(((Number) r.get("achieved_rate")).doubleValue());
                y.add(((Number) ((Map<String, Object>) r.get(field)).get(p)).doubleValue());
            }
        }
        if (!x.isEmpty()) {
            c.addSeries(name, x, y);
        }
    }
}
