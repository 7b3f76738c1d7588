package io.pragh.consistency;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.chaos.ChaosValues;
import io.pragh.chaos.RecordingClient;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.Machine;
import io.pragh.fabric.Region;
import io.pragh.fabric.fault.FaultFabric;
import io.pragh.fabric.fault.HoldRule;
import io.pragh.fabric.inprocess.InProcessFabric;
import io.pragh.keys.KeyLayout;
import io.pragh.linearizability.CheckReport;
import io.pragh.linearizability.History;
import io.pragh.linearizability.LinearizabilityChecker;
import io.pragh.linearizability.Operation;
import io.pragh.migration.Migrator;
import io.pragh.store.ReplicaRegistry;
import io.pragh.store.Replicas;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * GET, PUT and APPEND from clients on random machines of a four-machine cluster, while a driver places read replicas
 * of the same few keys on random machines (REPLICATE) and another moves them (MIGRATE), under injected faults: every
 * history is checked for per-key linearizability by search. Replicas are read through the location cache, so a PUT
 * or APPEND at the value's host that left a replica usable would let a later GET on its holder return an older value:
 * the search finds that. Each run goes on until replicas were granted, read and invalidated by writes often enough
 * that the test means the same at any machine speed. The seed is printed; {@code -Dpragh.replica.seed=N} reruns one.
 */
class ReplicaHistoryTest {
    private static final long SEED = Long.getLong("pragh.replica.seed", 7);
    private static final int MACHINES = 4;
    private static final int KEYS = 4;
    private static final int CLIENTS = 4;
    private static final long MIN_MILLIS = 2_000;
    private static final long MAX_MILLIS = 60_000;
    /** Each run needs at least this many grants and invalidations of replicas by writes. */
    private static final long MIN_EVENTS = 200;

    /** Short leases: replicas and cache entries live a few ms, freed memory is reused within milliseconds. */
    @Test
    void replicasStayLinearizableWithShortLeasesAndAddressReuse() throws Exception {
        run("short leases", 10, 5, 5, 10, fabric -> fabric.when().oneSided().probability(0.05)
            .delay(0, 1, TimeUnit.MILLISECONDS));
    }

    /**
     * Long-lived replicas while single CASes on value regions (the invalidations of replicas among them) are held and
     * released later, one-sided operations and messages (requests, grants) are delayed, and some CASes take effect
     * with their reply lost (the host then waits out the replica's lease).
     */
    @Test
    void replicasStayLinearizableWithHeldInvalidationsDelaysAndLostReplies() throws Exception {
        run("held and delayed", 400, 20, 200, 0, fabric -> {
            fabric.when().oneSided().probability(0.05).delay(0, 2, TimeUnit.MILLISECONDS);
            fabric.when().messages().probability(0.2).delay(0, 3, TimeUnit.MILLISECONDS);
            fabric.when().cas().single().region(Region.VALUES).probability(0.01).applyThenFail();
        });
    }

    /**
     * CASes (a host's invalidations of replicas among them, and PUTs' and MIGRATEs') and messages (replica requests
     * and grants, forwarded updates) that fail at their issuer as on a timeout and land up to 40 ms later, four
     * replica leases: a host told an invalidation failed waits out the replica's lease, and the invalidation lands on
     * the holder afterwards, whatever the holder did with that memory meanwhile.
     */
    @Test
    void replicasStayLinearizableWhenOperationsLandAfterTheirIssuerWasToldTheyFailed() throws Exception {
        FaultFabric[] used = new FaultFabric[1];
        run("late landings", 10, 5, 10, 10, fabric -> {
            used[0] = fabric;
            fabric.when().cas().probability(0.02).applyLate(0, 40, TimeUnit.MILLISECONDS);
            fabric.when().messages().probability(0.005).applyLate(0, 40, TimeUnit.MILLISECONDS);
        });
        System.out.println("ReplicaHistoryTest late landings: " + used[0].lateOperationsLanded() + " landed after"
            + " their issuer was told they failed, " + used[0].lateOperationsTookEffect() + " of them took effect");
        assertTrue(used[0].lateOperationsTookEffect() >= 5, "too few late operations took effect to mean anything");
    }

    /**
     * Machines cut off from all others for a few ms at a time: a write whose replica's holder does not answer waits
     * out the replica's lease, and a holder cut off from a host keeps no replica past its lease.
     */
    @Test
    void replicasStayLinearizableWhenHoldersAndHostsAreCutOff() throws Exception {
        run("partitions", 100, 20, 50, 0, 5, fabric -> {
            Thread cutter = new Thread(() -> {
                SplittableRandom rnd = new SplittableRandom(SEED * 5);
                while (!Thread.currentThread().isInterrupted()) {
                    var cut = fabric.isolate(rnd.nextInt(MACHINES));
                    pause(rnd, 20);
                    cut.remove();
                    pause(rnd, 80);
                }
            }, "replica-test-cutter");
            cutter.setDaemon(true);
            cutter.start();
            CUTTERS.add(cutter);
        });
    }

