package io.pragh.chaos;

import io.pragh.cluster.EmbeddedCluster;
import io.pragh.cluster.Machine;
import io.pragh.fabric.Fabric;
import io.pragh.fabric.fault.FaultFabric;
import io.pragh.fabric.fault.FaultRule;
import io.pragh.fabric.fault.HoldRule;
import io.pragh.keys.KeyLayout;
import io.pragh.linearizability.History;
import io.pragh.linearizability.Operation;
import io.pragh.migration.Migrator;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * A concurrent run against an embedded cluster under faults, recorded window by window. Client threads issue GET,
 * PUT, DELETE (so keys are removed and inserted again) and APPEND through random machines on a small set of hot
 * keys (one register and one adjacency key per vertex, vertices spread over every home), a driver keeps MIGRATEs in
 * flight to random machines, and a fault thread runs the {@link FaultPlan} on the cluster's {@link FaultFabric}.
 *
 * <p>A window ends at a barrier: the threads stop, every fault is removed (holds released), delayed messages get time
 * to land, and every machine reads every key. Those reads must succeed (a key nobody can read once faults healed has
 * lost its value) and are the window's last operations; {@link WindowedCheck} carries them, with the window's writes
 * of unknown outcome, into the next window's check. Between windows the cluster may {@link #restart} (a whole
 * durable cluster closed and built again on its directories).
 *
 * <pre>{@code
 * ChaosWorkload w = new ChaosWorkload(ChaosWorkload.Settings.defaults(), () -> new InProcessFabric(4, 0),
 *     fabric -> EmbeddedCluster.builder().machines(4).fabricPerMachine(i -> fabric).build());
 * WindowedCheck check = new WindowedCheck();
 * ChaosWorkload.Window win = w.runWindow(2_000);
 * CheckReport report = check.check(win);
 * w.close();
 * }</pre>
 */
public final class ChaosWorkload implements AutoCloseable {
    /** The client id of the barrier's reads. */
    public static final int BARRIER_CLIENT = 0;
    private static final int MIGRATION_CLIENT = 1_000;
    private static final long STOP_PATIENCE_MILLIS = 60_000;
    private static final int BARRIER_ATTEMPTS = 100;

    /**
     * What runs.
     *
     * @param verticesPerMachine hot vertices homed on each machine, two keys each
     * @param clients            client threads
     * @param migrationsInFlight MIGRATEs the driver keeps going (0: none)
     * @param maxPadding         PUT values are 16 + 0..maxPadding bytes, so records change size classes
     * @param seed               seeds the clients' choices and the fault fabric's rules
     * @param faults             what the fault thread injects
     * @param timeoutMillis      how long the workload waits for a MIGRATE before it records it unknown
     */
    public record Settings(int verticesPerMachine, int clients, int migrationsInFlight, int maxPadding, long seed,
                           FaultPlan faults, long timeoutMillis) {
        public Settings {
            if (verticesPerMachine < 1 || clients < 1 || migrationsInFlight < 0 || maxPadding < 0) {
                throw new IllegalArgumentException("need a vertex per machine, a client, and no negative counts");
            }
        }

        /** Two vertices per machine, four clients, four MIGRATEs in flight, every fault, seed 1. */
        public static Settings defaults() {
            return new Settings(2, 4, 4, 300, 1, FaultPlan.all(), 10_000);
        }

        public Settings withSeed(long s) {
            return new Settings(verticesPerMachine, clients, migrationsInFlight, maxPadding, s, faults, timeoutMillis);
        }

        public Settings withFaults(FaultPlan f) {
            return new Settings(verticesPerMachine, clients, migrationsInFlight, maxPadding, seed, f, timeoutMillis);
        }

        public Settings withClients(int n) {
            return new Settings(verticesPerMachine, n, migrationsInFlight, maxPadding, seed, faults, timeoutMillis);
        }
    }

    /** Builds the cluster, one life of it, on a fault fabric the workload made. */
    @FunctionalInterface
    public interface ClusterFactory {
        EmbeddedCluster open(FaultFabric fabric);
    }

