package io.pragh.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.keys.KeyLayout;
import io.pragh.keys.Placement;
import io.pragh.monitor.KeyRate;
import io.pragh.monitor.MonitorReport;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CoordinatorTest {
    private final Placement placement = Placement.hashed(4);
    private final long key = keyHomedAt(0);

    private long keyHomedAt(int home) {
        for (long vid = 1; ; vid++) {
            long k = KeyLayout.key(vid, 0, KeyLayout.OUT);
            if (placement.home(k) == home) {
                return k;
            }
        }
    }

    private Coordinator coordinator(Mechanism mechanism) {
        return new Coordinator(4, placement, CoordinatorConfig.defaults().withMechanism(mechanism));
    }

    /** One periodic report per machine; {@code rates[m]} NaN for "machine m did not report the key". */
    private List<MonitorReport> interval(int host, boolean homeTracked, double... rates) {
        List<MonitorReport> out = new ArrayList<>();
        for (int m = 0; m < 4; m++) {
            List<KeyRate> keys = new ArrayList<>();
            boolean tracked = m == placement.home(key) && homeTracked;
            if (!Double.isNaN(rates[m]) || tracked) {
                keys.add(new KeyRate(key, host, Double.isNaN(rates[m]) ? 0 : rates[m], tracked));
            }
            out.add(new MonitorReport(m, false, keys));
        }
        return out;
    }

    private static final double NO = Double.NaN;

    @Test
    void eagerApprovesAtOnceAndHasTheHomeTrackTheKey() {
        Coordinator c = coordinator(Mechanism.EAGER);
        Decisions d = c.endInterval(interval(0, false, NO, 200, 20, NO));
        assertEquals(List.of(new Decisions.Approval(key, 0, 1, 200, Double.NaN)), d.approvals());
        assertEquals(List.of(new Decisions.Track(key, 0)), d.track());
        assertEquals(1, c.latestTarget(key));
        assertEquals(1, c.hostOf(key));
    }

    @Test
    void deferredMeasuresTheHomeForAnIntervalThenApprovesWhenTheApplicantWinsByTheMargin() {
        Coordinator c = coordinator(Mechanism.DEFERRED);
        Decisions first = c.endInterval(interval(0, false, NO, 200, NO, NO));
        assertTrue(first.approvals().isEmpty(), "deferred never approves without the host's figure");
        assertEquals(List.of(new Decisions.Track(key, 0)), first.track());
        assertEquals(1, c.pendingKeys());
        Decisions second = c.endInterval(interval(0, true, 100, 200, NO, NO));
        assertEquals(1, second.approvals().size());
        assertEquals(1, second.approvals().get(0).target());
        assertEquals(100, second.approvals().get(0).sourceRate());
        assertEquals(0, c.pendingKeys());
    }

    @Test
    void deferredKeepsTheValueHomeWhenTheHomeUsesItAlmostAsMuch() {
        Coordinator c = coordinator(Mechanism.DEFERRED);
        c.endInterval(interval(0, false, NO, 200, NO, NO));
        Decisions second = c.endInterval(interval(0, true, 150, 200, NO, NO));
        assertTrue(second.approvals().isEmpty(), "200 is not 50% more than 150");
        assertEquals(List.of(new Decisions.Track(key, 0)), second.untrack(), "the home stops counting");
        assertEquals(-1, c.latestTarget(key));
    }

    @Test
    void aKeyKeptInPlaceForItsReadReplicasIsNeverApproved() {
        Coordinator c = coordinator(Mechanism.EAGER);
        c.keepInPlace(key);
        assertTrue(c.endInterval(interval(0, false, NO, 200, 20, NO)).approvals().isEmpty(),
            "a replicated value stays put: its readers have copies, and moving it stalls its GETs a replica lease");
        assertEquals(-1, c.latestTarget(key));
    }

    @Test
    void aKeyKeptInPlaceIsLetGoOnceThePolicyStopsKeepingItSoTheSetStaysBounded() {
        Coordinator c = coordinator(Mechanism.EAGER);
        c.keepInPlace(key);
        for (int i = 0; i < Coordinator.KEEP_INTERVALS - 1; i++) {
            assertTrue(c.endInterval(List.of()).isEmpty());
        }
        assertEquals(1, c.keptKeys(), "kept for its intervals");
        c.keepInPlace(key); // its replicas are still read: kept again, through the next KEEP_INTERVALS interval ends
        for (int i = 0; i < Coordinator.KEEP_INTERVALS; i++) {
            assertTrue(c.endInterval(interval(0, false, NO, 200, 20, NO)).approvals().isEmpty(), "still kept");
        }
        assertEquals(1, c.endInterval(interval(0, false, NO, 200, 20, NO)).approvals().size(),
            "not kept again for its intervals: forgotten, and movable like any key");
        assertEquals(0, c.keptKeys());
    }

    @Test
    void aKeyTwoMachinesWantAboutEquallyStaysWhereItIs() {
        Coordinator c = coordinator(Mechanism.EAGER);
        assertTrue(c.endInterval(interval(0, false, NO, 200, 180, NO)).isEmpty());
        assertTrue(c.endInterval(interval(0, false, NO, 200, 140, NO)).isEmpty(), "200 <= 1.5 x 140");
        assertEquals(1, c.endInterval(interval(0, false, NO, 200, 120, NO)).approvals().size());
    }

    @Test
    void ratesBelowTheMinimumAreNotWorthAMigration() {
        Coordinator c = new Coordinator(4, placement, CoordinatorConfig.defaults().withMinRate(50));
        assertTrue(c.endInterval(interval(0, false, NO, 49, NO, NO)).isEmpty());
    }

    @Test
    void aValueComesBackHomeWhenTheHomeWinsLaterButNotDuringTheCooldown() {
        Coordinator c = coordinator(Mechanism.EAGER);
        c.endInterval(interval(0, false, NO, 200, NO, NO));
        // The value is on machine 1 now; machine 1's cache counts it, the home counts it on request.
        Decisions cooling = c.endInterval(interval(1, true, 400, 20, NO, NO));
        assertTrue(cooling.approvals().isEmpty(), "the interval after an approval is its cooldown");
        Decisions back = c.endInterval(interval(1, true, 400, 20, NO, NO));
        assertEquals(List.of(new Decisions.Approval(key, 1, 0, 400, 20)), back.approvals());
        assertTrue(back.untrack().isEmpty(), "home again, the home keeps counting: it proved a reader");
        assertEquals(0, c.hostOf(key));
    }

    /**
     * Eager approves against a home that does not count its own reads; once a value came back because the home read
     * it more, a lighter reader applying again is weighed against the home's count, not approved blind (which moved
     * values away from their main reader every other interval).
     */
    @Test
    void aValueBackHomeStaysThereWhenALighterReaderAppliesAgain() {
        Coordinator c = coordinator(Mechanism.EAGER);
        c.endInterval(interval(0, false, NO, 200, NO, NO));
        c.endInterval(interval(1, true, 400, 20, NO, NO));
        assertEquals(0, c.endInterval(interval(1, true, 400, 20, NO, NO)).approvals().get(0).target());
        c.endInterval(interval(0, true, 400, 30, NO, NO)); // cooldown
        Decisions again = c.endInterval(interval(0, true, 400, 30, NO, NO));
        assertTrue(again.approvals().isEmpty(), "machine 1 reads it at 30/s, the home at 400/s");
        assertEquals(0, c.hostOf(key));
    }

    /**
     * An instant report arrives before the host has reported anything this interval: the host's rate is unknown, not
     * zero, so the value stays; the interval's end, with every report in, decides.
     */
    @Test
    void anInstantReportDoesNotTakeAValueFromAHostThatHasNotReportedYet() {
        Coordinator c = coordinator(Mechanism.EAGER);
        c.endInterval(interval(0, false, NO, 2_000, NO, NO));
        c.endInterval(interval(1, true, 0, 2_000, NO, NO)); // cooldown
        Decisions instant = c.onInstantReport(new MonitorReport(2, true, List.of(new KeyRate(key, 1, 150, false))));
        assertTrue(instant.approvals().isEmpty(), "machine 1 holds the value and reads it at 2,000/s");
        assertTrue(c.endInterval(interval(1, true, 0, 2_000, 150, NO)).approvals().isEmpty());
        assertEquals(1, c.hostOf(key));
        Decisions moved = c.endInterval(interval(1, true, 0, 20, 150, NO));
        assertEquals(List.of(new Decisions.Approval(key, 1, 2, 150, 20)), moved.approvals(),
            "at the interval's end a host's rate is known, and machine 2 wins by the margin");
    }

    /** Every machine's empty periodic report, each saying its instant rate for the interval that starts. */
    private static List<MonitorReport> quietInterval(double instantRate) {
        List<MonitorReport> out = new ArrayList<>();
        for (int m = 0; m < 4; m++) {
            out.add(new MonitorReport(m, false, List.of(), instantRate));
        }
        return out;
    }

    private MonitorReport instant(int machine, double rate, double instantRate) {
        return new MonitorReport(machine, true, List.of(new KeyRate(key, 0, rate, false)), instantRate);
    }

    /**
     * The first machine to report a key instantly is not handed it while the others may read it about as often: a
     * machine that has not reported it may still read it at up to its instant rate (30/s here), so 40/s does not win
     * by the margin; 50/s does.
     */
    @Test
    void anInstantReportDoesNotHandAKeyToItsFirstReporterWhileAnotherMachineMayReadItAsOften() {
        Coordinator c = coordinator(Mechanism.EAGER);
        c.endInterval(quietInterval(30));
        assertTrue(c.onInstantReport(instant(1, 40, 30)).approvals().isEmpty(),
            "machines 2 and 3 may read it at up to 30/s without having reported it: 40 is not 50% more");
        Decisions d = c.onInstantReport(instant(1, 50, 30));
        assertEquals(List.of(new Decisions.Approval(key, 0, 1, 50, Double.NaN)), d.approvals(),
            "50/s beats every machine that has not reported it by the margin");
    }

    /** A machine that read the key in the previous interval is weighed at that rate until it reports in this one. */
    @Test
    void anInstantDecisionWeighsAMachineThatHasNotReportedYetAtItsRateInThePreviousInterval() {
        Coordinator c = coordinator(Mechanism.EAGER);
        assertTrue(c.endInterval(interval(0, false, NO, 100, 90, NO)).approvals().isEmpty(), "100 and 90: about equal");
        assertTrue(c.onInstantReport(instant(1, 120, 10)).approvals().isEmpty(),
            "machine 2 read it at 90/s last interval and has not reported yet: 120 is not 50% more");
        assertEquals(List.of(new Decisions.Approval(key, 0, 1, 120, Double.NaN)),
            c.onInstantReport(instant(2, 60, 10)).approvals(),
            "machine 2 reports 60/s now: machine 1's 120 wins by the margin");
    }

    /**
     * Two machines read a key about equally and report it in the same poll: decided together, neither gets it; decided
     * one report at a time, the first would, as the second's rate was not known yet.
     */
    @Test
    void theInstantReportsOfOnePollAreWeighedTogether() {
        Coordinator together = coordinator(Mechanism.EAGER);
        together.endInterval(quietInterval(10));
        assertTrue(together.onInstantReports(List.of(instant(1, 40, 10), instant(2, 35, 10))).approvals().isEmpty());
        Coordinator oneByOne = coordinator(Mechanism.EAGER);
        oneByOne.endInterval(quietInterval(10));
        assertEquals(1, oneByOne.onInstantReport(instant(1, 40, 10)).approvals().size(),
            "alone in its poll, 40/s beats the 10/s any other machine may read it at");
        Coordinator lighter = coordinator(Mechanism.EAGER);
        lighter.endInterval(quietInterval(10));
        Decisions d = lighter.onInstantReports(List.of(instant(2, 12, 10), instant(1, 40, 10)));
        assertEquals(List.of(new Decisions.Approval(key, 0, 1, 40, Double.NaN)), d.approvals(),
            "reported second, the heavier reader still wins over a light one");
        assertThrows(IllegalArgumentException.class,
            () -> lighter.onInstantReports(List.of(new MonitorReport(1, false, List.of()))));
    }

    @Test
    void aSecondMigrationMovesTheValueOnWhenAnotherMachineWinsByTheMargin() {
        Coordinator c = new Coordinator(4, placement, CoordinatorConfig.defaults().withCooldownIntervals(0));
        c.endInterval(interval(0, false, NO, 200, NO, NO));
        Decisions d = c.endInterval(interval(1, true, 0, 100, 400, NO));
        assertEquals(List.of(new Decisions.Approval(key, 1, 2, 400, 100)), d.approvals());
        assertTrue(d.track().isEmpty() && d.untrack().isEmpty(), "the home keeps counting: the value is still away");
    }

    @Test
    void instantReportsAreDecidedAtOnceAndNotAgainAtTheIntervalEnd() {
        Coordinator c = coordinator(Mechanism.EAGER);
        MonitorReport instant = new MonitorReport(3, true, List.of(new KeyRate(key, 0, 500, false)));
        Decisions d = c.onInstantReport(instant);
        assertEquals(3, d.approvals().get(0).target());
        assertTrue(c.endInterval(interval(3, true, NO, NO, NO, 500)).approvals().isEmpty());
        assertEquals(1, c.approvals());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> c.onInstantReport(new MonitorReport(3, false, List.of())));
        assertTrue(e.getMessage().contains("endInterval"), e.getMessage());
    }

    /**
     * A value the previous coordinator moved to machine 2, whose reader there is hottest, with machine 1 reading it
     * less. A coordinator that took over blind believes the value is at its home and approves moving it "from" the
     * home to machine 2, where it already is (a stale source); seeded from the durable record it weighs machine 1
     * against the real host and approves nothing.
     */
    @Test
    void aCoordinatorSeededWithRecordedTargetsDoesNotApproveFromAStaleHost() {
        Coordinator blind = coordinator(Mechanism.EAGER);
        Decisions wrong = blind.endInterval(interval(2, false, NO, 40, 200, NO));
        assertEquals(List.of(new Decisions.Approval(key, 0, 2, 200, Double.NaN)), wrong.approvals(),
            "without the record the source is taken to be the home");

        Coordinator seeded = coordinator(Mechanism.EAGER);
        Decisions seeding = seeded.seedHost(key, 2);
        assertEquals(List.of(new Decisions.Track(key, 0)), seeding.track(), "the home counts so the value can return");
        assertEquals(2, seeded.hostOf(key));
        assertEquals(Decisions.NONE, seeded.seedHost(key, 2), "seeding twice asks nothing more");
        Decisions d = seeded.endInterval(interval(2, false, NO, 40, 200, NO));
        assertTrue(d.approvals().isEmpty(), "machine 1 does not beat the real host: " + d.approvals());
        Decisions later = seeded.endInterval(interval(2, false, NO, 400, 200, NO));
        assertEquals(List.of(new Decisions.Approval(key, 2, 1, 400, 200)), later.approvals(),
            "a real winner moves it from the host it is really on");
    }

    @Test
    void seedingAnUnknownMachineIsRefused() {
        Coordinator c = coordinator(Mechanism.EAGER);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> c.seedHost(key, 4));
        assertTrue(e.getMessage().contains("target 4"), e.getMessage());
    }
    @Test
    void anIntervalApprovesAtMostItsBudgetPerTargetHottestFirstAndTheRestLater() {
        Coordinator c = new Coordinator(4, placement, CoordinatorConfig.defaults().withApprovalBudget(2));
        long cool = keyHomedAt(0);
        long warm = otherKeyHomedAt(0, cool);
        long hot = otherKeyHomedAt(0, cool, warm);
        List<KeyRate> wanted = List.of(new KeyRate(cool, 0, 100, false), new KeyRate(hot, 0, 300, false),
            new KeyRate(warm, 0, 200, false));
        Decisions first = c.endInterval(List.of(new MonitorReport(1, false, wanted)));
        assertEquals(List.of(hot, warm), first.approvals().stream().map(Decisions.Approval::key).toList(),
            "the budget of 2 goes to the hottest keys");
        assertEquals(1, c.overBudget());
        Decisions second = c.endInterval(List.of(new MonitorReport(1, false,
            List.of(new KeyRate(cool, 0, 100, false)))));
        assertEquals(List.of(cool), second.approvals().stream().map(Decisions.Approval::key).toList(),
            "a later interval has budget for the rest");
    }

    @Test
    void withoutAMinimumRateEvenARareReaderIsApprovedAndAnOverrideRestoresThePapersThreshold() {
        Decisions relative = coordinator(Mechanism.EAGER).endInterval(interval(0, false, NO, 0.05, NO, NO));
        assertEquals(1, relative.approvals().size(), "0.05 reads/s, all from machine 1: worth moving there");
        Coordinator paper = new Coordinator(4, placement, CoordinatorConfig.defaults().withMinRate(10));
        assertTrue(paper.endInterval(interval(0, false, NO, 0.05, NO, NO)).approvals().isEmpty());
    }

    private long otherKeyHomedAt(int home, long... taken) {
        for (long vid = 1; ; vid++) {
            long k = KeyLayout.key(vid, 0, KeyLayout.OUT);
            if (placement.home(k) == home && java.util.Arrays.stream(taken).noneMatch(t -> t == k)) {
                return k;
            }
        }
    }
}
