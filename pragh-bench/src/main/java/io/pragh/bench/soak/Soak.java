package io.pragh.bench.soak;

import io.pragh.chaos.ChaosValues;
import io.pragh.chaos.ChaosWorkload;
import io.pragh.chaos.WindowedCheck;
import io.pragh.cluster.EmbeddedCluster;
import io.pragh.durability.SyncPolicy;
import io.pragh.fabric.inprocess.InProcessFabric;
import io.pragh.linearizability.CheckReport;
import io.pragh.linearizability.Violation;
import io.pragh.reclaim.Leases;
import io.pragh.store.StoreConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One soak run: {@link ChaosWorkload} windows back to back for the configured minutes, each checked by
 * {@link WindowedCheck} on a thread of its own while the next one runs (so at most two windows are in memory), and
 * the totals. The cluster: in-process fabric without emulated latency under the fault fabric, one worker per machine,
 * leases of 10 / 20 ms and a leak scan every 10 ms, so that memory is reclaimed and reused all the time.
 *
 * <pre>{@code
 * Soak.Totals t = new Soak(SoakConfig.parse(new String[] {"--minutes", "2"}), System.out).run();
 * }</pre>
 */
final class Soak {
    /** What a run found. */
    static final class Totals {
        long windows;
        long operations;
        long checked;
        long violations;
        final TreeSet<Long> violatedKeys = new TreeSet<>();
        final TreeSet<Long> unreadableKeys = new TreeSet<>();
        final TreeSet<Long> undecidedKeys = new TreeSet<>();
        long faults;
        long failed;
        long migrations;
        long peakSupersededBytes;
        long restarts;

        boolean violated() {
            return violations > 0 || !unreadableKeys.isEmpty();
        }
    }

    private final SoakConfig config;
    private final PrintStream out;
    private final Totals totals = new Totals();

    Soak(SoakConfig config, PrintStream out) {
        this.config = config;
        this.out = out;
    }

    private EmbeddedCluster open(io.pragh.fabric.fault.FaultFabric fabric, Path dir) {
        StoreConfig store = StoreConfig.defaults().withKeys(1_000).withValueBytes(64L << 20).withChunkBytes(4 << 20)
            .withCacheBytes(1 << 20).withReclaimRingSlots(1 << 12).withLeases(new Leases(10, 20))
            .withLeakScanMillis(10);
        EmbeddedCluster.Builder b = EmbeddedCluster.builder().machines(config.machines()).workersPerMachine(1)
            .pinThreads(false).config(store).operationTimeoutMillis(2_000).fabricPerMachine(i -> fabric);
        if (dir != null) {
            b.durability(dir, SyncPolicy.NONE, 1_000);
        }
        return b.build();
    }