    /** Replicas placed at their key's home (its value migrated away): the home's GETs then read them. */
    private static final LongAdder PLACED_AT_HOME = new LongAdder();

    private static final List<Thread> CUTTERS = new java.util.concurrent.CopyOnWriteArrayList<>();

    private static void run(String name, long cacheLease, long reclaimLease, long replicaLease, long leakScan,
                            Consumer<FaultFabric> faults) throws Exception {
        run(name, cacheLease, reclaimLease, replicaLease, leakScan, 0, faults);
    }

    private static void run(String name, long cacheLease, long reclaimLease, long replicaLease, long leakScan,
                            long minLeaseWaits, Consumer<FaultFabric> faults) throws Exception {
        FaultFabric fabric = new FaultFabric(new InProcessFabric(MACHINES, 0), SEED);
        PLACED_AT_HOME.reset();
        History history = new History();
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        long[] keys = new long[KEYS];
        for (int k = 0; k < KEYS; k++) {
            keys[k] = KeyLayout.key(k + 1, 0, KeyLayout.OUT);
        }
        try (EmbeddedCluster c = Scenarios.cluster(fabric, MACHINES, cacheLease, reclaimLease, leakScan)
            .replicas(1 << 20, replicaLease).build()) {
            RecordingClient init = new RecordingClient(history.recorder(CLIENTS + 2));
            for (long key : keys) {
                init.put(c.machine(0), key, ChaosValues.put(key, CLIENTS + 2, 0, 0));
            }
            faults.accept(fabric);
            Holder holder = new Holder(fabric);
            List<Thread> threads = new ArrayList<>();
            boolean[] stop = new boolean[1];
            for (int i = 0; i < CLIENTS; i++) {
                int id = i;
                threads.add(new Thread(() -> client(c, keys, history.recorder(id), id, stop, problems)));
            }
            threads.add(new Thread(() -> replicate(c, keys, history.recorder(CLIENTS), stop, problems)));
            threads.add(new Thread(() -> migrate(c, keys, history.recorder(CLIENTS + 1), stop, problems)));
            threads.add(new Thread(() -> holder.run(stop)));
            threads.forEach(Thread::start);
            long start = System.nanoTime();
            while (elapsedMillis(start) < MIN_MILLIS
                || ((!enough(c) || leaseWaits(c) < minLeaseWaits) && elapsedMillis(start) < MAX_MILLIS)) {
                Thread.sleep(50);
            }
            synchronized (stop) {
                stop[0] = true;
            }
            for (Thread t : CUTTERS) {
                t.interrupt();
                t.join(10_000);
            }
            CUTTERS.clear();
            fabric.clear(); // every rule off (a held op is released), so the clients can finish
            holder.releaseAll();
            for (Thread t : threads) {
                t.join(30_000);
            }
            String counts = counts(c);
            List<Operation> ops = history.drain();
            CheckReport report = LinearizabilityChecker.forValues().check(ops);
            System.out.println("ReplicaHistoryTest " + name + " (seed " + SEED + "): " + ops.size() + " operations, "
                + counts + ", " + holder.held + " CASes held; " + report.describe(ChaosValues.FORMAT, 2));
            assertTrue(problems.isEmpty(), name + ": " + problems);
            assertTrue(report.linearizable() && report.undecidedKeys().isEmpty(), name + " (seed " + SEED + "): "
                + report.describe(ChaosValues.FORMAT, 3));
            assertTrue(enough(c), name + ": replicas were not exercised enough to mean anything: " + counts);
            assertTrue(leaseWaits(c) >= minLeaseWaits, name + ": writes never waited out a lease: " + counts);
            assertTrue(PLACED_AT_HOME.sum() > 0, name + ": no replica was ever placed at its key's home: " + counts);
        }
    }

    private static boolean stopped(boolean[] stop) {
        synchronized (stop) {
            return stop[0];
        }
    }

    private static void client(EmbeddedCluster c, long[] keys, History.Recorder rec, int id, boolean[] stop,
                               ConcurrentLinkedQueue<String> problems) {
        RecordingClient client = new RecordingClient(rec);
        SplittableRandom rnd = new SplittableRandom(SEED * 31 + id);
        int seq = 0;
        while (!stopped(stop)) {
            long key = keys[rnd.nextInt(keys.length)];
            Machine m = c.machine(rnd.nextInt(MACHINES));
            int dice = rnd.nextInt(100);
            try {
                if (dice < 80) {
                    client.get(m, key);
                } else if (dice < 93) {
                    client.put(m, key, ChaosValues.put(key, id, ++seq, 24));
                } else {
                    client.append(m, key, ChaosValues.append(id, ++seq));
                }
            } catch (RuntimeException e) {
                if (!retryable(e)) {
                    problems.add("client " + id + ": " + e);
                }
            }
        }
    }