    /**
     * One window of the run.
     *
     * @param index               0 for the first window
     * @param ops                 every operation recorded in the window, barrier reads included
     * @param barrierReads        the barrier's reads (also in {@code ops})
     * @param problems            what went wrong beyond the history: a key no machine could read once faults healed,
     *                            a thread that did not stop
     * @param unreadableKeys      keys some machine could not read at the barrier, faults healed: lost values
     * @param failures            failed operations by kind and exception (expected under faults; each is in the
     *                            history as an operation of unknown outcome)
     * @param failureExamples     the first exception of each kind of failure, with where it was thrown
     * @param migrations          MIGRATEs that completed
     * @param faultsInjected      operations and messages a fault rule acted on
     * @param peakSupersededBytes peak, over the window, of the value-region bytes held by records waiting for reclaim,
     *                            summed over machines (sampled every 5 ms)
     * @param elapsedMillis       the window's length, barrier included
     */
    public record Window(int index, List<Operation> ops, List<Operation> barrierReads, List<String> problems,
                         List<Long> unreadableKeys, Map<String, Long> failures, Map<String, String> failureExamples,
                         long migrations, long faultsInjected, long peakSupersededBytes, long elapsedMillis) {
        public long count(Operation.Kind kind) {
            return ops.stream().filter(o -> o.kind() == kind).count();
        }

        public String summary() {
            long failed = failures.values().stream().mapToLong(Long::longValue).sum();
            return ops.size() + " operations (" + count(Operation.Kind.GET) + " GET, " + count(Operation.Kind.PUT)
                + " PUT, " + count(Operation.Kind.APPEND) + " APPEND, " + count(Operation.Kind.DELETE) + " DELETE, "
                + count(Operation.Kind.MIGRATE) + " MIGRATE; " + failed + " failed), " + migrations
                + " migrations done, " + faultsInjected + " faults injected, peak superseded " + peakSupersededBytes
                + " bytes, " + elapsedMillis + " ms";
        }
    }

    private final Settings settings;
    private final Supplier<? extends Fabric> baseFabric;
    private final ClusterFactory factory;
    private final History history = new History();
    private final long[] keys;
    private final boolean[] adjacency;
    private final int[] sequences;
    private EmbeddedCluster cluster;
    private FaultFabric fabric;
    private int lives;
    private int windows;
    private volatile boolean stop;
    /** Operations held and refused by the fault thread's holds and cuts, over every window. */
    private final AtomicLong holdsAndCuts = new AtomicLong();
    /** The first exception of each kind of failure in the current window. */
    private final Map<String, String> examples = new ConcurrentHashMap<>();

    /**
     * @param baseFabric makes the fabric each life of the cluster runs on, wrapped in a {@link FaultFabric}
     * @param factory    builds the cluster on that fault fabric; every life must see the same machines and data
     */
    public ChaosWorkload(Settings settings, Supplier<? extends Fabric> baseFabric, ClusterFactory factory) {
        this.settings = settings;
        this.baseFabric = baseFabric;
        this.factory = factory;
        open();
        int machines = cluster.machineCount();
        int vertices = machines * settings.verticesPerMachine();
        this.keys = new long[2 * vertices];
        this.adjacency = new boolean[2 * vertices];
        this.sequences = new int[settings.clients() + 1];
        long vid = 1;
        for (int i = 0; i < vertices; i++) {
            int home = i % machines;
            while (cluster.home(KeyLayout.key(vid, 0, KeyLayout.VERTEX)) != home) {
                vid++;
            }
            keys[2 * i] = KeyLayout.key(vid, 0, KeyLayout.VERTEX);
            keys[2 * i + 1] = KeyLayout.key(vid, 0, KeyLayout.OUT);
            adjacency[2 * i + 1] = true;
            vid++;
        }
    }

    private void open() {
        fabric = new FaultFabric(baseFabric.get(), settings.seed() * 1_000_003L + lives++);
        cluster = factory.open(fabric);
    }

    public EmbeddedCluster cluster() {
        return cluster;
    }

    public FaultFabric fabric() {
        return fabric;
    }

    /** The hot keys. */
    public long[] keys() {
        return keys.clone();
    }

    /** Closes the cluster and builds it again on the same directories (it must be durable). */
    public void restart() {
        cluster.close();
        open();
    }

