package io.pragh.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.chaos.ChaosValues;
import io.pragh.chaos.ChaosWorkload;
import io.pragh.chaos.FaultPlan;
import io.pragh.chaos.WindowedCheck;
import io.pragh.durability.SyncPolicy;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.fabric.fault.FaultFabric;
import io.pragh.fabric.inprocess.InProcessFabric;
import io.pragh.linearizability.CheckReport;
import io.pragh.linearizability.Operation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GET, PUT, APPEND, DELETE (and so re-insert) and MIGRATE from four clients through random machines of a four-machine
 * embedded cluster, with MIGRATEs always in flight, leases of 10 / 20 ms, the GC and a leak scan every 10 ms, under
 * the faults of a {@link FaultPlan} injected by the fault fabric; every window's history (barrier reads included)
 * is checked for per-key linearizability by search, and every key must be readable from every machine once the
 * faults are healed. The seed is printed; {@code -Dpragh.chaos.seed=N} reruns one.
 */
class ChaosHistoryTest {
    private static final long SEED = Long.getLong("pragh.chaos.seed", 11);
    private static final int MACHINES = 4;

    private static ChaosWorkload workload(FaultPlan plan, Path durableDir) {
        return new ChaosWorkload(ChaosWorkload.Settings.defaults().withSeed(SEED).withFaults(plan),
            () -> new InProcessFabric(MACHINES, 0), fabric -> {
                EmbeddedCluster.Builder b = Scenarios.cluster(fabric, MACHINES, 10, 20, 10)
                    .operationTimeoutMillis(2_000);
                if (durableDir != null) {
                    b.durability(durableDir, SyncPolicy.BATCH, 500);
                }
                return b.build();
            });
    }

    /**
     * A slow host gets through fewer operations per window. Windows are added (up to this long in all) until the run
     * has exercised what it claims to, so that the test means the same at any machine speed.
     */
    private static final long EXTRA_WINDOWS_MILLIS = 90_000;

    /**
     * Runs at least {@code windows} windows (restarting the cluster between them if asked), and more until enough
     * operations and at least {@code minFaults} faults happened; checks each.
     */
    private static List<ChaosWorkload.Window> runAndCheck(String name, ChaosWorkload w, int windows, long millis,
                                                          boolean restarts, long minFaults)
        throws InterruptedException {
        WindowedCheck check = new WindowedCheck();
        List<String> findings = new ArrayList<>();
        List<ChaosWorkload.Window> done = new ArrayList<>();
        long extraUntil = System.nanoTime() + EXTRA_WINDOWS_MILLIS * 1_000_000;
        try (w) {
            for (int i = 0; i < windows || (!enough(done, minFaults) && System.nanoTime() < extraUntil); i++) {
                if (restarts && i > 0) {
                    w.restart();
                }
                ChaosWorkload.Window win = w.runWindow(millis);
                CheckReport report = check.check(win);
                done.add(win);
                System.out.println(name + " (seed " + SEED + ") window " + i + ": " + win.summary() + "; failures "
                    + win.failures() + "; " + report.describe(ChaosValues.FORMAT, 2));
                win.problems().forEach(p -> findings.add("window " + win.index() + ": " + p));
                if (!win.problems().isEmpty()) {
                    System.out.println(name + " window " + i + " failures: " + win.failureExamples());
                }
                if (!report.linearizable() || !report.undecidedKeys().isEmpty()) {
                    findings.add("window " + win.index() + ": " + report.describe(ChaosValues.FORMAT, 2));
                }
            }
        }
        assertTrue(findings.isEmpty(), name + " (seed " + SEED + "):\n" + String.join("\n", findings));
        // The run must have exercised what it claims to, or passing proves nothing.
        assertTrue(enough(done, minFaults), name + ": too little happened to mean anything in " + done.size()
            + " windows: " + activity(done) + ", " + faults(done) + " faults (at least " + minFaults + " wanted)");
        return done;
    }

    private static boolean enough(List<ChaosWorkload.Window> done, long minFaults) {
        return count(done, Operation.Kind.GET) >= 500 && count(done, Operation.Kind.PUT) >= 200
            && count(done, Operation.Kind.APPEND) >= 200 && count(done, Operation.Kind.DELETE) >= 20
            && done.stream().mapToLong(ChaosWorkload.Window::migrations).sum() >= 50 && faults(done) >= minFaults;
    }

    private static long count(List<ChaosWorkload.Window> done, Operation.Kind kind) {
        return done.stream().mapToLong(x -> x.count(kind)).sum();
    }