    /** Places replicas of random keys on random machines, as the policy would for keys read from several. */
    private static void replicate(EmbeddedCluster c, long[] keys, History.Recorder rec, boolean[] stop,
                                  ConcurrentLinkedQueue<String> problems) {
        SplittableRandom rnd = new SplittableRandom(SEED * 17);
        while (!stopped(stop)) {
            long key = keys[rnd.nextInt(keys.length)];
            int target = rnd.nextInt(MACHINES);
            long t0 = System.nanoTime();
            try {
                if (c.machine(target).store().replication().replicas().place(key, 1e9) && c.home(key) == target) {
                    PLACED_AT_HOME.increment(); // the home reads it instead of its own word's remote address
                }
                rec.replicate(key, target, t0, System.nanoTime());
            } catch (RuntimeException e) {
                rec.failed(Operation.Kind.REPLICATE, key, null, target, t0, e);
                if (!retryable(e)) {
                    problems.add("REPLICATE: " + e);
                }
            }
            pause(rnd, 2);
        }
    }

    private static void migrate(EmbeddedCluster c, long[] keys, History.Recorder rec, boolean[] stop,
                                ConcurrentLinkedQueue<String> problems) {
        RecordingClient client = new RecordingClient(rec);
        SplittableRandom rnd = new SplittableRandom(SEED * 13);
        while (!stopped(stop)) {
            try {
                Machine target = c.machine(rnd.nextInt(MACHINES));
                if (rnd.nextBoolean()) {
                    client.migrate(target, keys[rnd.nextInt(keys.length)]);
                } else {
                    // Every key to one machine at once: its migration thread takes them as one round, whose new
                    // records settle after one replica wait, the latest of their sources' (MigrationRound).
                    long t0 = System.nanoTime();
                    List<CompletableFuture<Migrator.Outcome>> all = new ArrayList<>();
                    for (long key : keys) {
                        all.add(target.migrateAsync(key));
                    }
                    for (int k = 0; k < keys.length; k++) {
                        client.awaitMigration(keys[k], target.id(), t0, all.get(k), 60_000);
                    }
                }
            } catch (RuntimeException e) {
                if (!retryable(e)) {
                    problems.add("MIGRATE: " + e);
                }
            }
            pause(rnd, 10);
        }
    }

    /** Holds one single CAS on a value region at a time for 0-5 ms: replica invalidations, headers' locks. */
    private static final class Holder {
        private final FaultFabric fabric;
        private volatile HoldRule rule;
        long held;

        Holder(FaultFabric fabric) {
            this.fabric = fabric;
        }

        void run(boolean[] stop) {
            SplittableRandom rnd = new SplittableRandom(SEED * 7);
            while (!stopped(stop)) {
                HoldRule h = fabric.when().cas().single().region(Region.VALUES).times(1).hold();
                rule = h;
                try {
                    if (h.awaitHeld(1, 20, TimeUnit.MILLISECONDS)) {
                        held++;
                        pause(rnd, 5);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } finally {
                    h.release();
                    h.remove();
                }
            }
        }

        void releaseAll() {
            HoldRule h = rule;
            if (h != null) {
                h.release();
            }
        }
    }

    private static boolean enough(EmbeddedCluster c) {
        long granted = 0;
        long invalidated = 0;
        for (int m = 0; m < MACHINES; m++) {
            ReplicaRegistry r = c.machine(m).store().replication().registry();
            granted += r.granted();
            invalidated += r.invalidated();
        }
        return granted >= MIN_EVENTS && invalidated >= MIN_EVENTS;
    }

    private static long leaseWaits(EmbeddedCluster c) {
        long n = 0;
        for (int m = 0; m < MACHINES; m++) {
            n += c.machine(m).store().replication().registry().leaseWaits();
        }
        return n;
    }

    private static String counts(EmbeddedCluster c) {
        long granted = 0;
        long refused = 0;
        long invalidated = 0;
        long leaseWaits = 0;
        long placed = 0;
        long expired = 0;
        for (int m = 0; m < MACHINES; m++) {
            ReplicaRegistry r = c.machine(m).store().replication().registry();
            Replicas h = c.machine(m).store().replication().replicas();
            granted += r.granted();
            refused += r.refused();
            invalidated += r.invalidated();
            leaseWaits += r.leaseWaits();
            placed += h.placed();
            expired += h.expired();
        }
        return "replicas placed " + placed + " (" + PLACED_AT_HOME.sum() + " at their key's home), granted " + granted
            + ", refused " + refused + ", invalidated by"
            + " writes " + invalidated + ", lease waits " + leaseWaits + ", expired " + expired;
    }

    private static boolean retryable(RuntimeException e) {
        String s = String.valueOf(e);
        return s.contains("retry") || s.contains("Retry") || s.contains("unreachable") || s.contains("Pending")
            || s.contains("pending") || s.contains("not acknowledged") || s.contains("timed out")
            || s.contains("Stale") || e instanceof io.pragh.fabric.FabricException
            || (e.getCause() instanceof RuntimeException cause && retryable(cause)); // an awaited MIGRATE's cause
    }

    private static void pause(SplittableRandom rnd, int maxMillis) {
        try {
            Thread.sleep(rnd.nextInt(maxMillis + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static long elapsedMillis(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }
}
