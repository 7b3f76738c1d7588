package io.pragh.bench.traversal;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a measurement's CPU went, by duty: the CPU time of every live thread of this JVM at the window's start and
 * at its end, the difference grouped by what the thread's name says it does. In-process, the query threads and the
 * control plane of all machines share this host's cores (the paper gives each machine cores of its own), so a
 * mode's throughput beside ideal's is bounded by the CPU each query takes, control plane included; this says which
 * duty takes it.
 *
 * <p>Two snapshots per window, off the query path. A thread started inside the window counts from zero (all its CPU
 * is the window's); one that ended inside counts nothing, its CPU falling into {@link Duty#UNSEEN}: the process CPU
 * time less every seen thread's. The JVM's native threads (garbage collection, the JIT), which the thread MXBean does
 * not list, are read from {@code /proc/self/task} on Linux at a clock tick's resolution (10 ms), else unseen too. Work done on a query thread for the control plane (the monitor's access sampling on the GET path) counts
 * as the query's: a thread is one duty.
 *
 * <pre>{@code
 * DutyCpu.Window w = DutyCpu.open();
 * runQueries();
 * DutyCpu.Split split = w.close();
 * out.println("[ideal] " + split.line(queries));
 * }</pre>
 */
public final class DutyCpu {
    private static final Logger LOG = LoggerFactory.getLogger(DutyCpu.class);
    /** A machine's own threads: {@code pragh-m3-migration}, {@code pragh-m0-worker-1}, {@code pragh-m2-peer-sends-4}. */
    /** A query thread of {@link ModeSession}: {@code pragh-bench-query-GENERATION-INDEX}. */
    private static final Pattern QUERY = Pattern.compile("pragh-bench-query-\\d+-\\d+");
    private static final Pattern MACHINE = Pattern.compile("pragh-m\\d+-([a-z-]+?)(-\\d+)?");

    /** What a thread does, as its name tells; the report's names in {@link #key()}. */
    public enum Duty {
        /** The benchmark's query threads: the GET and PUT path, location cache, emulated remote latency. */
        QUERIES("queries"),
        /** Split migration's control: instant-report polls, interval ends, the coordinator's decisions. */
        MONITORS("monitors"),
        /** The machines' migration threads. */
        MIGRATION("migration"),
        /** The machines' replica keepers (lease renewal and upkeep of read replicas). */
        REPLICAS("replicas"),
        /** The machines' reclaim (GC of values) threads. */
        RECLAIM("reclaim"),
        /** The machines' leak scanners. */
        LEAK_SCAN("leak_scan"),
        /** The in-process fabric's delivery of two-sided messages, one thread per machine. */
        INBOX("inbox"),
        /** The machines' worker pools. */
        WORKERS("workers"),
        /** Update forwarding and acknowledgement: peer sends, log resends, deferred and uncertain updates. */
        UPDATES("updates"),
        /** Write-ahead log and snapshots. */
        DURABILITY("durability"),
        /** The benchmark's own: main, the loader, the timeline sampler. */
        HARNESS("harness"),
        /** The JVM's Java threads (reference handler, finalizer, signal dispatcher, cleaners) and its VM thread. */
        JVM("jvm"),
        /** Threads of no name above; their names are logged at debug level. */
        OTHER("other"),
        /** The garbage collector's threads (native, Linux only: {@code /proc/self/task}). */
        GC("jvm_gc"),
        /** The JIT compiler's threads (native, Linux only). */
        JIT("jvm_jit"),
        /** Process CPU no thread above accounts for: threads that ended inside the window, native threads elsewhere. */
        UNSEEN("unseen");

        private final String key;

        Duty(String key) {
            this.key = key;
        }

        /** The name in the report's line and JSON. */
        public String key() {
            return key;
        }
    }

    private DutyCpu() {
    }

