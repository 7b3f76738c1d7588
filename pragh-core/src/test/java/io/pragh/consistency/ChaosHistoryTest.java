package io.pragh.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.chaos.ChaosValues;
import io.pragh.chaos.ChaosWorkload;
import io.pragh.chaos.FaultPlan;
import io.pragh.chaos.WindowedCheck;
import io.pragh.cluster.EmbeddedCluster;
import io.pragh.durability.SyncPolicy;
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

    /** Runs {@code windows} windows (restarting the cluster between them if asked) and checks each. */
    private static List<ChaosWorkload.Window> runAndCheck(String name, ChaosWorkload w, int windows, long millis,
                                                          boolean restarts) throws InterruptedException {
        WindowedCheck check = new WindowedCheck();
        List<String> findings = new ArrayList<>();
        List<ChaosWorkload.Window> done = new ArrayList<>();
        try (w) {
            for (int i = 0; i < windows; i++) {
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
                if (restarts && i + 1 < windows) {
                    w.restart();
                }
            }
        }
        assertTrue(findings.isEmpty(), name + " (seed " + SEED + "):\n" + String.join("\n", findings));
        long gets = done.stream().mapToLong(x -> x.count(Operation.Kind.GET)).sum();
        long puts = done.stream().mapToLong(x -> x.count(Operation.Kind.PUT)).sum();
        long appends = done.stream().mapToLong(x -> x.count(Operation.Kind.APPEND)).sum();
        long deletes = done.stream().mapToLong(x -> x.count(Operation.Kind.DELETE)).sum();
        long migrations = done.stream().mapToLong(ChaosWorkload.Window::migrations).sum();
        // The run must have exercised what it claims to, or passing proves nothing.
        assertTrue(gets >= 500 && puts >= 200 && appends >= 200 && deletes >= 20 && migrations >= 50, name
            + ": too little happened to mean anything: " + gets + " GETs, " + puts + " PUTs, " + appends
            + " APPENDs, " + deletes + " DELETEs, " + migrations + " migrations");
        return done;
    }

    private static long faults(List<ChaosWorkload.Window> windows) {
        return windows.stream().mapToLong(ChaosWorkload.Window::faultsInjected).sum();
    }

    @Test
    void historyWithoutFaultsIsLinearizable() throws InterruptedException {
        List<ChaosWorkload.Window> w = runAndCheck("no faults", workload(FaultPlan.none(), null), 2, 1_500, false);
        assertEquals(0, faults(w));
    }

    /** Delayed and reordered one-sided operations, batches run out of order, late and overtaken messages. */
    @Test
    void historyUnderDelayedAndReorderedOperationsAndMessagesIsLinearizable() throws InterruptedException {
        FaultPlan plan = FaultPlan.all().withHolds(0, 0).withPartitions(0, 0).withLostReplies(0).withMessageDrops(0);
        List<ChaosWorkload.Window> w = runAndCheck("delays and reorders", workload(plan, null), 3, 1_500, false);
        assertTrue(faults(w) > 100, "few faults were injected: " + faults(w));
    }

    /**
     * CASes held for up to 60 ms, three times the reclaim lease: a MIGRATE's (batched) or a PUT's (single). Found the
     * leak scan freeing a held PUT's record (see {@link HeldPutCasVersusLeakScanTest}); a held MIGRATE CAS is the
     * ABA of {@link LateCasAbaTest}.
     */
    @Test
    void historyWithCasesHeldPastTheReclaimLeaseIsLinearizable() throws InterruptedException {
        FaultPlan plan = FaultPlan.none().withHolds(50, 60);
        List<ChaosWorkload.Window> w = runAndCheck("held CASes", workload(plan, null), 3, 1_500, false);
        assertTrue(faults(w) > 10, "few CASes were held: " + faults(w));
    }

    /** One machine at a time cut off from the others for 40 ms, every 150 ms, in whatever protocol step it is. */
    @Test
    void historyWithMachinesCutOffInTurnIsLinearizable() throws InterruptedException {
        FaultPlan plan = FaultPlan.none().withPartitions(150, 40);
        List<ChaosWorkload.Window> w = runAndCheck("partitions", workload(plan, null), 3, 1_500, false);
        assertTrue(faults(w) > 10, "the cuts refused little: " + faults(w));
    }

    /** Single CASes that take effect but report a failure, and lost messages (their operations time out). */
    @Test
    void historyWithLostRepliesAndLostMessagesIsLinearizable() throws InterruptedException {
        FaultPlan plan = FaultPlan.none().withLostReplies(0.002).withMessageDrops(0.001);
        List<ChaosWorkload.Window> w = runAndCheck("lost replies and messages", workload(plan, null), 3, 1_500,
            false);
        assertTrue(faults(w) > 5, "few replies or messages were lost: " + faults(w));
    }

    /**
     * A durable cluster restarted (closed and built again on its directories) between windows, with keys deleted and
     * inserted again all the time, and light delays.
     */
    @Test
    void historyAcrossRestartsWithDeletesAndReinsertsIsLinearizable(@TempDir Path dir) throws InterruptedException {
        FaultPlan plan = FaultPlan.none().withDelays(0.01, 500);
        runAndCheck("restarts", workload(plan, dir), 4, 1_000, true);
    }
}
