package io.pragh.chaos;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.Machine;
import io.pragh.fabric.Fabric;
import io.pragh.fabric.fault.FaultFabric;
import io.pragh.fabric.fault.FaultRule;
import io.pragh.keys.KeyLayout;
import io.pragh.linearizability.History;
import io.pragh.linearizability.Operation;
import io.pragh.migration.Migrator;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * A concurrent run against an embedded cluster under faults, recorded window by window. Client threads issue GET,
 * PUT, DELETE (so keys are removed and inserted again) and APPEND through random machines on a set of keys (one
 * register and one adjacency key per vertex, vertices spread over every home): a few hot keys make operations on one
 * key collide, many keys make a long run cheap to check (the checker searches each key's history on its own). A
 * driver keeps MIGRATEs in flight to random machines, and a fault thread runs the {@link FaultPlan} on the cluster's
 * {@link FaultFabric}.
 *
 * <p>A window ends at a barrier: the threads stop, every fault is removed (holds released), delayed messages get time
 * to land, and every machine reads every key, the client threads sharing the keys. Those reads must succeed (a key
 * nobody can read once faults healed has lost its value) and are the window's last operations; {@link WindowedCheck}
 * carries them, with the window's writes of unknown outcome, into the next window's check. A key found lost is
 * reported once and left alone from then on. Between windows the cluster may {@link #restart} (a whole durable
 * cluster closed and built again on its directories).
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
    /** How often the sampler reads the reclaim backlog (a reclaim lease of the soak is 20 ms). */
    private static final long SAMPLE_MICROS = 2_000;
    /** A failure after this long shuns its key for the rest of the window (see {@link #shunned}). */
    private static final long SHUN_AFTER_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    /** The kinds of fault a {@link Window} counts, in the order a report lists them. */
    public static final List<String> FAULT_KINDS = List.of("delayed operations", "reordered batches",
        "delayed messages", "reordered messages", "lost messages", "lost CAS replies", "held operations",
        "refused by partitions", "CASes landing late", "sends landing late");

    /**
     * What runs.
     *
     * @param verticesPerMachine vertices homed on each machine, two keys each
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

        /** Two (hot) vertices per machine, four clients, four MIGRATEs in flight, every fault, seed 1. */
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

        public Settings withVerticesPerMachine(int n) {
            return new Settings(n, clients, migrationsInFlight, maxPadding, seed, faults, timeoutMillis);
        }

        public Settings withMigrationsInFlight(int n) {
            return new Settings(verticesPerMachine, clients, n, maxPadding, seed, faults, timeoutMillis);
        }

        public Settings withTimeoutMillis(long ms) {
            return new Settings(verticesPerMachine, clients, migrationsInFlight, maxPadding, seed, faults, ms);
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
     * @param unreadableKeys      keys some machine could not read at the barrier, faults healed: lost values (left
     *                            alone in later windows)
     * @param failures            failed operations by kind and exception (expected under faults; each is in the
     *                            history as an operation of unknown outcome)
     * @param failureExamples     the first exception of each kind of failure, with where it was thrown
     * @param shunnedKeys         keys left alone for the rest of the window after an operation on them failed
     *                            after a long wait (the barrier still reads them)
     * @param migrations          MIGRATEs that completed
     * @param faults              operations and messages a fault rule acted on, by kind ({@link #FAULT_KINDS})
     * @param peakSupersededBytes peak, over the window, of the value-region bytes held by superseded records waiting
     *                            for reclaim, summed over machines (sampled every 2 ms)
     * @param stopMillis          how long the threads took to stop at the window's end (an operation or MIGRATE
     *                            under way is waited for)
     * @param barrierMillis       how long the barrier took
     * @param elapsedMillis       the window's length, barrier included
     */
    public record Window(int index, List<Operation> ops, List<Operation> barrierReads, List<String> problems,
                         List<Long> unreadableKeys, Map<String, Long> failures, Map<String, String> failureExamples,
                         int shunnedKeys, long migrations, Map<String, Long> faults, long peakSupersededBytes, long stopMillis,
                         long barrierMillis, long elapsedMillis) {
        public long count(Operation.Kind kind) {
            return ops.stream().filter(o -> o.kind() == kind).count();
        }

        /** Operations and messages a fault rule acted on, every kind. */
        public long faultsInjected() {
            return faults.values().stream().mapToLong(Long::longValue).sum();
        }

        /** Operations that failed (their outcome unknown). */
        public long failed() {
            return failures.values().stream().mapToLong(Long::longValue).sum();
        }

        public String summary() {
            return ops.size() + " operations (" + count(Operation.Kind.GET) + " GET, " + count(Operation.Kind.PUT)
                + " PUT, " + count(Operation.Kind.APPEND) + " APPEND, " + count(Operation.Kind.DELETE) + " DELETE, "
                + count(Operation.Kind.MIGRATE) + " MIGRATE; " + failed() + " failed), " + migrations
                + " migrations done, " + faultsInjected() + " faults injected, peak superseded " + peakSupersededBytes
                + " bytes, " + elapsedMillis + " ms";
        }
    }

    private final Settings settings;
    private final Supplier<? extends Fabric> baseFabric;
    private final ClusterFactory factory;
    private final History history = new History();
    /** One recorder per client id for the whole run: each window's thread of that id follows the last one's. */
    private final History.Recorder[] recorders;
    private final History.Recorder migrationRecorder = history.recorder(MIGRATION_CLIENT);
    private final long[] keys;
    private final boolean[] adjacency;
    /** Keys found lost by a barrier: reported once, then left alone. Written between windows only. */
    private final boolean[] lost;
    /**
     * Keys an operation failed on after a long wait in the current window (1: shunned): left alone until the
     * barrier. A key whose operations wait out the store's patience (a pending invalidation nobody will finish)
     * would otherwise keep a delivery or migration thread waiting seconds at a time, the whole window long.
     */
    private final AtomicIntegerArray shunned;
    private final int[] sequences;
    private EmbeddedCluster cluster;
    private FaultFabric fabric;
    private int lives;
    private int windows;
    private volatile boolean stop;
    private final FailureTally tally = new FailureTally();

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
        this.lost = new boolean[2 * vertices];
        this.shunned = new AtomicIntegerArray(2 * vertices);
        this.sequences = new int[settings.clients() + 1];
        this.recorders = new History.Recorder[settings.clients() + 1];
        for (int c = 0; c <= settings.clients(); c++) {
            recorders[c] = history.recorder(c);
        }
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

    /** The keys. */
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
        List<Thread> threads = new ArrayList<>();
        for (int c = 1; c <= settings.clients(); c++) {
            int client = c;
            threads.add(new Thread(() -> client(client, failures), "chaos-client-" + c));
        }
        if (settings.migrationsInFlight() > 0) {
            threads.add(new Thread(() -> migrations(migrations, failures), "chaos-migrations"));
        }
        ChaosFaults faultThread = new ChaosFaults(fabric, settings.faults(), settings.seed() * 31 + windows,
            cluster.machineCount(), () -> stop);
        threads.add(new Thread(faultThread::run, "chaos-faults"));
        threads.add(new Thread(() -> sample(peak), "chaos-sampler"));
        Map<String, FaultRule> background = faultThread.installBackground();
        for (Thread t : threads) {
            t.setDaemon(true);
            t.start();
        }
        Thread.sleep(millis);
        stop = true;
        long stopping = System.nanoTime();
        join(threads, problems);
        long stopMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopping);
        Map<String, Long> faults = new LinkedHashMap<>();
        for (String kind : FAULT_KINDS) {
            FaultRule r = background.get(kind);
            faults.put(kind, r != null ? r.fired() : kind.equals("held operations") ? faultThread.held()
                : kind.equals("refused by partitions") ? faultThread.refused() : 0);
        }
        fabric.clear();
        // What failed at its issuer and lands late must land before the barrier reads, or its effect would fall in
        // the next window's history with no operation of its own there.
        if (!fabric.awaitLateOperations(settings.faults().maxLateMillis() + STOP_PATIENCE_MILLIS,
            TimeUnit.MILLISECONDS)) {
            problems.add(fabric.lateOperationsInFlight() + " operations failed at their issuer did not land within "
                + STOP_PATIENCE_MILLIS + " ms of their latest time");
        }
        // Late messages land within their delay; updates they carry answer nobody (their callers gave up).
        Thread.sleep(20 + TimeUnit.MICROSECONDS.toMillis(settings.faults().maxDelayMicros()));
        long barrierStarted = System.nanoTime();
        List<Long> unreadable = new ArrayList<>();
        List<Operation> barrier = new ChaosBarrier(cluster, keys, lost, recorders, settings.clients(), tally)
            .run(problems, failures, unreadable);
        long barrierMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - barrierStarted);
        int shunnedKeys = 0;
        for (int k = 0; k < keys.length; k++) {
            shunnedKeys += shunned.getAndSet(k, 0);
        }
        List<Operation> ops = history.drain();
        Map<String, Long> failed = new TreeMap<>();
        failures.forEach((k, v) -> failed.put(k, v.sum()));
        Map<String, String> failureExamples = tally.drainExamples();
        return new Window(windows++, ops, barrier, new ArrayList<>(problems), unreadable, failed, failureExamples,
            shunnedKeys, migrations.get(), faults, peak.get(), stopMillis, barrierMillis,
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }

    /** Joins a window's threads; one still running after {@link #STOP_PATIENCE_MILLIS} is named a problem. */
    static void join(List<Thread> threads, ConcurrentLinkedQueue<String> problems)
        throws InterruptedException {
        for (Thread t : threads) {
            t.join(STOP_PATIENCE_MILLIS);
            if (t.isAlive()) {
                problems.add(t.getName() + " did not stop within " + STOP_PATIENCE_MILLIS + " ms of the window's end");
            }
        }
    }

    private void sample(AtomicLong peak) {
        try {
            while (!stop) {
                peak.accumulateAndGet(supersededBytes(), Math::max);
                TimeUnit.MICROSECONDS.sleep(SAMPLE_MICROS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Value-region bytes held by superseded records waiting for reclaim, summed over machines. */
    private long supersededBytes() {
        long sum = 0;
        for (int m = 0; m < cluster.machineCount(); m++) {
            sum += cluster.machine(m).store().reclaimer().awaitingReclaimBytes();
        }
        return sum;
    }

    /** A key neither lost nor shunned (if one is left): the clients and the MIGRATE driver draw from these. */
    private int liveKey(SplittableRandom rnd) {
        int k = rnd.nextInt(keys.length);
        for (int tries = 0; (lost[k] || shunned.get(k) != 0) && tries < keys.length; tries++) {
            k = rnd.nextInt(keys.length);
        }
        return k;
    }

    /** Shuns a key whose operation failed after waiting {@link #SHUN_AFTER_NANOS} or more. */
    private void failedAfter(int k, long invokedNanos) {
        if (System.nanoTime() - invokedNanos >= SHUN_AFTER_NANOS) {
            shunned.set(k, 1);
        }
    }

    private void client(int id, Map<String, LongAdder> failures) {
        RecordingClient c = new RecordingClient(recorders[id]);
        SplittableRandom rnd = new SplittableRandom(settings.seed() * 7_919 + id * 104_729L + windows);
        int machines = cluster.machineCount();
        while (!stop) {
            Machine m = cluster.machine(rnd.nextInt(machines));
            int k = liveKey(rnd);
            long key = keys[k];
            int dice = rnd.nextInt(100);
            String what = "GET";
            long t0 = System.nanoTime();
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
                tally.count(failures, what, e);
                failedAfter(k, t0);
            }
        }
    }

    /** Keeps MIGRATEs of random keys to random machines in flight until the window stops. */
    private void migrations(AtomicLong done, Map<String, LongAdder> failures) {
        RecordingClient c = new RecordingClient(migrationRecorder);
        SplittableRandom rnd = new SplittableRandom(settings.seed() * 131 + windows);
        record InFlight(int k, long key, int target, long invoke, CompletableFuture<Migrator.Outcome> future) {
        }
        ArrayDeque<InFlight> inFlight = new ArrayDeque<>();
        while (!stop || !inFlight.isEmpty()) {
            if (!stop && inFlight.size() < settings.migrationsInFlight()) {
                int k = liveKey(rnd);
                int target = rnd.nextInt(cluster.machineCount());
                inFlight.add(new InFlight(k, keys[k], target, System.nanoTime(),
                    cluster.machine(target).migrateAsync(keys[k])));
                continue;
            }
            InFlight f = inFlight.poll();
            // Each MIGRATE's patience counts from its own start, so stuck ones in a row are not waited for in turn.
            long left = settings.timeoutMillis() - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - f.invoke());
            try {
                if (c.awaitMigration(f.key(), f.target(), f.invoke(), f.future(), Math.max(1, left))
                    == Migrator.Outcome.MIGRATED) {
                    done.incrementAndGet();
                }
            } catch (RuntimeException e) {
                tally.count(failures, "MIGRATE", e.getCause() == null ? e : e.getCause());
                failedAfter(f.k(), f.invoke());
            }
        }
    }

    @Override
    public void close() {
        stop = true;
        if (cluster != null) {
            cluster.close();
        }
    }
}
