package io.pragh.consistency;

import io.pragh.LimitExceededException;
import io.pragh.PraghException;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.Machine;
import io.pragh.address.Address;
import io.pragh.fabric.FabricException;
import io.pragh.fabric.inprocess.InProcessFabric;
import io.pragh.graph.KHopTraversal;
import io.pragh.keys.KeyLayout;
import io.pragh.linearizability.Operation;
import io.pragh.memory.ChunkedRegion;
import io.pragh.migration.Migrator;
import io.pragh.store.MachineStore;
import io.pragh.store.Mutators;
import io.pragh.values.ValueRecord;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A concurrent run against a cluster that records its {@link History}: client threads issue GET, PUT and edge APPEND
 * on a small hot key set through random machines (so every machine's location cache holds addresses of every key),
 * while a driver thread keeps MIGRATE running to random machines, several machines at once. Each hot vertex has one
 * register key (its VERTEX record) and one adjacency key (its OUT list); the vertices are chosen so that each machine
 * is the home of one. The machines are an embedded cluster's or any others' ({@link Machines}: pragh-server's tests
 * run it over server nodes on the TCP fabric), and {@link #alongside} runs what disturbs the run (partitions, held
 * operations, restarts) on threads of its own. The history is checked by {@link HistoryChecker} ({@link Result#ops})
 * or for linearizability by search ({@link Result#operations}).
 *
 * <pre>{@code
 * MigrationWorkload.Result r = new MigrationWorkload(cluster, 4, 6, 400, 50).run(3_000);
 * HistoryChecker.Report report = HistoryChecker.check(r.ops());
 * CheckReport search = LinearizabilityChecker.forValues().check(r.operations());
 * }</pre>
 */
public final class MigrationWorkload {
    /**
     * The machines a run issues its operations at. {@link #machine} is asked anew for every operation, so a machine
     * that restarts during the run may be replaced (operations at a closed one fail, retryably).
     */
    public interface Machines {
        int count();

        /** The machine index of {@code key}'s home. */
        int home(long key);

        /** The machine {@code m} now. */
        Machine machine(int m);

        static Machines of(EmbeddedCluster cluster) {
            return new Machines() {
                @Override
                public int count() {
                    return cluster.machineCount();
                }

                @Override
                public int home(long key) {
                    return cluster.home(key);
                }

                @Override
                public Machine machine(int m) {
                    return cluster.machine(m);
                }
            };
        }
    }

    /** What runs beside the clients (see {@link #alongside}): until {@code stopping} says the run ends. */
    @FunctionalInterface
    public interface Disturbance {
        void run(BooleanSupplier stopping) throws InterruptedException;
    }

    /**
     * Self-describing values in a linearizability report: a register's value says which write made it, an
     * adjacency value how many edges it holds and its last.
     */
    public static final Operation.ValueFormat FORMAT = v -> {
        WrittenValue.Decoded d = WrittenValue.decode(v);
        if (d.problem() == null) {
            return WrittenValue.describe(d.id());
        }
        if (v.length % 8 == 0 && v.length > 0) {
            long last = new UnsafeBuffer(v).getLong(v.length - 8);
            return (v.length / 8) + " edges, last " + Long.toHexString(last);
        }
        return Operation.ValueFormat.HEX.describe(v);
    };

    /** Migrations the driver keeps in flight: one per machine's migration thread in the common case. */
    private static final int MIGRATIONS_IN_FLIGHT = 4;
    private static final int FINAL_READER = 1_000;
    private static final int SETTLER = 999;
    /**
     * How the update protocol refuses an update it forwarded {@code MAX_HOPS} times without catching its value: the
     * value migrated on faster than the forwards travelled (they queue behind delivery threads, which a loaded
     * two-core host starves for tens of ms). The update was not applied, so the history records it as failed.
     */
    static final String OUTRUN = "times without finding its value";

    private final Machines cluster;
    private final long[] registers;
    private final long[] adjacencies;
    private final long[] keys;
    private final int clients;
    private final int maxEdgesPerKey;
    private final int putPercent;
    private final AtomicInteger[] appendsStarted;
    private final History history = new History();
    private final ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> outrun = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> refused = new ConcurrentLinkedQueue<>();
    private volatile boolean stop;
    /** Set by {@link #partitioning}: the fabric whose machines a partitioner thread cuts off in turn. */
    private InProcessFabric partitioned;
    private long cutMillis;
    private long healedMillis;
    /** What {@link #alongside} added, by thread name; any makes retryable failures tolerated. */
    private final Map<String, Disturbance> disturbances = new LinkedHashMap<>();
    /** Failures a disturbance explains besides retryable ones ({@link #tolerating}). */
    private Predicate<Throwable> alsoTolerated = e -> false;
    /** Conditions the run waits for past its length ({@link #until}). */
    private final List<BooleanSupplier> until = new ArrayList<>();
    /** Cuts the run waits for past its length: a loaded host's partitioner, its sleeps overshooting, cuts fewer. */
    private static final long MIN_CUTS = 20;
    /** How long past its length a run may wait for {@link #MIN_CUTS} and {@link #atLeast}'s counts. */
    private static final long MAX_EXTRA_MILLIS = 60_000;
    /** Completed GETs, PUTs and APPENDs of the clients, by {@link #GETS}, {@link #PUTS}, {@link #APPENDS}. */
    private final AtomicLongArray completed = new AtomicLongArray(3);
    private final long[] atLeast = new long[3];
    private static final int GETS = 0;
    private static final int PUTS = 1;
    private static final int APPENDS = 2;
    /** Written by the partitioner thread only; volatile so that the run sees how many it made. */
    private volatile long cuts;

    /**
     * What a run did; {@code ops} is the whole history, final reads included.
     *
     * @param errors operations that failed
     * @param outrun updates refused because their value kept migrating away from them (see {@link #OUTRUN}): not
     *               applied, a liveness limit of check-and-forward rather than a consistency failure; not in errors
     * @param refused with {@link #alongside} (partitions, restarts): operations that failed retryably while a machine
     *               was cut off or down (they may or may not have taken effect, and the history says so); not in
     *               errors
     */
    public record Result(List<History.Op> ops, List<String> errors, List<String> outrun, List<String> refused,
                         long cuts, long migrated, long migrationsNotMoving, long freed, long elapsedMillis) {
        long count(History.Kind kind) {
            return ops.stream().filter(o -> o.kind() == kind).count();
        }

        /** Completed GETs, PUTs, APPENDs and MIGRATEs, by {@code "GET"}, {@code "PUT"}, ... */
        public long completed(String kind) {
            History.Kind k = History.Kind.valueOf(kind);
            return ops.stream().filter(o -> o.kind() == k && o.acknowledged()).count();
        }

        /**
         * The history as the linearizability checker takes it: a PUT's value and an APPEND's bytes as the run wrote
         * them, failed operations with an unknown outcome.
         */
        public List<Operation> operations() {
            List<Operation> out = new ArrayList<>(ops.size());
            for (History.Op o : ops) {
                Operation.Kind kind = Operation.Kind.valueOf(o.kind().name());
                byte[] input = switch (o.kind()) {
                    case PUT -> WrittenValue.encode(o.key(), o.writeId());
                    case APPEND -> KHopTraversal.encode(o.writeId());
                    default -> null;
                };
                int target = o.kind() == History.Kind.MIGRATE ? (int) o.writeId() : -1;
                out.add(o.acknowledged()
                    ? new Operation(o.thread(), o.key(), kind, o.invoke(), o.response(), input, o.read(), target, null)
                    : Operation.failed(o.thread(), kind, o.key(), input, target, o.invoke(), o.error()));
            }
            return out;
        }

        public String summary() {
            return count(History.Kind.GET) + " GETs, " + count(History.Kind.PUT) + " PUTs, "
                + count(History.Kind.APPEND) + " APPENDs (" + outrun.size() + " updates outrun by migrations), "
                + migrated + " migrations (" + migrationsNotMoving + " already local or absent), " + freed
                + " records freed by GC, " + cuts + " machines cut off (" + refused.size() + " operations refused"
                + " retryably), in " + elapsedMillis + " ms";
        }
    }

    /**
     * @param vertices       hot vertices (two keys each); at least one per machine for an even spread
     * @param clients        client threads
     * @param maxEdgesPerKey APPENDs per adjacency key, so that adjacency values stay small
     * @param putPercent     share of register operations that are PUTs (the rest are GETs)
     */
    MigrationWorkload(EmbeddedCluster cluster, int vertices, int clients, int maxEdgesPerKey, int putPercent) {
        this(Machines.of(cluster), vertices, clients, maxEdgesPerKey, putPercent);
    }

    /** Over any machines: see {@link #MigrationWorkload(EmbeddedCluster, int, int, int, int)}. */
    public MigrationWorkload(Machines cluster, int vertices, int clients, int maxEdgesPerKey, int putPercent) {
        this.cluster = cluster;
        this.clients = clients;
        this.maxEdgesPerKey = maxEdgesPerKey;
        this.putPercent = putPercent;
        this.registers = new long[vertices];
        this.adjacencies = new long[vertices];
        this.keys = new long[2 * vertices];
        this.appendsStarted = new AtomicInteger[vertices];
        long vid = 1;
        for (int i = 0; i < vertices; i++) {
            int home = i % cluster.count();
            while (cluster.home(KeyLayout.key(vid, 0, KeyLayout.VERTEX)) != home) {
                vid++;
            }
            registers[i] = KeyLayout.key(vid, 0, KeyLayout.VERTEX);
            adjacencies[i] = KeyLayout.key(vid, 0, KeyLayout.OUT);
            keys[2 * i] = registers[i];
            keys[2 * i + 1] = adjacencies[i];
            appendsStarted[i] = new AtomicInteger();
            vid++;
        }
    }

    /**
     * The run lasts past its length until the clients completed this many GETs, PUTs and APPENDs (for at most
     * {@link #MAX_EXTRA_MILLIS} more): on a loaded host a fixed length may hold too few to test anything.
     */
    public MigrationWorkload atLeast(long gets, long puts, long appends) {
        atLeast[GETS] = gets;
        atLeast[PUTS] = puts;
        atLeast[APPENDS] = appends;
        return this;
    }

    /**
     * Runs with a partitioner: one random machine at a time is cut off from every other for {@code cutMillis}, then
     * all are reachable for {@code healedMillis}. The run lasts past its length until the partitioner made
     * {@link #MIN_CUTS} cuts (for at most {@link #MAX_EXTRA_MILLIS} more), whatever the machine's speed; otherwise as
     * {@link #alongside}.
     */
    MigrationWorkload partitioning(InProcessFabric fabric, long cutMillis, long healedMillis) {
        this.partitioned = fabric;
        this.cutMillis = cutMillis;
        this.healedMillis = healedMillis;
        return alongside("history-partitions", stopping -> partitions()).until(() -> cuts >= MIN_CUTS);
    }

    /**
     * Runs {@code d} on a thread of its own (named {@code name}) from the clients' start until the run stops. With
     * anything alongside, operations may fail retryably (they count as refused, not as errors, and the history says
     * their outcome is unknown); once the run ends and the disturbances stopped, every machine must update and
     * migrate every key (no key or migrator left stuck) before the final reads.
     */
    public MigrationWorkload alongside(String name, Disturbance d) {
        disturbances.put(name, d);
        return this;
    }

    /**
     * Failures that the disturbances explain besides retryable ones (such as the "closed" of an operation in flight
     * at a machine that crashed): refused, with an unknown outcome, not errors.
     */
    public MigrationWorkload tolerating(Predicate<Throwable> explained) {
        alsoTolerated = explained;
        return this;
    }

    /** The run lasts past its length until {@code condition} holds too (for at most {@link #MAX_EXTRA_MILLIS} more). */
    public MigrationWorkload until(BooleanSupplier condition) {
        until.add(condition);
        return this;
    }

    /** The hot keys: each vertex's register, then its adjacency list. */
    public long[] keys() {
        return keys.clone();
    }

    /** Whether the run is ending: a {@link Disturbance} stops when this says so. */
    private boolean stopping() {
        return stop;
    }

    public Result run(long millis) throws InterruptedException {
        long started = System.nanoTime();
        History.Recorder setup = history.recorder(0);
        for (long key : registers) {
            long id = WrittenValue.id(0, (int) KeyLayout.vid(key));
            long t0 = System.nanoTime();
            cluster.machine(cluster.home(key)).put(key, WrittenValue.encode(key, id));
            setup.put(key, id, t0, System.nanoTime());
        }
        List<Thread> threads = new ArrayList<>();
        for (int c = 1; c <= clients; c++) {
            int client = c;
            threads.add(new Thread(() -> client(client), "history-client-" + c));
        }
        long[] migrationCounts = new long[2];
        threads.add(new Thread(() -> migrations(migrationCounts), "history-migrations"));
        for (var d : disturbances.entrySet()) {
            threads.add(new Thread(() -> {
                try {
                    d.getValue().run(this::stopping);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (RuntimeException | AssertionError e) {
                    errors.add(d.getKey() + " failed: " + e);
                }
            }, d.getKey()));
        }
        for (Thread t : threads) {
            t.setDaemon(true);
            t.start();
        }
        Thread.sleep(millis);
        long extraDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MAX_EXTRA_MILLIS);
        while ((!until.stream().allMatch(BooleanSupplier::getAsBoolean) || tooFewCompleted())
            && System.nanoTime() < extraDeadline) {
            Thread.sleep(10);
        }
        stop = true;
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(30));
            if (t.isAlive()) {
                errors.add(t.getName() + " did not stop within 30 s of the end of the run");
            }
        }
        if (!disturbances.isEmpty()) {
            everyKeyStillMoves();
        }
        finalReads();
        long freed = 0;
        for (int m = 0; m < cluster.count(); m++) {
            freed += cluster.machine(m).store().reclaimer().freed();
        }
        return new Result(history.ops(), new ArrayList<>(errors), new ArrayList<>(outrun), new ArrayList<>(refused),
            cuts, migrationCounts[0],
            migrationCounts[1], freed,
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }

    private boolean tooFewCompleted() {
        for (int kind = 0; kind < atLeast.length; kind++) {
            if (completed.get(kind) < atLeast[kind]) {
                return true;
            }
        }
        return false;
    }

    private void client(int client) {
        History.Recorder rec = history.recorder(client);
        SplittableRandom rnd = new SplittableRandom(client * 7919L);
        int seq = 0;
        int edgeSeq = 0;
        while (!stop) {
            Machine m = cluster.machine(rnd.nextInt(cluster.count()));
            int v = rnd.nextInt(registers.length);
            if (rnd.nextBoolean()) {
                long key = registers[v];
                if (rnd.nextInt(100) < putPercent) {
                    put(rec, m, key, WrittenValue.id(client, ++seq));
                } else {
                    get(rec, m, key);
                }
            } else {
                long key = adjacencies[v];
                if (rnd.nextInt(100) < 40 && appendsStarted[v].incrementAndGet() <= maxEdgesPerKey) {
                    append(rec, m, key, ((long) client << 32) | ++edgeSeq);
                } else {
                    get(rec, m, key);
                }
            }
        }
    }

    private void put(History.Recorder rec, Machine m, long key, long id) {
        byte[] value = WrittenValue.encode(key, id);
        long t0 = System.nanoTime();
        try {
            m.put(key, value);
            rec.put(key, id, t0, System.nanoTime());
            completed.incrementAndGet(PUTS);
        } catch (RuntimeException e) {
            rec.failed(key, History.Kind.PUT, id, t0, e);
            failed("PUT " + WrittenValue.describe(id) + " of key " + key + " on machine " + m.id() + ": " + e, e);
        }
    }

    private void append(History.Recorder rec, Machine m, long key, long edge) {
        byte[] arg = KHopTraversal.encode(edge);
        long t0 = System.nanoTime();
        try {
            m.update(key, Mutators.APPEND, arg);
            rec.append(key, edge, t0, System.nanoTime());
            completed.incrementAndGet(APPENDS);
        } catch (RuntimeException e) {
            rec.failed(key, History.Kind.APPEND, edge, t0, e);
            failed("APPEND " + Long.toHexString(edge) + " to key " + key + " on machine " + m.id() + ": " + e, e);
        }
    }

    private void failed(String what, RuntimeException e) {
        (what.contains(OUTRUN) ? outrun : tolerated(e) ? refused : errors).add(what);
    }

    /** With disturbances, a retryable failure is the store's answer to a machine it cannot reach. */
    private boolean tolerated(Throwable e) {
        while ((e instanceof ExecutionException || e instanceof CompletionException) && e.getCause() != null) {
            e = e.getCause();
        }
        if (disturbances.isEmpty()) {
            return false;
        }
        if (alsoTolerated.test(e)) {
            return true;
        }
        return e instanceof FabricException f ? f.retryable()
            : e instanceof PraghException && !(e instanceof LimitExceededException);
    }

    /** Cuts one random machine off at a time until the run stops; leaves every machine reachable. */
    private void partitions() {
        SplittableRandom rnd = new SplittableRandom(99);
        try {
            while (!stop) {
                int m = rnd.nextInt(cluster.count());
                partitioned.setReachable(m, false);
                cuts++; // single writer: a volatile increment is not lost
                Thread.sleep(cutMillis);
                partitioned.setReachable(m, true);
                Thread.sleep(healedMillis);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            for (int m = 0; m < cluster.count(); m++) {
                partitioned.setReachable(m, true);
            }
        }
    }

    /**
     * After the disturbances ended (partitions healed): every machine updates every key and migrates it to itself,
     * retrying retryable failures for a while. A key whose updates keep failing, or a migrator that keeps refusing,
     * was left stuck by a cut or a restart.
     */
    private void everyKeyStillMoves() {
        History.Recorder rec = history.recorder(SETTLER);
        AtomicInteger seq = new AtomicInteger();
        for (int m = 0; m < cluster.count(); m++) {
            Machine machine = cluster.machine(m);
            for (int v = 0; v < registers.length; v++) {
                long key = registers[v];
                untilDone(key, "PUT of key " + key + " on machine " + m, () -> {
                    long id = WrittenValue.id(SETTLER, seq.incrementAndGet()); // every attempt is a write of its own
                    long t0 = System.nanoTime();
                    try {
                        machine.put(key, WrittenValue.encode(key, id));
                    } catch (RuntimeException e) {
                        rec.failed(key, History.Kind.PUT, id, t0, e);
                        throw e;
                    }
                    rec.put(key, id, t0, System.nanoTime());
                });
            }
            for (long key : keys) {
                untilDone(key, "MIGRATE of key " + key + " to machine " + m, () -> {
                    long t0 = System.nanoTime();
                    machine.migrate(key);
                    rec.migrate(key, machine.id(), t0, System.nanoTime());
                });
            }
        }
    }

    /** Where a key's home word points and what the record there holds: what a stuck key's report needs. */
    private String describe(long key) {
        MachineStore home = cluster.machine(cluster.home(key)).store();
        long slot = home.keys().find(key);
        if (slot < 0) {
            return "home " + home.id() + " has no slot for the key";
        }
        long address = home.keys().address(slot);
        int host = Address.host(address, home.id());
        long offset = Address.byteOffset(address);
        ChunkedRegion values = cluster.machine(host).store().values().region();
        return "home " + home.id() + " names machine " + host + " offset " + offset + " (" + Address.sizeUnits(address)
            + " units), whose header is 0x" + Long.toHexString(values.getLongVolatile(offset)) + " and key word "
            + values.getLong(offset + ValueRecord.KEY_OFFSET);
    }

    private void untilDone(long key, String what, Runnable op) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                op.run();
                return;
            } catch (RuntimeException e) {
                if (!tolerated(e) || System.nanoTime() > deadline) {
                    errors.add("after the partitions healed, " + what + " still fails: " + e + "; " + describe(key));
                    return;
                }
            }
        }
    }

    private void get(History.Recorder rec, Machine m, long key) {
        long t0 = System.nanoTime();
        try {
            byte[] v = m.get(key);
            rec.get(key, t0, System.nanoTime(), v);
            completed.incrementAndGet(GETS);
        } catch (RuntimeException e) {
            rec.failed(key, History.Kind.GET, 0, t0, e);
            failed("GET of key " + key + " on machine " + m.id() + ": " + e, e);
        }
    }

    /** Keeps several MIGRATEs in flight on random machines until the run stops; counts what they did. */
    private void migrations(long[] counts) {
        History.Recorder rec = history.recorder(clients + 1);
        SplittableRandom rnd = new SplittableRandom(42);
        record InFlight(long key, int target, long invoke, CompletableFuture<Migrator.Outcome> done) {
        }
        ArrayDeque<InFlight> inFlight = new ArrayDeque<>();
        while (!stop || !inFlight.isEmpty()) {
            if (!stop) {
                long key = keys[rnd.nextInt(keys.length)];
                int target = rnd.nextInt(cluster.count());
                long t0 = System.nanoTime();
                CompletableFuture<Migrator.Outcome> f;
                try {
                    f = cluster.machine(target).migrateAsync(key);
                } catch (RuntimeException e) { // a machine closed by a restart refuses at once
                    f = CompletableFuture.failedFuture(e);
                }
                inFlight.add(new InFlight(key, target, t0, f));
            }
            if (inFlight.size() >= MIGRATIONS_IN_FLIGHT || stop) {
                InFlight f = inFlight.poll();
                try {
                    Migrator.Outcome o = f.done().get(30, TimeUnit.SECONDS);
                    rec.migrate(f.key(), f.target(), f.invoke(), System.nanoTime());
                    counts[o == Migrator.Outcome.MIGRATED ? 0 : 1]++;
                } catch (Exception e) {
                    rec.failed(f.key(), History.Kind.MIGRATE, f.target(), f.invoke(), e);
                    (tolerated(e) ? refused : errors).add("MIGRATE of key " + f.key() + " to machine " + f.target()
                        + ": " + e);
                }
            }
        }
    }

    /**
     * After the run: every machine reads every key, once nothing else runs (the final state). Faults are healed by
     * then, so a read that fails is an error whatever the disturbances were: a key no machine can read is lost.
     */
    private void finalReads() {
        for (int m = 0; m < cluster.count(); m++) {
            History.Recorder rec = history.recorder(FINAL_READER + m);
            Machine machine = cluster.machine(m);
            for (long key : keys) {
                long t0 = System.nanoTime();
                try {
                    byte[] v = machine.get(key);
                    rec.get(key, t0, System.nanoTime(), v);
                } catch (RuntimeException e) {
                    rec.failed(key, History.Kind.GET, 0, t0, e);
                    errors.add("final GET of key " + key + " on machine " + m + ": " + e + "; " + describe(key));
                }
            }
        }
    }
}
