package io.pragh.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.fabric.fault.FaultFabric;
import io.pragh.fabric.fault.FaultRule;
import io.pragh.fabric.inprocess.InProcessFabric;
import io.pragh.linearizability.CheckReport;
import io.pragh.linearizability.LinearizabilityChecker;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * GET, PUT and edge APPEND on eight hot keys of four machines while MIGRATE moves them between machines all the
 * time; the recorded history must pass every rule of {@link HistoryChecker} (no stale read, no lost write or edge,
 * no foreign-key bytes) and be linearizable per key ({@link LinearizabilityChecker}'s search). Once with the default
 * leases, once with leases short enough that the GC frees and the allocator reuses value memory during the run.
 */
class MigrationHistoryTest {
    private static final int MACHINES = 4;
    private static final int VERTICES = 4;
    private static final int CLIENTS = 6;
    private static final int MAX_EDGES_PER_KEY = 400;
    private static final int PUT_PERCENT = 50;
    private static final long RUN_MILLIS = 3_000;
    /** What a run must hold to mean anything; the workload runs on past RUN_MILLIS until it does. */
    private static final int MIN_GETS = 1_000;
    private static final int MIN_PUTS = 500;
    private static final int MIN_APPENDS = 100;

    private static MigrationWorkload workload(EmbeddedCluster c) {
        return new MigrationWorkload(c, VERTICES, CLIENTS, MAX_EDGES_PER_KEY, PUT_PERCENT)
            .atLeast(MIN_GETS, MIN_PUTS, MIN_APPENDS);
    }

    private static EmbeddedCluster.Builder cluster() {
        return EmbeddedCluster.builder().machines(MACHINES).workersPerMachine(1).pinThreads(false)
            .keysPerMachine(1_000).cacheBytes(64 << 10).remoteLatencyNs(0).operationTimeoutMillis(10_000);
    }

    private static MigrationWorkload.Result run(EmbeddedCluster.Builder builder) throws InterruptedException {
        try (EmbeddedCluster c = builder.build()) {
            MigrationWorkload.Result r = workload(c).run(RUN_MILLIS);
            long waits = 0;
            for (int m = 0; m < MACHINES; m++) {
                waits += c.machine(m).store().values().backPressureWaits();
            }
            System.out.println("MigrationHistoryTest: " + waits + " writes waited for the reclaimer (back-pressure)");
            return r;
        }
    }

    private static void assertConsistent(MigrationWorkload.Result r) {
        System.out.println("MigrationHistoryTest: " + r.summary());
        assertEquals(List.of(), r.errors(), "operations failed during the run (" + r.summary() + ")");
        HistoryChecker.Report report = HistoryChecker.check(r.ops());
        List<String> violations = report.violations();
        assertTrue(violations.isEmpty(), violations.size() + " violations in a history of " + r.summary() + ":\n"
            + String.join("\n", violations.subList(0, Math.min(15, violations.size()))));
        // The same history searched for a linearization, key by key (new-old inversions included).
        CheckReport search = LinearizabilityChecker.forValues().check(r.operations());
        assertTrue(search.linearizable() && search.undecidedKeys().isEmpty(),
            search.describe(MigrationWorkload.FORMAT, 3));
        // Allowed by the store's contract (a regular register, see HistoryChecker) but worth knowing about.
        System.out.println("MigrationHistoryTest: " + report.inversions().size() + " new-old inversions during"
            + " in-flight PUTs" + (report.inversions().isEmpty() ? "" : ", e.g. " + report.inversions().get(0)));
        if (!r.outrun().isEmpty()) {
            System.out.println("MigrationHistoryTest: " + r.outrun().size() + " updates refused, e.g. "
                + r.outrun().get(0));
        }
        // A few updates outrun by a value that migrates every millisecond are check-and-forward's known limit;
        // many would mean forwarding itself is broken.
        long updates = r.count(History.Kind.PUT) + r.count(History.Kind.APPEND);
        assertTrue(r.outrun().size() * 100 <= updates, "more than 1% of updates were outrun by migrations: "
            + r.outrun().subList(0, Math.min(5, r.outrun().size())));
        // The run must have exercised what it claims to, or passing proves nothing.
        assertTrue(r.migrated() >= 100, "too few migrations to mean anything: " + r.summary());
        assertTrue(r.count(History.Kind.PUT) >= MIN_PUTS, "too few PUTs: " + r.summary());
        assertTrue(r.count(History.Kind.GET) >= MIN_GETS, "too few GETs: " + r.summary());
        assertTrue(r.count(History.Kind.APPEND) >= MIN_APPENDS, "too few APPENDs: " + r.summary());
    }

    /**
     * With the default 10 s reclaim lease, superseded records fill a 64 MiB region within the run on a fast machine:
     * writers then wait for the reclaimer (back-pressure) rather than fail, so the run lasts as long as the lease
     * whatever the machine's speed, and clients must be patient for as long as a writer may wait (the lease plus its
     * margin) and the requests queued behind it on the machine's one worker.
     */
    @Test
    void historyWithDefaultLeasesHasNoStaleReadNoLostWriteAndNoForeignBytes() throws InterruptedException {
        assertConsistent(run(cluster().valueBytesPerMachine(64L << 20).operationTimeoutMillis(60_000)));
    }

    /**
     * The same workload while one machine after another is cut off from the rest for 40 ms (a partition, in the
     * middle of whatever protocol step it is in). Operations that need the cut machine fail retryably; the history
     * must still hold, and once every machine is reachable again every machine must update and migrate every key:
     * a round cut between its CAS and its invalidation must not leave the key blocked or the migrator broken.
     */
    @Test
    void historyWithMachinesCutOffInTurnStaysConsistentAndLeavesNoKeyOrMigratorStuck() throws InterruptedException {
        MigrationWorkload.Result r;
        try (EmbeddedCluster c = cluster().valueBytesPerMachine(64L << 20).operationTimeoutMillis(1_000).build()) {
            r = workload(c).partitioning((InProcessFabric) c.fabric(), 40, 60).run(RUN_MILLIS);
        }
        assertConsistent(r);
        assertTrue(r.cuts() >= 10, "too few cuts to mean anything: " + r.summary());
        assertTrue(!r.refused().isEmpty(),
            "no operation met a cut machine, so the cuts tested nothing: " + r.summary());
        System.out.println("MigrationHistoryTest: refused while cut off, e.g. " + r.refused().get(0));
    }

    /**
     * The same workload while 1% of CASes and 0.2% of message sends fail at their issuer as on a timeout and still
     * land at their target up to 60 ms later, after other machines' operations on the same words (what a TCP frame
     * decoded after its issuer gave up does, or a verbs operation in the NIC's retries): a PUT's CAS of its home's
     * word from a migrated host, a MIGRATE's batched CAS of the home's word, its source invalidation and its
     * reclaim-ring post, forwarded updates and their ACKs. No write or edge may be lost, the history must be
     * linearizable, and every key must still update and migrate afterwards. The run lasts until at least
     * {@link #MIN_LATE_EFFECTS} of those late operations took effect, whatever the machine's speed.
     */
    @Test
    void historyWithCasesAndSendsLandingAfterTheirIssuerWasToldTheyFailedLosesNothing() throws InterruptedException {
        FaultFabric fabric = new FaultFabric(new InProcessFabric(MACHINES, 0), 17);
        MigrationWorkload.Result r;
        try (EmbeddedCluster c = cluster().valueBytesPerMachine(64L << 20).operationTimeoutMillis(1_000)
            .fabricPerMachine(i -> fabric).build()) {
            r = workload(c).alongside("history-late-landings", stopping -> landLate(fabric, stopping))
                .until(() -> fabric.lateOperationsTookEffect() >= MIN_LATE_EFFECTS).run(RUN_MILLIS);
        }
        System.out.println("MigrationHistoryTest: " + fabric.lateOperationsLanded() + " operations landed after their"
            + " issuer was told they failed, " + fabric.lateOperationsTookEffect() + " of them took effect");
        assertConsistent(r);
        assertTrue(fabric.lateOperationsTookEffect() >= MIN_LATE_EFFECTS, "too few late operations took effect to"
            + " mean anything: " + fabric.lateOperationsTookEffect() + " of " + fabric.lateOperationsLanded());
    }

    private static final long MIN_LATE_EFFECTS = 50;

    /** Late landings until the run stops; then waits until every one landed, before the run's final reads. */
    private static void landLate(FaultFabric fabric, BooleanSupplier stopping) throws InterruptedException {
        FaultRule cases = fabric.when().cas().probability(0.01).applyLate(0, 60, TimeUnit.MILLISECONDS);
        FaultRule sends = fabric.when().messages().probability(0.002).applyLate(0, 60, TimeUnit.MILLISECONDS);
        while (!stopping.getAsBoolean()) {
            Thread.sleep(5);
        }
        cases.remove();
        sends.remove();
        assertTrue(fabric.awaitLateOperations(30, TimeUnit.SECONDS),
            fabric.lateOperationsInFlight() + " late operations had not landed 30 s after the run");
    }

    /**
     * Leases of 20 and 40 ms: superseded records are freed and their slots handed out again (with the next
     * generation) many times a second, so stale addresses meet reused memory. The region has the other tests' room:
     * a small one (4 MiB here before) could be carved wholly into the small size classes of the run's first
     * milliseconds on a fast machine, before the lists grow, and then refuse the grown lists with almost all of it
     * free (a slot keeps its class; {@code ValueRegionTest} pins that limit and its message). That is the allocator's
     * sizing limit, not this test's subject; reuse happens at any region size, as free lists serve before the bump.
     */
    @Test
    void historyWithShortLeasesStaysConsistentWhileTheGcReusesValueMemory() throws InterruptedException {
        MigrationWorkload.Result r = run(cluster().valueBytesPerMachine(64L << 20).leases(20, 40));
        assertConsistent(r);
        assertTrue(r.freed() > 0, "the GC freed nothing, so no memory was reused: " + r.summary());
    }
}