    /** The duty of the thread named {@code name}; {@link Duty#OTHER} for a name this does not know. */
    public static Duty dutyOf(String name) {
        if (QUERY.matcher(name).matches()) {
            return Duty.QUERIES;
        }
        if (name.equals("pragh-migration-control")) {
            return Duty.MONITORS;
        }
        Matcher m = MACHINE.matcher(name);
        if (m.matches()) {
            return switch (m.group(1)) {
                case "migration" -> Duty.MIGRATION;
                case "replicas" -> Duty.REPLICAS;
                case "gc" -> Duty.RECLAIM;
                case "leakscan" -> Duty.LEAK_SCAN;
                case "inbox" -> Duty.INBOX;
                case "worker" -> Duty.WORKERS;
                case "peer-sends", "log-resend", "deferred", "settle" -> Duty.UPDATES;
                case "wal", "snapshot" -> Duty.DURABILITY;
                default -> Duty.OTHER;
            };
        }
        return switch (name) {
            case "main", "pragh-bench-timeline", "pragh-bench-loader" -> Duty.HARNESS;
            case "Reference Handler", "Finalizer", "Signal Dispatcher", "Common-Cleaner", "Notification Thread",
                 "Attach Listener", "Service Thread", "Monitor Deflation Thread", "process reaper" -> Duty.JVM;
            default -> Duty.OTHER;
        };
    }

    /** Opens a window: the CPU time of the process and of every live thread now. */
    public static Window open() {
        return new Window(Snapshot.take());
    }

    /** The CPU of an open window, taken by {@link #close}. */
    public static final class Window {
        private final Snapshot start;

        private Window(Snapshot start) {
            this.start = start;
        }

        /** The CPU each duty took since {@link DutyCpu#open}, or null when the platform measures no thread CPU. */
        public Split close() {
            Snapshot end = Snapshot.take();
            if (start.processNanos < 0 || end.processNanos < 0 || start.threads == null || end.threads == null) {
                return null;
            }
            Map<Duty, Long> nanos = new EnumMap<>(Duty.class);
            for (Duty d : Duty.values()) {
                nanos.put(d, 0L);
            }
            TreeSet<String> others = new TreeSet<>();
            long seen = 0;
            for (Map.Entry<Long, Sample> e : end.threads.entrySet()) {
                Sample was = start.threads.get(e.getKey());
                long used = e.getValue().cpuNanos - (was == null ? 0 : was.cpuNanos);
                Duty d = dutyOf(e.getValue().name);
                if (d == Duty.OTHER) {
                    others.add(e.getValue().name);
                }
                nanos.merge(d, used, Long::sum);
                seen += used;
            }
            if (start.nativeNanos != null && end.nativeNanos != null) {
                for (Duty d : List.of(Duty.GC, Duty.JIT, Duty.JVM)) {
                    // Summed per duty: a native thread ending inside would make its duty's sum shrink; kept at 0.
                    long used = Math.max(0, end.nativeNanos.getOrDefault(d, 0L)
                        - start.nativeNanos.getOrDefault(d, 0L));
                    nanos.merge(d, used, Long::sum);
                    seen += used;
                }
            }
            long process = end.processNanos - start.processNanos;
            nanos.put(Duty.UNSEEN, Math.max(0, process - seen));
            if (!others.isEmpty()) {
                LOG.debug("threads of no known duty, counted as other: {}", others);
            }
            return new Split(nanos, process, others);
        }
    }

    /**
     * The CPU nanoseconds each duty took over one window, the process's in all, and the names of the threads counted
     * as {@link Duty#OTHER}.
     */
    public record Split(Map<Duty, Long> nanos, long processNanos, TreeSet<String> otherNames) {
        /** Microseconds per query of each duty, by its report name, in {@link Duty}'s order. */
        public Map<String, Double> usPerQuery(long queries) {
            Map<String, Double> m = new LinkedHashMap<>();
            for (Map.Entry<Duty, Long> e : nanos.entrySet()) {
                m.put(e.getKey().key(), queries == 0 ? Double.NaN : e.getValue() / 1e3 / queries);
            }
            return m;
        }