    private static String activity(List<ChaosWorkload.Window> done) {
        return count(done, Operation.Kind.GET) + " GETs, " + count(done, Operation.Kind.PUT) + " PUTs, "
            + count(done, Operation.Kind.APPEND) + " APPENDs, " + count(done, Operation.Kind.DELETE) + " DELETEs, "
            + done.stream().mapToLong(ChaosWorkload.Window::migrations).sum() + " migrations";
    }

    private static long faults(List<ChaosWorkload.Window> windows) {
        return windows.stream().mapToLong(ChaosWorkload.Window::faultsInjected).sum();
    }

    @Test
    void historyWithoutFaultsIsLinearizable() throws InterruptedException {
        List<ChaosWorkload.Window> w = runAndCheck("no faults", workload(FaultPlan.none(), null), 2, 1_500, false, 0);
        assertEquals(0, faults(w));
    }

    /** Delayed and reordered one-sided operations, batches run out of order, late and overtaken messages. */
    @Test
    void historyUnderDelayedAndReorderedOperationsAndMessagesIsLinearizable() throws InterruptedException {
        FaultPlan plan = FaultPlan.all().withHolds(0, 0).withPartitions(0, 0).withLostReplies(0).withMessageDrops(0)
            .withLateLandings(0, 0);
        runAndCheck("delays and reorders", workload(plan, null), 3, 1_500, false, 101);
    }

    /**
     * CASes held for up to 60 ms, three times the reclaim lease: a MIGRATE's (batched) or a PUT's (single). Found the
     * leak scan freeing a held PUT's record (see {@link HeldPutCasVersusLeakScanTest}); a held MIGRATE CAS is the
     * ABA of {@link LateCasAbaTest}.
     */
    @Test
    void historyWithCasesHeldPastTheReclaimLeaseIsLinearizable() throws InterruptedException {
        FaultPlan plan = FaultPlan.none().withHolds(50, 60);
        runAndCheck("held CASes", workload(plan, null), 3, 1_500, false, 11);
    }

    /** One machine at a time cut off from the others for 40 ms, every 150 ms, in whatever protocol step it is. */
    @Test
    void historyWithMachinesCutOffInTurnIsLinearizable() throws InterruptedException {
        FaultPlan plan = FaultPlan.none().withPartitions(150, 40);
        runAndCheck("partitions", workload(plan, null), 3, 1_500, false, 11);
    }

    /** Single CASes that take effect but report a failure, and lost messages (their operations time out). */
    @Test
    void historyWithLostRepliesAndLostMessagesIsLinearizable() throws InterruptedException {
        FaultPlan plan = FaultPlan.none().withLostReplies(0.002).withMessageDrops(0.001);
        runAndCheck("lost replies and messages", workload(plan, null), 3, 1_500,
            false, 6);
    }

    /**
     * CASes and message sends that fail at their issuer, as on a timeout, and still take effect at their target up
     * to 60 ms later (three reclaim leases), after other machines' operations on the same words: what a TCP frame the
     * host decodes after its issuer gave up does (`AbandonedCasTest` in pragh-server), or a verbs operation in the
     * NIC's retries. Hits a PUT's CAS of its home's word from a migrated host (its issuer CASes again), a MIGRATE's
     * batched CAS of the home's word (in doubt), its invalidation of the source and its post to a reclaim ring, a
     * replica's invalidation, and every message (an update forwarded, an ACK, a PRUNE). Each window ends only once
     * every such operation landed, so its barrier reads see their effects.
     */
    @Test
    void historyWithCasesAndSendsLandingAfterTheirIssuerWasToldTheyFailedIsLinearizable()
        throws InterruptedException {
        FaultPlan plan = FaultPlan.none().withLateLandings(0.005, 60);
        ChaosWorkload w = workload(plan, null);
        runAndCheck("late landings", w, 3, 1_500, false, 30);
        FaultFabric fabric = w.fabric();
        System.out.println("late landings: " + fabric.lateOperationsLanded() + " landed after their issuer was told"
            + " they failed, " + fabric.lateOperationsTookEffect() + " of them took effect");
        assertEquals(0, fabric.lateOperationsInFlight());
    }

    /**
     * A durable cluster restarted (closed and built again on its directories) between windows, with keys deleted and
     * inserted again all the time, and light delays.
     */
    @Test
    void historyAcrossRestartsWithDeletesAndReinsertsIsLinearizable(@TempDir Path dir) throws InterruptedException {
        FaultPlan plan = FaultPlan.none().withDelays(0.01, 500);
        runAndCheck("restarts", workload(plan, dir), 4, 1_000, true, 0);
    }
}