    /** Runs one window of about {@code millis} under the plan's faults, then its barrier. */
    public Window runWindow(long millis) throws InterruptedException {
        long started = System.nanoTime();
        stop = false;
        Map<String, LongAdder> failures = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        AtomicLong migrations = new AtomicLong();
        AtomicLong peak = new AtomicLong();
        long faultsBefore = holdsAndCuts.get();
        List<Thread> threads = new ArrayList<>();
        for (int c = 1; c <= settings.clients(); c++) {
            int client = c;
            threads.add(new Thread(() -> client(client, failures), "chaos-client-" + c));
        }
        if (settings.migrationsInFlight() > 0) {
            threads.add(new Thread(() -> migrations(migrations, failures), "chaos-migrations"));
        }
        threads.add(new Thread(() -> faults(), "chaos-faults"));
        threads.add(new Thread(() -> sample(peak), "chaos-sampler"));
        List<FaultRule> background = installBackground();
        for (Thread t : threads) {
            t.setDaemon(true);
            t.start();
        }
        Thread.sleep(millis);
        stop = true;
        for (Thread t : threads) {
            t.join(STOP_PATIENCE_MILLIS);
            if (t.isAlive()) {
                problems.add(t.getName() + " did not stop within " + STOP_PATIENCE_MILLIS + " ms of the window's end");
            }
        }
        long injected = holdsAndCuts.get() - faultsBefore + background.stream().mapToLong(FaultRule::fired).sum();
        fabric.clear();
        // Late messages land within their delay; updates they carry answer nobody (their callers gave up).
        Thread.sleep(20 + TimeUnit.MICROSECONDS.toMillis(settings.faults().maxDelayMicros()));
        List<Long> unreadable = new ArrayList<>();
        List<Operation> barrier = barrier(problems, failures, unreadable);
        List<Operation> ops = history.drain();
        Map<String, Long> failed = new TreeMap<>();
        failures.forEach((k, v) -> failed.put(k, v.sum()));
        Map<String, String> failureExamples = new TreeMap<>(examples);
        examples.clear();
        return new Window(windows++, ops, barrier, new ArrayList<>(problems), unreadable, failed, failureExamples,
            migrations.get(), injected,
            peak.get(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }

    private List<FaultRule> installBackground() {
        FaultPlan p = settings.faults();
        List<FaultRule> rules = new ArrayList<>();
        if (p.lostReplyProbability() > 0) {
            rules.add(fabric.when().cas().single().probability(p.lostReplyProbability()).applyThenFail());
        }
        if (p.messageDropProbability() > 0) {
            rules.add(fabric.when().messages().probability(p.messageDropProbability()).drop());
        }
        if (p.reorderProbability() > 0) {
            rules.add(fabric.when().batched().probability(p.reorderProbability()).reorder());
            rules.add(fabric.when().messages().probability(p.reorderProbability()).reorder());
        }
        if (p.delayProbability() > 0) {
            rules.add(fabric.when().oneSided().probability(p.delayProbability())
                .delay(0, p.maxDelayMicros(), TimeUnit.MICROSECONDS));
        }
        if (p.messageDelayProbability() > 0) {
            rules.add(fabric.when().messages().probability(p.messageDelayProbability())
                .delay(0, p.maxDelayMicros(), TimeUnit.MICROSECONDS));
        }
        return rules;
    }

    /** The fault thread: CAS holds and partitions come and go until the window stops; leaves none behind. */
    private void faults() {
        FaultPlan p = settings.faults();
        SplittableRandom rnd = new SplittableRandom(settings.seed() * 31 + windows);
        int machines = cluster.machineCount();
        long now = System.nanoTime();
        long nextHold = p.holdEveryMillis() > 0 ? now + TimeUnit.MILLISECONDS.toNanos(p.holdEveryMillis()) : -1;
        long nextCut = p.partitionEveryMillis() > 0 ? now + TimeUnit.MILLISECONDS.toNanos(p.partitionEveryMillis())
            : -1;
        HoldRule hold = null;
        long holdEnds = 0;
        FaultRule cut = null;
        long cutEnds = 0;
        try {
            while (!stop) {
                now = System.nanoTime();
                if (hold != null && now >= holdEnds) {
                    holdsAndCuts.addAndGet(hold.everHeld());
                    hold.remove();
                    hold = null;
                    nextHold = now + TimeUnit.MILLISECONDS.toNanos(p.holdEveryMillis());
                } else if (hold == null && nextHold >= 0 && now >= nextHold) {
                    int m = rnd.nextInt(machines);
                    hold = rnd.nextBoolean() ? fabric.when().cas().batched().from(m).times(1).first().hold()
                        : fabric.when().cas().single().from(m).times(1).first().hold();
                    holdEnds = now + TimeUnit.MILLISECONDS.toNanos(1 + rnd.nextLong(Math.max(1, p.maxHoldMillis())));
                }
                if (cut != null && now >= cutEnds) {
                    holdsAndCuts.addAndGet(cut.fired());
                    cut.remove();
                    cut = null;
                    nextCut = now + TimeUnit.MILLISECONDS.toNanos(p.partitionEveryMillis());
                } else if (cut == null && nextCut >= 0 && now >= nextCut) {
                    cut = fabric.when().crossing(rnd.nextInt(machines)).first().refuse();
                    cutEnds = now + TimeUnit.MILLISECONDS.toNanos(p.partitionMillis());
                }
                Thread.sleep(1);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (hold != null) {
                holdsAndCuts.addAndGet(hold.everHeld());
                hold.remove();
            }
            if (cut != null) {
                holdsAndCuts.addAndGet(cut.fired());
                cut.remove();
            }
        }
    }

    private void sample(AtomicLong peak) {
        try {
            while (!stop) {
                long sum = 0;
                for (int m = 0; m < cluster.machineCount(); m++) {
                    sum += cluster.machine(m).store().reclaimer().pendingBytes();
                }
                peak.accumulateAndGet(sum, Math::max);
                Thread.sleep(5);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void count(Map<String, LongAdder> failures, String what, Throwable e) {
        Throwable c = e;
        while (c.getCause() != null && (c instanceof java.util.concurrent.ExecutionException
            || c instanceof java.util.concurrent.CompletionException)) {
            c = c.getCause();
        }
        String kind = what + " " + c.getClass().getSimpleName();
        failures.computeIfAbsent(kind, k -> new LongAdder()).increment();
        Throwable example = c;
        examples.computeIfAbsent(kind, k -> describe(example));
    }

    /** An exception and where it was thrown: what a report needs to tell a fault's symptom from a bug. */
    private static String describe(Throwable e) {
        StringBuilder b = new StringBuilder(String.valueOf(e));
        StackTraceElement[] frames = e.getStackTrace();
        for (int i = 0; i < Math.min(4, frames.length); i++) {
            b.append(i == 0 ? " at " : " < ").append(frames[i]);
        }
        return b.toString();
    }

    private void client(int id, Map<String, LongAdder> failures) {
        RecordingClient c = new RecordingClient(history.recorder(id));
        SplittableRandom rnd = new SplittableRandom(settings.seed() * 7_919 + id * 104_729L + windows);
        int machines = cluster.machineCount();
        while (!stop) {
            Machine m = cluster.machine(rnd.nextInt(machines));
            int k = rnd.nextInt(keys.length);
            long key = keys[k];
            int dice = rnd.nextInt(100);
            String what = "GET";
            try {
                if (dice < 45) {
                    c.get(m, key);
                } else if (dice >= 94) {
                    what = "DELETE";
                    c.delete(m, key);
                } else if (adjacency[k]) {
                    what = "APPEND";
                    c.append(m, key, ChaosValues.append(id, ++sequences[id]));
                } else {
                    what = "PUT";
                    c.put(m, key, ChaosValues.put(key, id, ++sequences[id], settings.maxPadding()));
                }
            } catch (RuntimeException e) {
                count(failures, what, e);
            }
        }
    }

    /** Keeps MIGRATEs of random keys to random machines in flight until the window stops. */
    private void migrations(AtomicLong done, Map<String, LongAdder> failures) {
        RecordingClient c = new RecordingClient(history.recorder(MIGRATION_CLIENT));
        SplittableRandom rnd = new SplittableRandom(settings.seed() * 131 + windows);
        record InFlight(long key, int target, long invoke, CompletableFuture<Migrator.Outcome> future) {
        }
        ArrayDeque<InFlight> inFlight = new ArrayDeque<>();
        while (!stop || !inFlight.isEmpty()) {
            if (!stop && inFlight.size() < settings.migrationsInFlight()) {
                long key = keys[rnd.nextInt(keys.length)];
                int target = rnd.nextInt(cluster.machineCount());
                inFlight.add(new InFlight(key, target, System.nanoTime(), cluster.machine(target).migrateAsync(key)));
                continue;
            }
            InFlight f = inFlight.poll();
            try {
                if (c.awaitMigration(f.key(), f.target(), f.invoke(), f.future(), settings.timeoutMillis())
                    == Migrator.Outcome.MIGRATED) {
                    done.incrementAndGet();
                }
            } catch (RuntimeException e) {
                count(failures, "MIGRATE", e.getCause() == null ? e : e.getCause());
            }
        }
    }

    /**
     * Every machine reads every key, retrying what fails for a while (a migration left in doubt by a cut settles
     * in the background); a key still unreadable is a problem.
     */
    private List<Operation> barrier(ConcurrentLinkedQueue<String> problems, Map<String, LongAdder> failures,
                                    List<Long> unreadable) throws InterruptedException {
        History.Recorder rec = history.recorder(BARRIER_CLIENT);
        List<Operation> reads = new ArrayList<>();
        for (long key : keys) {
            int attempts = BARRIER_ATTEMPTS;
            for (int m = 0; m < cluster.machineCount(); m++) {
                RuntimeException last = null;
                for (int attempt = 0; attempt < attempts; attempt++) {
                    long t0 = System.nanoTime();
                    try {
                        byte[] v = cluster.machine(m).get(key);
                        Operation op = Operation.get(BARRIER_CLIENT, key, v, t0, System.nanoTime());
                        rec.add(op);
                        reads.add(op);
                        last = null;
                        break;
                    } catch (RuntimeException e) {
                        last = e;
                        count(failures, "barrier GET", e);
                        Thread.sleep(10);
                    }
                }
                if (last != null) {
                    problems.add("once every fault was healed, machine " + m + " still could not read key " + key
                        + " after " + attempts + " attempts 10 ms apart: " + last);
                    if (attempts == BARRIER_ATTEMPTS) {
                        unreadable.add(key);
                    }
                    attempts = 3; // the other machines need not wait as long to show the same
                }
            }
        }
        return reads;
    }

    @Override
    public void close() {
        stop = true;
        if (cluster != null) {
            cluster.close();
        }
    }
}
