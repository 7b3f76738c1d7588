package io.pragh.bench.soak;

import io.pragh.chaos.ChaosValues;
import io.pragh.chaos.ChaosWorkload;
import io.pragh.chaos.WindowedCheck;
import io.pragh.durability.SyncPolicy;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.fabric.fault.FaultFabric;
import io.pragh.fabric.inprocess.InProcessFabric;
import io.pragh.linearizability.CheckReport;
import io.pragh.linearizability.Operation;
import io.pragh.linearizability.Violation;
import io.pragh.reclaim.Leases;
import io.pragh.store.StoreConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One soak run: {@link ChaosWorkload} windows back to back for the configured minutes on many keys, each window
 * handed, once closed, to checker threads that check it for per-key linearizability ({@link WindowedCheck}) while
 * the next one runs. Checking is per key, so each checker takes a fixed share of the keys of every window: its
 * searches stay small, and several checkers share the work. Recording never waits for checking unless the checkers
 * fall {@value #WINDOWS_IN_CHECKING} windows behind (then the wait is reported): memory stays bounded by those
 * windows, and a window is dropped once checked.
 *
 * <p>The cluster: in-process fabric without emulated latency under the fault fabric, one worker per machine, leases
 * of 10 / 20 ms so memory is reclaimed and reused all the time, the leak scan every {@link SoakConfig#leakScanMillis}.
 *
 * <pre>{@code
 * Soak.Totals t = new Soak(SoakConfig.parse(new String[] {"--minutes", "2"}), System.out).run();
 * }</pre>
 */
final class Soak {
    private static final Logger LOG = LoggerFactory.getLogger(Soak.class);

    /** Closed windows recorded but not yet checked, at most; the workload waits beyond. */
    static final int WINDOWS_IN_CHECKING = 2;
    private static final long OPERATION_TIMEOUT_MILLIS = 1_000;
    private static final long MIGRATE_TIMEOUT_MILLIS = 5_000;

    /** What a run found. */
    static final class Totals {
        long windows;
        long operations;
        long checked;
        long barrierReads;
        long violations;
        final TreeSet<Long> violatedKeys = new TreeSet<>();
        final TreeSet<Long> unreadableKeys = new TreeSet<>();
        final TreeSet<Long> undecidedKeys = new TreeSet<>();
        final Map<String, Long> faults = new LinkedHashMap<>();
        long failed;
        long migrations;
        long peakSupersededBytes;
        long restarts;
        long checkerErrors;
        long waitedForCheckingMillis;
        String firstViolation;

        boolean violated() {
            return violations > 0 || !unreadableKeys.isEmpty() || checkerErrors > 0;
        }

        long faultsInjected() {
            return faults.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /** A window being checked: its figures, and its checkers' reports as they come in. */
    private static final class InCheck {
        final ChaosWorkload.Window window;
        final double atSeconds;
        int reportsLeft;
        long checked;
        final List<Violation> violations = new ArrayList<>();
        final List<Long> undecided = new ArrayList<>();
        final List<String> errors = new ArrayList<>();

        InCheck(ChaosWorkload.Window window, double atSeconds, int checkers) {
            this.window = window;
            this.atSeconds = atSeconds;
            this.reportsLeft = checkers;
        }
    }

    private final SoakConfig config;
    private final PrintStream out;
    private final Totals totals = new Totals();
    private final Semaphore inChecking = new Semaphore(WINDOWS_IN_CHECKING);
    private final UnaryOperator<ChaosWorkload.Window> beforeCheck;

    Soak(SoakConfig config, PrintStream out) {
        this(config, out, UnaryOperator.identity());
    }

    /**
     * @param beforeCheck what every closed window goes through before it is checked: the identity, but for a test
     *                    that plants a violation to see the run report it
     */
    Soak(SoakConfig config, PrintStream out, UnaryOperator<ChaosWorkload.Window> beforeCheck) {
        this.config = config;
        this.out = out;
        this.beforeCheck = beforeCheck;
    }

    private EmbeddedCluster open(FaultFabric fabric, Path dir) {
        // Room for each machine's keys at a comfortable load, and for values that APPENDs grow between DELETEs.
        long keysPerMachine = Math.max(1_000, 4L * config.keys() / config.machines());
        StoreConfig store = StoreConfig.defaults().withKeys(keysPerMachine).withValueBytes(64L << 20)
            .withChunkBytes(4 << 20).withCacheBytes(4 << 20).withReclaimRingSlots(1 << 14)
            .withLeases(new Leases(10, 20)).withLeakScanMillis(config.leakScanMillis());
        EmbeddedCluster.Builder b = EmbeddedCluster.builder().machines(config.machines()).workersPerMachine(1)
            .pinThreads(false).config(store).operationTimeoutMillis(OPERATION_TIMEOUT_MILLIS)
            .fabricPerMachine(i -> fabric);
        if (dir != null) {
            b.durability(dir, SyncPolicy.NONE, 1_000);
        }
        return b.build();
    }

    Totals run() throws Exception {
        Path dir = config.restartEvery() > 0 ? Files.createTempDirectory("pragh-soak-") : null;
        ChaosWorkload.Settings settings = ChaosWorkload.Settings.defaults().withSeed(config.seed())
            .withFaults(config.plan()).withClients(config.clients())
            .withVerticesPerMachine(config.verticesPerMachine()).withMigrationsInFlight(8)
            .withTimeoutMillis(MIGRATE_TIMEOUT_MILLIS);
        out.printf(Locale.ROOT, "soak: %d machines (in-process fabric under the fault fabric), %d keys, %d clients,"
                + " %d checker(s), %.1f min in windows of %.1f s, leak scan every %d ms, seed %d%s%n  faults: %s%n",
            config.machines(), 2L * config.verticesPerMachine() * config.machines(), config.clients(),
            config.checkers(), config.minutes(), config.windowSeconds(), config.leakScanMillis(), config.seed(),
            dir == null ? "" : ", restart every " + config.restartEvery() + " windows (durable in " + dir + ")",
            config.plan().describe());
        int n = config.checkers();
        ExecutorService[] checkers = new ExecutorService[n];
        WindowedCheck[] checks = new WindowedCheck[n];
        for (int i = 0; i < n; i++) {
            String name = "soak-checker-" + i;
            checkers[i] = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, name);
                t.setDaemon(true);
                return t;
            });
            checks[i] = new WindowedCheck();
        }
        long start = System.nanoTime();
        long end = start + (long) (config.minutes() * 60e9);
        long windowMillis = Math.max(1, (long) (config.windowSeconds() * 1_000));
        try (ChaosWorkload workload = new ChaosWorkload(settings, () -> new InProcessFabric(config.machines(), 0),
                fabric -> open(fabric, dir))) {
            while (System.nanoTime() < end) {
                long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
                ChaosWorkload.Window w = beforeCheck.apply(
                    workload.runWindow(Math.max(1, Math.min(windowMillis, left))));
                double at = (System.nanoTime() - start) / 1e9;
                long waitStarted = System.nanoTime();
                inChecking.acquire();
                synchronized (totals) {
                    totals.waitedForCheckingMillis += TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - waitStarted);
                }
                submit(w, at, checkers, checks);
                if (config.restartEvery() > 0 && (w.index() + 1) % config.restartEvery() == 0
                    && System.nanoTime() < end) {
                    workload.restart();
                    synchronized (totals) {
                        totals.restarts++;
                    }
                }
            }
            inChecking.acquire(WINDOWS_IN_CHECKING); // every window checked
        } finally {
            for (ExecutorService c : checkers) {
                c.shutdownNow();
            }
            if (dir != null) {
                deleteQuietly(dir);
            }
        }
        print(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        return totals;
    }

    /** Hands a closed window to the checkers, each its share of the keys. */
    private void submit(ChaosWorkload.Window w, double at, ExecutorService[] checkers, WindowedCheck[] checks) {
        int n = checkers.length;
        List<List<Operation>> ops = split(w.ops(), n);
        List<List<Operation>> barrier = split(w.barrierReads(), n);
        InCheck pending = new InCheck(w, at, n);
        for (int i = 0; i < n; i++) {
            int share = i;
            checkers[i].execute(() -> {
                CheckReport r = null;
                long checked = 0;
                String error = null;
                try {
                    r = checks[share].check(ops.get(share), barrier.get(share));
                    checked = checks[share].newlyChecked();
                } catch (RuntimeException | Error e) {
                    error = "checker " + share + " failed on window " + (w.index() + 1) + ": " + e;
                }
                ops.set(share, null); // checked: the operations can go
                reported(pending, r, checked, error);
            });
        }
    }

    /** The window's operations by checker: a key's operations always go to the same checker. */
    private static List<List<Operation>> split(List<Operation> ops, int n) {
        List<List<Operation>> shares = new ArrayList<>(n);
        if (n == 1) {
            shares.add(ops);
            return shares;
        }
        for (int i = 0; i < n; i++) {
            shares.add(new ArrayList<>(ops.size() / n + 16));
        }
        for (Operation op : ops) {
            shares.get(shareOf(op.key(), n)).add(op);
        }
        return shares;
    }

    private static int shareOf(long key, int n) {
        long z = key * 0x9E3779B97F4A7C15L; // keys of one vertex differ in low bits; spread them
        return (int) Long.remainderUnsigned(z ^ (z >>> 32), n);
    }

    private void reported(InCheck c, CheckReport r, long checked, String error) {
        synchronized (totals) {
            if (r != null) {
                c.checked += checked;
                c.violations.addAll(r.violations());
                c.undecided.addAll(r.undecidedKeys());
            }
            if (error != null) {
                c.errors.add(error);
            }
            if (--c.reportsLeft > 0) {
                return;
            }
            account(c);
        }
        inChecking.release();
    }

    /** Adds a window whose every share was checked to the totals and prints its line. Holds the totals' lock. */
    private void account(InCheck c) {
        ChaosWorkload.Window w = c.window;
        Totals t = totals;
        t.windows++;
        t.operations += w.ops().size();
        t.checked += c.checked;
        t.barrierReads += w.barrierReads().size();
        t.violations += c.violations.size();
        c.violations.forEach(v -> t.violatedKeys.add(v.key()));
        t.unreadableKeys.addAll(w.unreadableKeys());
        t.undecidedKeys.addAll(c.undecided);
        w.faults().forEach((kind, count) -> t.faults.merge(kind, count, Long::sum));
        t.failed += w.failed();
        t.migrations += w.migrations();
        t.peakSupersededBytes = Math.max(t.peakSupersededBytes, w.peakSupersededBytes());
        t.checkerErrors += c.errors.size();
        out.printf(Locale.ROOT, "window %d at %.0f s: %,d operations, %,d checked, %d violations, %d keys lost,"
                + " %d undecided; %,d failed (%d keys shunned), %,d migrations, %,d faults, peak superseded %,d bytes;"
                + " stop %,d ms, barrier %,d ms%n",
            w.index() + 1, c.atSeconds, w.ops().size(), c.checked, c.violations.size(), w.unreadableKeys().size(),
            c.undecided.size(), w.failed(), w.shunnedKeys(), w.migrations(), w.faultsInjected(),
            w.peakSupersededBytes(), w.stopMillis(), w.barrierMillis());
        c.errors.forEach(e -> out.println("  " + e));
        for (Violation v : c.violations.subList(0, Math.min(2, c.violations.size()))) {
            String story = v.describe(ChaosValues.FORMAT);
            if (t.firstViolation == null) {
                t.firstViolation = "window " + (w.index() + 1) + ", " + story;
            }
            out.print("  " + story.replace("\n", "\n  ").stripTrailing() + "\n");
        }
        w.problems().stream().limit(2).forEach(p -> out.println("  " + p));
        if (!w.problems().isEmpty() || !c.violations.isEmpty()) {
            w.failureExamples().forEach((kind, example) -> out.println("  first " + kind + ": " + example));
        }
    }

    private void print(long elapsedMillis) {
        Totals t = totals;
        double minutes = elapsedMillis / 60_000.0;
        out.println();
        out.printf(Locale.ROOT, "soak result after %.1f min (%d windows, %d restarts):%n", minutes, t.windows,
            t.restarts);
        out.printf(Locale.ROOT, "  operations recorded        %,d (%,d failed, outcome unknown)%n", t.operations,
            t.failed);
        out.printf(Locale.ROOT, "  operations checked         %,d (%,.0f per minute; %,d of them the barriers' reads)%n",
            t.checked, t.checked / Math.max(minutes, 1e-9), t.barrierReads);
        out.printf(Locale.ROOT, "  violations                 %d (keys %s)%n", t.violations, t.violatedKeys);
        out.printf(Locale.ROOT, "  keys unreadable (lost)     %d %s%n", t.unreadableKeys.size(), t.unreadableKeys);
        out.printf(Locale.ROOT, "  undecided keys             %d %s%n", t.undecidedKeys.size(), t.undecidedKeys);
        if (t.checkerErrors > 0) {
            out.printf(Locale.ROOT, "  checker errors             %d%n", t.checkerErrors);
        }
        out.printf(Locale.ROOT, "  faults injected            %,d:", t.faultsInjected());
        t.faults.forEach((kind, count) -> out.printf(Locale.ROOT, " %s %,d;", kind, count));
        out.println();
        out.printf(Locale.ROOT, "  migrations done            %,d%n", t.migrations);
        out.printf(Locale.ROOT, "  peak superseded bytes      %,d (value-region bytes held by superseded records"
            + " waiting for reclaim, all machines)%n", t.peakSupersededBytes);
        out.printf(Locale.ROOT, "  recording waited for checks %,d ms%n", t.waitedForCheckingMillis);
        out.printf(Locale.ROOT, "  elapsed                    %.1f s%n", elapsedMillis / 1_000.0);
        if (t.firstViolation != null) {
            out.print("  first violation: " + t.firstViolation.replace("\n", "\n    ").stripTrailing() + "\n");
        }
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            LOG.warn("could not delete {}: {}", dir, e.getMessage());
        }
    }
}