    Totals run() throws Exception {
        Path dir = config.restartEvery() > 0 ? Files.createTempDirectory("pragh-soak-") : null;
        ChaosWorkload.Settings settings = ChaosWorkload.Settings.defaults().withSeed(config.seed())
            .withFaults(config.plan()).withClients(config.clients());
        out.printf(Locale.ROOT, "soak: %d machines (in-process fabric under the fault fabric), %d hot keys, %d clients,"
                + " %.1f min in windows of %.1f s, seed %d%s%n  faults: %s%n", config.machines(),
            4L * config.machines(), config.clients(), config.minutes(), config.windowSeconds(), config.seed(),
            dir == null ? "" : ", restart every " + config.restartEvery() + " windows (durable in " + dir + ")",
            config.plan().describe());
        ExecutorService checker = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "soak-checker");
            t.setDaemon(true);
            return t;
        });
        WindowedCheck check = new WindowedCheck();
        long start = System.nanoTime();
        long end = start + (long) (config.minutes() * 60e9);
        long windowMillis = Math.max(1, (long) (config.windowSeconds() * 1_000));
        Future<?> pending = null;
        try (ChaosWorkload workload = new ChaosWorkload(settings, () -> new InProcessFabric(config.machines(), 0),
                fabric -> open(fabric, dir))) {
            while (System.nanoTime() < end) {
                long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
                ChaosWorkload.Window w = workload.runWindow(Math.max(1, Math.min(windowMillis, left)));
                if (pending != null) {
                    pending.get(); // one window checked at a time: memory stays bounded
                }
                double at = (System.nanoTime() - start) / 1e9;
                pending = checker.submit(() -> account(w, check.check(w), at));
                if (config.restartEvery() > 0 && (w.index() + 1) % config.restartEvery() == 0
                    && System.nanoTime() < end) {
                    workload.restart();
                    totals.restarts++;
                }
            }
            if (pending != null) {
                pending.get();
            }
        } finally {
            checker.shutdownNow();
            if (dir != null) {
                deleteQuietly(dir);
            }
        }
        print(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        return totals;
    }

    private synchronized void account(ChaosWorkload.Window w, CheckReport r, double atSeconds) {
        totals.windows++;
        totals.operations += w.ops().size();
        totals.checked += r.checked();
        totals.violations += r.violations().size();
        r.violations().forEach(v -> totals.violatedKeys.add(v.key()));
        totals.unreadableKeys.addAll(w.unreadableKeys());
        totals.undecidedKeys.addAll(r.undecidedKeys());
        totals.faults += w.faultsInjected();
        totals.failed += w.failures().values().stream().mapToLong(Long::longValue).sum();
        totals.migrations += w.migrations();
        totals.peakSupersededBytes = Math.max(totals.peakSupersededBytes, w.peakSupersededBytes());
        out.printf(Locale.ROOT, "window %d at %.0f s: %,d operations, %,d checked, %d violations, %d keys unreadable,"
                + " %d undecided; %,d failed operations, %,d migrations, %,d faults injected, peak superseded %,d"
                + " bytes%n", w.index() + 1, atSeconds, w.ops().size(), r.checked(), r.violations().size(),
            w.unreadableKeys().size(), r.undecidedKeys().size(),
            w.failures().values().stream().mapToLong(Long::longValue).sum(), w.migrations(), w.faultsInjected(),
            w.peakSupersededBytes());
        for (Violation v : r.violations().subList(0, Math.min(2, r.violations().size()))) {
            out.print("  " + v.describe(ChaosValues.FORMAT).replace("\n", "\n  ").stripTrailing() + "\n");
        }
        w.problems().stream().limit(2).forEach(p -> out.println("  " + p));
        if (!w.problems().isEmpty() || !r.violations().isEmpty()) {
            w.failureExamples().forEach((kind, example) -> out.println("  first " + kind + ": " + example));
        }
    }

    private void print(long elapsedMillis) {
        Totals t = totals;
        out.println();
        out.printf(Locale.ROOT, "soak result after %.1f min (%d windows, %d restarts):%n", elapsedMillis / 60_000.0,
            t.windows, t.restarts);
        out.printf(Locale.ROOT, "  operations recorded        %,d (%,d failed, outcome unknown; %,d migrations)%n",
            t.operations, t.failed, t.migrations);
        out.printf(Locale.ROOT, "  operations checked         %,d%n", t.checked);
        out.printf(Locale.ROOT, "  violations                 %d (keys %s)%n", t.violations, t.violatedKeys);
        out.printf(Locale.ROOT, "  keys unreadable (lost)     %d %s%n", t.unreadableKeys.size(), t.unreadableKeys);
        out.printf(Locale.ROOT, "  undecided keys             %d %s%n", t.undecidedKeys.size(), t.undecidedKeys);
        out.printf(Locale.ROOT, "  faults injected            %,d%n", t.faults);
        out.printf(Locale.ROOT, "  peak superseded bytes      %,d (value-region bytes held by records waiting for"
            + " reclaim, all machines)%n", t.peakSupersededBytes);
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("pragh bench soak: could not delete " + dir + ": " + e.getMessage());
        }
    }
}