        /** {@code cpu by duty (us per query): queries 150.0, monitors 60.0, ...}: every duty that took any CPU. */
        public String line(long queries) {
            StringJoiner j = new StringJoiner(", ", "cpu by duty (us per query): ", "");
            for (Map.Entry<Duty, Long> e : nanos.entrySet()) {
                if (e.getValue() > 0) {
                    j.add(String.format(Locale.ROOT, "%s %.1f", e.getKey().key(),
                        queries == 0 ? Double.NaN : e.getValue() / 1e3 / queries));
                }
            }
            return j.toString();
        }
    }

    private record Sample(String name, long cpuNanos) {
    }

    /** The duty of the JVM's native thread of Linux name (comm, 15 characters at most) {@code comm}, else null. */
    static Duty nativeDutyOf(String comm) {
        if (comm.startsWith("GC Thread#") || comm.startsWith("G1 ")) {
            return Duty.GC;
        }
        if (comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")) {
            return Duty.JIT;
        }
        if (comm.startsWith("VM Thread") || comm.startsWith("VM Periodic Tas")) {
            return Duty.JVM;
        }
        return null;
    }

    /**
     * Process CPU, each live Java thread's CPU by thread id (null when thread CPU is not measured) and the JVM's
     * native threads' CPU by duty (null where there is no {@code /proc/self/task}).
     */
    private record Snapshot(long processNanos, Map<Long, Sample> threads, Map<Duty, Long> nativeNanos) {
        /** Linux's clock tick, the unit of a task's utime and stime: USER_HZ, 100 on every Linux platform. */
        private static final long NANOS_PER_TICK = 10_000_000L;

        static Snapshot take() {
            ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            Map<Duty, Long> natives = nativeThreads();
            if (!mx.isThreadCpuTimeSupported()) {
                return new Snapshot(ProcessCpu.nanos(), null, natives);
            }
            if (!mx.isThreadCpuTimeEnabled()) {
                mx.setThreadCpuTimeEnabled(true);
            }
            long[] ids = mx.getAllThreadIds();
            // One call for all names (no stack: depth 0); a thread that ended since getAllThreadIds gives null.
            ThreadInfo[] infos = mx.getThreadInfo(ids, 0);
            Map<Long, Sample> threads = new HashMap<>(ids.length * 2);
            for (int i = 0; i < ids.length; i++) {
                long cpu = mx.getThreadCpuTime(ids[i]);
                if (infos[i] != null && cpu >= 0) {
                    threads.put(ids[i], new Sample(infos[i].getThreadName(), cpu));
                }
            }
            return new Snapshot(ProcessCpu.nanos(), threads, natives);
        }

        private static Map<Duty, Long> nativeThreads() {
            Path tasks = Path.of("/proc/self/task");
            if (!Files.isDirectory(tasks)) {
                return null;
            }
            Map<Duty, Long> m = new EnumMap<>(Duty.class);
            try (DirectoryStream<Path> all = Files.newDirectoryStream(tasks)) {
                for (Path task : all) {
                    String stat;
                    try {
                        stat = Files.readString(task.resolve("stat"));
                    } catch (IOException ended) {
                        continue; // ended since listed
                    }
                    // "tid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ')'.
                    int close = stat.lastIndexOf(')');
                    Duty d = nativeDutyOf(stat.substring(stat.indexOf('(') + 1, close));
                    if (d != null) {
                        String[] f = stat.substring(close + 2).split(" ");
                        // Fields 14 and 15 of proc(5), utime and stime, are the 12th and 13th after comm.
                        long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
                        m.merge(d, ticks * NANOS_PER_TICK, Long::sum);
                    }
                }
            } catch (IOException | RuntimeException unreadable) {
                return null;
            }
            return m;
        }
    }
}
