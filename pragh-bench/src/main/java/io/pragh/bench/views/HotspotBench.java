package io.pragh.bench.views;

import io.pragh.bench.traversal.JsonFile;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.Machine;
import io.pragh.gremlin.events.ViewEvents;
import io.pragh.gremlin.hotspot.HotspotReport;
import io.pragh.gremlin.hotspot.ViewHotspots;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import org.apache.commons.configuration2.BaseConfiguration;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code ./pragh bench hotspot}: view-driven hotspot migration (Concerto's section 6 experiment) on the road grid of
 * {@code bench views}. One municipality view is the hot view; heavy-hitter readers GET its members' vertex records
 * and road lists for {@code --seconds}, one hotspot round places the view where it is read, and the readers run as
 * long again. Two cases, each on a fresh graph:
 * <ul>
 *   <li><b>gather</b>: every reader reads through machine 0 (clients of one machine);</li>
 *   <li><b>spread</b>: the view's values all sit on machine 1 first (Concerto's hotspot: a view co-located on one
 *       server), one reader per machine.</li>
 * </ul>
 * Reported per case and phase: the view's reads and remote reads as its read counter saw them, the readers' GETs
 * per second, the view's members per host, and the round's moves and time. JSON to {@code --out}.
 *
 * <pre>{@code
 * ./pragh bench hotspot --seconds 5 --out docs/results/hotspot.json
 * }</pre>
 */
public final class HotspotBench {
    private static final String USAGE = "usage: ./pragh bench hotspot [--width W --height H] [--machines N]"
        + " [--readers T] [--seconds S] [--threshold READS_PER_S] [--out FILE.json]";
    private static final String HOT_VIEW = RoadNetwork.municipality(3);

    private int width = 100;
    private int height = 100;
    private int machines = 4;
    private int readers = 2;
    private int seconds = 5;
    private double threshold = 1_000;
    private Path json = Path.of("target/hotspot.json");

    private HotspotBench() {
    }

    public static int run(final String[] args, final PrintStream out, final PrintStream err) throws Exception {
        final HotspotBench b = new HotspotBench();
        try {
            b.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("pragh bench hotspot: " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
        final Map<String, Object> report = new LinkedHashMap<>();
        report.put("command", "./pragh bench hotspot " + String.join(" ", args));
        report.put("config", Map.of("width", b.width, "height", b.height, "machines", b.machines,
            "readers", b.readers, "seconds", b.seconds, "threshold_reads_per_s", b.threshold, "view", HOT_VIEW));
        report.put("gather", b.runCase(false, out));
        report.put("spread", b.runCase(true, out));
        JsonFile.write(b.json, report);
        out.println("wrote " + b.json);
        return 0;
    }

    private void parse(final String[] args) {
        if (args.length % 2 != 0) {
            throw new IllegalArgumentException("flag " + args[args.length - 1] + " needs a value");
        }
        for (int i = 0; i < args.length; i += 2) {
            final String v = args[i + 1];
            switch (args[i]) {
                case "--width" -> width = Integer.parseInt(v);
                case "--height" -> height = Integer.parseInt(v);
                case "--machines" -> machines = Integer.parseInt(v);
                case "--readers" -> readers = Integer.parseInt(v);
                case "--seconds" -> seconds = Integer.parseInt(v);
                case "--threshold" -> threshold = Double.parseDouble(v);
                case "--out" -> json = Path.of(v);
                default -> throw new IllegalArgumentException("unknown flag " + args[i]);
            }
        }
        if (machines < 2 || readers < 1 || seconds < 1 || !(threshold > 0)) {
            throw new IllegalArgumentException("machines must be at least 2, readers, seconds and the threshold"
                + " positive");
        }
    }

    private Map<String, Object> runCase(final boolean spread, final PrintStream log) throws Exception {
        final BaseConfiguration conf = new BaseConfiguration();
        conf.setProperty(PraghGraph.MACHINES, machines);
        try (PraghGraph graph = PraghGraph.open(conf)) {
            final RoadNetwork roads = RoadNetwork.build(graph, width, height);
            final EmbeddedCluster cluster = ((EmbeddedGraphStore) graph.store()).cluster();
            final long[] keys = readKeys(roads);
            if (spread) {
                for (final long key : keys) {
                    cluster.machine(1).migrate(key); // the whole view on one server
                }
            }
            try (ViewEvents events = ViewEvents.of(roads.views); ViewHotspots hotspots = ViewHotspots.of(events)) {
                hotspots.watch(HOT_VIEW, threshold);
                final Map<String, Object> out = new LinkedHashMap<>();
                out.put("members_by_host_before", list(hotspots.membersByHost(HOT_VIEW)));
                final double before = read(cluster, keys, spread);
                events.flush(60_000);
                final long r0 = System.nanoTime();
                final HotspotReport first = hotspots.runRound().get(0);
                out.put("round_ms", (System.nanoTime() - r0) / 1e6);
                out.put("moved", first.moved());
                out.put("members_by_host_after", list(hotspots.membersByHost(HOT_VIEW)));
                final double after = read(cluster, keys, spread);
                events.flush(60_000);
                final HotspotReport second = hotspots.runRound().get(0);
                out.put("before", phase(first, before));
                out.put("after", phase(second, after));
                out.put("events_dropped", events.dropped());
                log.println((spread ? "spread " : "gather ") + out);
                return out;
            }
        }
    }

    private static List<Integer> list(final int[] counts) {
        return java.util.Arrays.stream(counts).boxed().toList();
    }

    private static Map<String, Object> phase(final HotspotReport r, final double getsPerSecond) {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("view_reads", r.reads());
        m.put("view_remote_reads", r.remoteReads());
        m.put("remote_fraction", r.reads() == 0 ? 0.0 : (double) r.remoteReads() / r.reads());
        m.put("gets_per_s", getsPerSecond);
        return m;
    }

    /** The hot view's members' vertex records and road lists: what a heavy hitter reads. */
    private static long[] readKeys(final RoadNetwork roads) {
        final int road = roads.graph.store().names().id("road");
        final long[] members = roads.views.members(HOT_VIEW);
        final long[] keys = new long[2 * members.length];
        for (int i = 0; i < members.length; i++) {
            keys[2 * i] = GraphKeys.vertex(members[i]);
            keys[2 * i + 1] = GraphKeys.out(members[i], road);
        }
        return keys;
    }

    /** Readers GET random keys for {@link #seconds}; returns GETs per second. */
    private double read(final EmbeddedCluster cluster, final long[] keys, final boolean everyMachine)
        throws InterruptedException {
        final int threads = everyMachine ? cluster.machineCount() : readers;
        final AtomicBoolean stop = new AtomicBoolean();
        final LongAdder gets = new LongAdder();
        final List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            final Machine from = cluster.machine(everyMachine ? t : 0);
            final Thread th = new Thread(() -> {
                final ThreadLocalRandom rnd = ThreadLocalRandom.current();
                while (!stop.get()) {
                    from.get(keys[rnd.nextInt(keys.length)]);
                    gets.increment();
                }
            }, "hotspot-reader-" + t);
            ts.add(th);
        }
        final long t0 = System.nanoTime();
        ts.forEach(Thread::start);
        Thread.sleep(seconds * 1000L);
        stop.set(true);
        for (final Thread th : ts) {
            th.join();
        }
        return gets.sum() / ((System.nanoTime() - t0) / 1e9);
    }
}
