package io.pragh.bench.views;

import io.pragh.bench.traversal.JsonFile;
import io.pragh.gremlin.storage.GraphKeys;

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
 * With {@code --fabric tcp} each machine is a server process on 127.0.0.1 ({@link HotspotDeployment#overProcesses}):
 * the readers GET through the machines' client ports, and the rounds run in the coordinator's process, asked over
 * Gremlin ({@code g.call("pragh.hotspot", [op: "round"])}).
 * Reported per case and phase: the view's reads and remote reads as its read counter saw them, the readers' GETs
 * per second, the view's members per host, and the round's moves and time. JSON to {@code --out}.
 *
 * <pre>{@code
 * ./pragh bench hotspot --seconds 5 --out docs/results/hotspot.json
 * ./pragh bench hotspot --fabric tcp --width 40 --height 20 --seconds 5 --out docs/results/hotspot-tcp.json
 * }</pre>
 */
public final class HotspotBench {
    private static final String USAGE = "usage: ./pragh bench hotspot [--width W --height H] [--machines N]"
        + " [--readers T] [--seconds S] [--threshold READS_PER_S] [--fabric in-process|tcp] [--out FILE.json]";
    private static final int HOT_MUNICIPALITY = 3;
    private static final String HOT_VIEW = RoadNetwork.municipality(HOT_MUNICIPALITY);

    private int width = 100;
    private int height = 100;
    private int machines = 4;
    private int readers = 2;
    private int seconds = 5;
    private double threshold = 1_000;
    private Path json = Path.of("target/hotspot.json");
    private boolean tcp;

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
            "readers", b.readers, "seconds", b.seconds, "threshold_reads_per_s", b.threshold, "view", HOT_VIEW,
            "fabric", b.tcp ? "tcp" : "in-process"));
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
                case "--fabric" -> {
                    if (!v.equals("tcp") && !v.equals("in-process")) {
                        throw new IllegalArgumentException("--fabric is in-process (one process) or tcp (a server"
                            + " process per machine); got " + v);
                    }
                    tcp = v.equals("tcp");
                }
                default -> throw new IllegalArgumentException("unknown flag " + args[i]);
            }
        }
        if (machines < 2 || readers < 1 || seconds < 1 || !(threshold > 0)) {
            throw new IllegalArgumentException("machines must be at least 2, readers, seconds and the threshold"
                + " positive");
        }
    }

    private Map<String, Object> runCase(final boolean spread, final PrintStream log) throws Exception {
        try (HotspotDeployment d = tcp ? HotspotDeployment.overProcesses(machines, width, height, log)
            : HotspotDeployment.embedded(machines, width, height)) {
            final long[] keys = readKeys(d.roads());
            if (spread) {
                d.placeAll(keys, 1); // the whole view on one server
            }
            d.watch(HOT_VIEW, threshold);
            final Map<String, Object> out = new LinkedHashMap<>();
            out.put("members_by_host_before", list(d.membersByHost(HOT_VIEW)));
            final double before = read(d, keys, spread);
            final long r0 = System.nanoTime();
            final Map<String, Object> first = d.round();
            out.put("round_ms", (System.nanoTime() - r0) / 1e6);
            out.put("moved", first.get("moved"));
            out.put("members_by_host_after", list(d.membersByHost(HOT_VIEW)));
            final double after = read(d, keys, spread);
            final Map<String, Object> second = d.round();
            out.put("before", phase(first, before));
            out.put("after", phase(second, after));
            out.put("events_dropped", d.eventsDropped());
            log.println((spread ? "spread " : "gather ") + out);
            return out;
        }
    }

    private static List<Integer> list(final int[] counts) {
        return java.util.Arrays.stream(counts).boxed().toList();
    }

    /** A phase's figures from the round that ended it ({@link io.pragh.gremlin.hotspot.HotspotReport#toMap}). */
    private static Map<String, Object> phase(final Map<String, Object> r, final double getsPerSecond) {
        final long reads = ((Number) r.get("reads")).longValue();
        final long remote = ((Number) r.get("remoteReads")).longValue();
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("view_reads", reads);
        m.put("view_reads_by_machine", r.get("readsByMachine"));
        m.put("view_remote_reads", remote);
        m.put("remote_fraction", reads == 0 ? 0.0 : (double) remote / reads);
        m.put("gets_per_s", getsPerSecond);
        return m;
    }

    /** The hot view's members' vertex records and road lists: what a heavy hitter reads. */
    private static long[] readKeys(final RoadNetwork roads) {
        final int road = roads.graph.store().names().id("road");
        final long[] members = roads.municipalityMembers(HOT_MUNICIPALITY);
        final long[] keys = new long[2 * members.length];
        for (int i = 0; i < members.length; i++) {
            keys[2 * i] = GraphKeys.vertex(members[i]);
            keys[2 * i + 1] = GraphKeys.out(members[i], road);
        }
        return keys;
    }

    /** Readers GET random keys for {@link #seconds}; returns GETs per second. */
    private double read(final HotspotDeployment d, final long[] keys, final boolean everyMachine) throws Exception {
        final int threads = everyMachine ? machines : readers;
        final AtomicBoolean stop = new AtomicBoolean();
        final LongAdder gets = new LongAdder();
        final List<Thread> ts = new ArrayList<>();
        final List<HotspotDeployment.Reader> open = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            final HotspotDeployment.Reader from = d.reader(everyMachine ? t : 0);
            open.add(from);
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
        final double perSecond = gets.sum() / ((System.nanoTime() - t0) / 1e9);
        for (final HotspotDeployment.Reader r : open) {
            r.close();
        }
        d.flush();
        return perSecond;
    }
}
