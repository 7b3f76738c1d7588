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
    /**
     * How long the barrier keeps retrying a key that a machine could not read before it calls the key lost: far more
     * than a migration left in doubt by a cut takes to settle in the background (a GET that waits out a pending
     * invalidation, 5 s, fails once and is not retried).
     */
    private static final long BARRIER_PATIENCE_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final long BARRIER_RETRY_MILLIS = 10;
    /** How often the sampler reads the reclaim backlog (a reclaim lease of the soak is 20 ms). */
    private static final long SAMPLE_MICROS = 2_000;
    /** A failure after this long shuns its key for the rest of the window (see {@link #shunned}). */
    private static final long SHUN_AFTER_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    /** The kinds of fault a {@link Window} counts, in the order a report lists them. */
    public static final List<String> FAULT_KINDS = List.of("delayed operations", "reordered batches",
        "delayed messages", "reordered messages", "lost messages", "lost CAS replies", "held operations",
        "refused by partitions");

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
    /** Operations held, and refused by partitions, by the fault thread's rules in the current window. */
    private final AtomicLong held = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
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
        held.set(0);
        refused.set(0);
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
        threads.add(new Thread(this::faults, "chaos-faults"));
        threads.add(new Thread(() -> sample(peak), "chaos-sampler"));
        Map<String, FaultRule> background = installBackground();
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
            faults.put(kind, r != null ? r.fired() : kind.equals("held operations") ? held.get()
                : kind.equals("refused by partitions") ? refused.get() : 0);
        }
        fabric.clear();
        // Late messages land within their delay; updates they carry answer nobody (their callers gave up).
        Thread.sleep(20 + TimeUnit.MICROSECONDS.toMillis(settings.faults().maxDelayMicros()));
        long barrierStarted = System.nanoTime();
        List<Long> unreadable = new ArrayList<>();
        List<Operation> barrier = barrier(problems, failures, unreadable);
        long barrierMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - barrierStarted);
        int shunnedKeys = 0;
        for (int k = 0; k < keys.length; k++) {
            shunnedKeys += shunned.getAndSet(k, 0);
        }
        List<Operation> ops = history.drain();
        Map<String, Long> failed = new TreeMap<>();
        failures.forEach((k, v) -> failed.put(k, v.sum()));
        Map<String, String> failureExamples = new TreeMap<>(examples);
        examples.clear();
        return new Window(windows++, ops, barrier, new ArrayList<>(problems), unreadable, failed, failureExamples,
            shunnedKeys, migrations.get(), faults, peak.get(), stopMillis, barrierMillis,
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }

    private static void join(List<Thread> threads, ConcurrentLinkedQueue<String> problems)
        throws InterruptedException {
        for (Thread t : threads) {
            t.join(STOP_PATIENCE_MILLIS);
            if (t.isAlive()) {
                problems.add(t.getName() + " did not stop within " + STOP_PATIENCE_MILLIS + " ms of the window's end");
            }
        }
    }

    /** The plan's background rules for one window, by the kind of fault each counts as. */
    private Map<String, FaultRule> installBackground() {
        FaultPlan p = settings.faults();
        Map<String, FaultRule> rules = new LinkedHashMap<>();
        if (p.lostReplyProbability() > 0) {
            rules.put("lost CAS replies",
                fabric.when().cas().single().probability(p.lostReplyProbability()).applyThenFail());
        }
        if (p.messageDropProbability() > 0) {
            rules.put("lost messages", fabric.when().messages().probability(p.messageDropProbability()).drop());
        }
        if (p.reorderProbability() > 0) {
            rules.put("reordered batches", fabric.when().batched().probability(p.reorderProbability()).reorder());
            rules.put("reordered messages", fabric.when().messages().probability(p.reorderProbability()).reorder());
        }
        if (p.delayProbability() > 0) {
            rules.put("delayed operations", fabric.when().oneSided().probability(p.delayProbability())
                .delay(0, p.maxDelayMicros(), TimeUnit.MICROSECONDS));
        }
        if (p.messageDelayProbability() > 0) {
            rules.put("delayed messages", fabric.when().messages().probability(p.messageDelayProbability())
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
                    held.addAndGet(hold.everHeld());
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
                    refused.addAndGet(cut.fired());
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
                held.addAndGet(hold.everHeld());
                hold.remove();
            }
            if (cut != null) {
                refused.addAndGet(cut.fired());
                cut.remove();
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
                count(failures, what, e);
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
                count(failures, "MIGRATE", e.getCause() == null ? e : e.getCause());
                failedAfter(f.k(), f.invoke());
            }
        }
    }

    /**
     * Every machine reads every key not already lost, the client threads sharing the keys, retrying what fails for
     * a while (a migration left in doubt by a cut settles in the background); a key still unreadable is lost.
     */
    private List<Operation> barrier(ConcurrentLinkedQueue<String> problems, Map<String, LongAdder> failures,
                                    List<Long> unreadable) throws InterruptedException {
        int threads = settings.clients();
        List<List<Operation>> reads = new ArrayList<>();
        List<ConcurrentLinkedQueue<Integer>> lostHere = new ArrayList<>();
        List<Thread> readers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int slice = t;
            List<Operation> mine = new ArrayList<>();
            ConcurrentLinkedQueue<Integer> mineLost = new ConcurrentLinkedQueue<>();
            reads.add(mine);
            lostHere.add(mineLost);
            Thread r = new Thread(() -> readSlice(slice, threads, mine, mineLost, problems, failures),
                "chaos-barrier-" + t);
            r.setDaemon(true);
            readers.add(r);
            r.start();
        }
        join(readers, problems);
        List<Operation> all = new ArrayList<>();
        reads.forEach(all::addAll);
        for (ConcurrentLinkedQueue<Integer> q : lostHere) {
            for (int k : q) {
                lost[k] = true;
                unreadable.add(keys[k]);
            }
        }
        unreadable.sort(null);
        return all;
    }

    /** The barrier's reads of every {@code threads}-th key from {@code slice}, on every machine. */
    private void readSlice(int slice, int threads, List<Operation> reads, ConcurrentLinkedQueue<Integer> lostKeys,
                           ConcurrentLinkedQueue<String> problems, Map<String, LongAdder> failures) {
        // The recorder of the client whose slot this thread takes (that client's thread has ended); the reads say
        // they are the barrier's.
        History.Recorder rec = recorders[slice];
        try {
            for (int k = slice; k < keys.length; k += threads) {
                if (lost[k]) {
                    continue;
                }
                long key = keys[k];
                long giveUp = System.nanoTime() + BARRIER_PATIENCE_NANOS;
                boolean keyLost = false;
                // Once one machine cannot read the key, the others are not asked: each could wait out a pending bit.
                for (int m = 0; m < cluster.machineCount() && !keyLost; m++) {
                    RuntimeException last = null;
                    int attempts = 0;
                    do {
                        attempts++;
                        long t0 = System.nanoTime();
                        try {
                            byte[] v = cluster.machine(m).get(key);
                            Operation op = Operation.get(BARRIER_CLIENT, key, v, t0, System.nanoTime());
                            rec.add(op);
                            reads.add(op);
                            last = null;
                        } catch (RuntimeException e) {
                            last = e;
                            count(failures, "barrier GET", e);
                            Thread.sleep(BARRIER_RETRY_MILLIS);
                        }
                    } while (last != null && System.nanoTime() < giveUp);
                    if (last != null) {
                        problems.add("once every fault was healed, machine " + m + " still could not read key " + key
                            + " after " + attempts + " attempt(s): " + last);
                        keyLost = true;
                    }
                }
                if (keyLost) {
                    lostKeys.add(k);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
