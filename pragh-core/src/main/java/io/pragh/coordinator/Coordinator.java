package io.pragh.coordinator;

import io.pragh.keys.Placement;
import io.pragh.monitor.KeyRate;
import io.pragh.monitor.MonitorReport;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.LongHashSet;

/**
 * The coordinator of split live migration with the paper's threshold policy: a machine's rate of accesses to a key
 * must beat the rate of the machine hosting its value, and that of every other contender, by a margin (default
 * 50%). Unlike the paper, no absolute rate is needed by default (a rate that suits one throughput admits nothing, or
 * everything, at another): a monitor reports only keys read at least twice in its interval, and each interval
 * approves at most {@link CoordinatorConfig#approvalBudget} migrations per target machine, hottest keys first, leaving
 * the rest to later intervals; {@link CoordinatorConfig#minRate} restores the paper's threshold as an override. When the host's own rate is unknown (the value is at its home, which does not count
 * local accesses unless asked), {@link Mechanism#EAGER} approves at once and {@link Mechanism#DEFERRED} asks the
 * home to count for one interval and decides at the next. Whenever a value leaves its home, the home is asked to
 * count its accesses so that a later interval can bring the value back, and it keeps counting once the value is back:
 * the home proved a reader, and a later applicant must beat its rate (an eager approval against a home that was not
 * counting took values from their main reader again every other interval). A key approved recently is left alone
 * for a cooldown, and a key two machines want about equally is not moved at all, so contended keys never ping-pong.
 * An instant report decides only where the host's rate is known in this interval, or the host is an uncounting
 * home (eager); otherwise the interval's end decides, when every machine has reported. Nor does an instant report
 * hand a key to its first reporter while another machine may read it about as often: a machine that has not reported
 * the key in this interval is weighed at the most it can read it at without having reported it, its instant rate
 * (each report carries its machine's), or at its rate of the key in the previous interval when that was higher; the
 * applicant must beat that by the margin too. (A relative instant rate is low, 10/s at our throughput, so a key
 * several machines read passes at several of them within a poll or two, in any order.) The instant reports of one
 * poll of every machine are decided together ({@link #onInstantReports}), so none is decided before another machine's
 * report of the same poll is known.
 * The latest target of every approved migration is recorded (in memory; a cluster keeps it durable too and hands it
 * to a new coordinator through {@link #seedHost}).
 *
 * <p>Not thread-safe: one control thread feeds it reports and applies its decisions.
 *
 * <pre>{@code
 * Coordinator c = new Coordinator(machines, placement, CoordinatorConfig.defaults());
 * Decisions d = c.endInterval(reports);        // one periodic report per machine
 * d.approvals().forEach(a -> cluster.machine(a.target()).migrateAsync(a.key()));
 * }</pre>
 */
public final class Coordinator {
    private static final long NONE = -1;

    private final int machines;
    private final Placement placement;
    private final CoordinatorConfig config;
    private final Long2LongHashMap latestTarget = new Long2LongHashMap(NONE);
    private final Long2LongHashMap approvedInInterval = new Long2LongHashMap(NONE);
    /** Deferred keys: the home counts its accesses this interval; decided at its end. */
    private final LongHashSet pending = new LongHashSet();
    /** Keys whose home is counting its accesses (deferred, or the value left home). */
    private final LongHashSet homeTracking = new LongHashSet();
    /** This interval's rates so far: key to per-machine rate (NaN where nothing was reported). */
    private Long2ObjectHashMap<double[]> rates = new Long2ObjectHashMap<>();
    /** The previous interval's rates, as {@link #rates} was at its end: the instant decision's estimate of a reader. */
    private Long2ObjectHashMap<double[]> previousRates = new Long2ObjectHashMap<>();
    /** Each machine's instant rate, as its latest report said (NaN while none did). */
    private final double[] instantRates;
    private final Long2ObjectHashMap<boolean[]> measured = new Long2ObjectHashMap<>();
    /** Keys whose value has read replicas: not moved while the policy keeps them ({@link #keepInPlace}). */
    /**
     * Intervals a key stays kept in place after the replica policy last kept it: long enough that a key read through
     * replicas, re-offered at every interval's end, is never let go between two offers.
     */
    public static final int KEEP_INTERVALS = 4;
    private final KeptKeys kept = new KeptKeys(KEEP_INTERVALS);
    /** Approvals per target machine in this interval, against {@link CoordinatorConfig#approvalBudget}. */
    private final int[] approvedThisInterval;
    private long interval;
    private long approvals;
    private long overBudget;

    public Coordinator(int machines, Placement placement, CoordinatorConfig config) {
        if (machines < 1) {
            throw new IllegalArgumentException("machines must be >= 1, got " + machines);
        }
        this.machines = machines;
        this.placement = placement;
        this.config = config;
        this.approvedThisInterval = new int[machines];
        this.instantRates = new double[machines];
        Arrays.fill(instantRates, Double.NaN);
    }

    public CoordinatorConfig config() {
        return config;
    }

    /** Intervals ended so far. */
    public long interval() {
        return interval;
    }

    /** Migrations approved so far. */
    public long approvals() {
        return approvals;
    }

    /** Migrations that passed every rule but were left for a later interval: their target's budget was spent. */
    public long overBudget() {
        return overBudget;
    }

    /** Machine the last approved migration of {@code key} targeted, or -1 when none was approved. */
    public int latestTarget(long key) {
        return (int) latestTarget.get(key);
    }

    /** Keys with an approved migration (the size of the latest-target record). */
    public int migratedKeys() {
        return latestTarget.size();
    }

    /** Machine that holds {@code key}'s value as far as approvals go. */
    public int hostOf(long key) {
        long t = latestTarget.get(key);
        return t == NONE ? placement.home(key) : (int) t;
    }

    /**
     * Tells a coordinator that has just taken over (a restart, or a new election) where the last approved migration
     * of {@code key} went, from the durable record its predecessor wrote before approving (paper section 5: the
     * coordinator is stateless because that record is durable). Without it, {@link #hostOf} would say the value is
     * at its home, and the coordinator would weigh applicants against the wrong machine's rate and could approve
     * moving a value from a host it has already left. Returns the tracking request that lets a later interval bring
     * the value back home (the home may have restarted and forgotten it), or {@link Decisions#NONE}.
     *
     * <pre>{@code
     * Coordinator c = new Coordinator(machines, placement, config);
     * zk.recordedTargets().forEach((key, target) -> apply(c.seedHost(key, target)));
     * }</pre>
     *
     * @throws IllegalArgumentException when {@code target} is not a machine of this cluster
     */
    public Decisions seedHost(long key, int target) {
        if (target < 0 || target >= machines) {
            throw new IllegalArgumentException("recorded migration target " + target + " of key " + key
                + " is outside 0.." + (machines - 1));
        }
        latestTarget.put(key, target);
        int home = placement.home(key);
        if (target != home && homeTracking.add(key)) {
            Builder out = new Builder();
            out.track.add(new Decisions.Track(key, home));
            return out.build();
        }
        return Decisions.NONE;
    }

    /**
     * Approves no migration of {@code key} for {@link #KEEP_INTERVALS} intervals from now: its value got read replicas
     * (docs/replicas.md). Their readers read it locally already and its new readers are offered replicas too, while a
     * migration of a value whose header still carries the replica bit keeps its new record pending a replica lease,
     * stalling its GETs. The replica policy keeps a key again at every interval its replicas are still read.
     */
    public void keepInPlace(long key) {
        kept.keep(key, interval);
    }

    /** Keys kept in place now (bounded: those kept in the last {@link #KEEP_INTERVALS} intervals). */
    public int keptKeys() {
        return kept.size();
    }

    /** Keys waiting for their home's count (deferred). */
    public int pendingKeys() {
        return pending.size();
    }

    /** An instant report: decides now for the keys in it, with whatever else this interval has reported so far. */
    public Decisions onInstantReport(MonitorReport report) {
        return onInstantReports(List.of(report));
    }

    /**
     * The instant reports of one poll of several machines: every one is weighed before any key in them is decided, so
     * a key two machines reported in the same poll is never handed to the one whose report came first.
     *
     * <pre>{@code
     * Decisions d = coordinator.onInstantReports(List.of(monitor0.poll(now), monitor1.poll(now)));
     * }</pre>
     */
    public Decisions onInstantReports(List<MonitorReport> reports) {
        for (MonitorReport report : reports) {
            if (!report.instant()) {
                throw new IllegalArgumentException("periodic report from machine " + report.machine()
                    + " passed to onInstantReports; use endInterval");
            }
            absorb(report);
        }
        Builder out = new Builder();
        LongHashSet decided = new LongHashSet();
        for (MonitorReport report : reports) {
            for (KeyRate k : report.keys()) {
                if (decided.add(k.key())) {
                    decide(k.key(), false, out);
                }
            }
        }
        return out.build();
    }

    /** The interval ends with every machine's periodic report: decides for every reported or pending key. */
    public Decisions endInterval(List<MonitorReport> periodic) {
        for (MonitorReport r : periodic) {
            if (r.instant()) {
                throw new IllegalArgumentException("instant report from machine " + r.machine()
                    + " passed to endInterval; use onInstantReport");
            }
            absorb(r);
        }
        Builder out = new Builder();
        LongHashSet keys = new LongHashSet();
        for (Long2ObjectHashMap<double[]>.KeyIterator it = rates.keySet().iterator(); it.hasNext(); ) {
            keys.add(it.nextLong());
        }
        keys.addAll(pending);
        for (long key : hottestFirst(keys)) {
            decide(key, true, out);
        }
        // Kept for one interval: an instant decision early in the next one weighs a machine that has not reported the
        // key yet at what it read then.
        previousRates = rates;
        rates = new Long2ObjectHashMap<>();
        measured.clear();
        Arrays.fill(approvedThisInterval, 0);
        interval++;
        kept.forgetBefore(interval);
        return out.build();
    }

    /** The keys by their highest reported rate, highest first: a spent budget leaves the coolest for later. */
    private long[] hottestFirst(LongHashSet keys) {
        long[] order = new long[keys.size()];
        double[] heat = new double[keys.size()];
        int n = 0;
        LongHashSet.LongIterator it = keys.iterator();
        while (it.hasNext()) {
            long key = it.nextValue();
            double[] r = rates.get(key);
            double max = 0;
            if (r != null) {
                for (double x : r) {
                    if (x > max) {
                        max = x; // NaN (not reported) compares false
                    }
                }
            }
            order[n] = key;
            heat[n] = max;
            n++;
        }
        int[] index = HottestFirst.order(heat, n);
        long[] sorted = new long[n];
        for (int i = 0; i < n; i++) {
            sorted[i] = order[index[i]];
        }
        return sorted;
    }

    private void absorb(MonitorReport report) {
        int m = report.machine();
        if (m < 0 || m >= machines) {
            throw new IllegalArgumentException("report from machine " + m + ", outside 0.." + (machines - 1));
        }
        if (!Double.isNaN(report.instantRate())) {
            instantRates[m] = report.instantRate();
        }
        for (KeyRate k : report.keys()) {
            double[] r = rates.computeIfAbsent(k.key(), x -> {
                double[] a = new double[machines];
                Arrays.fill(a, Double.NaN);
                return a;
            });
            r[m] = k.rate();
            if (k.tracked()) {
                measured.computeIfAbsent(k.key(), x -> new boolean[machines])[m] = true;
            }
        }
    }

    private void decide(long key, boolean intervalEnd, Builder out) {
        long last = approvedInInterval.get(key);
        if (last != NONE && interval <= last + config.cooldownIntervals()) {
            return;
        }
        int home = placement.home(key);
        int host = hostOf(key);
        double[] r = rates.get(key);
        boolean[] known = measured.get(key);
        int applicant = -1;
        double best = 0;
        double second = 0;
        if (r != null) {
            for (int m = 0; m < machines; m++) {
                if (m == host || Double.isNaN(r[m])) {
                    continue;
                }
                if (r[m] > best) {
                    second = best;
                    best = r[m];
                    applicant = m;
                } else if (r[m] > second) {
                    second = r[m];
                }
            }
        }
        if (!intervalEnd && applicant >= 0) {
            second = Math.max(second, unreportedBound(key, r, host, applicant));
        }
        boolean hostReported = r != null && !Double.isNaN(r[host]);
        if (!intervalEnd && !hostReported && (host != home || homeTracking.contains(key))) {
            // An instant report comes before the host's report of this interval: its rate is unknown, not zero. At
            // the interval's end a host that reported nothing read the key less than its monitor's threshold.
            // (Deciding here against 0 moved values away from their main reader, then back an interval later.)
            return;
        }
        boolean hostMeasured = host != home || (known != null && known[host]);
        double hostRate = hostReported ? r[host] : 0;
        if (applicant < 0 || best < config.minRate() || best <= (1 + config.margin()) * second
            || kept.contains(key)) {
            // Nobody wants it enough, or several machines want it about equally, or it has read replicas: leave it
            // where it is.
            if (intervalEnd && pending.remove(key)) {
                stopHomeTracking(key, home, host, out);
            }
            return;
        }
        if (hostMeasured) {
            if (best > (1 + config.margin()) * hostRate) {
                approve(key, home, host, applicant, best, hostRate, out);
            } else if (intervalEnd && pending.remove(key)) {
                stopHomeTracking(key, home, host, out);
            }
            return;
        }
        if (config.mechanism() == Mechanism.EAGER) {
            approve(key, home, host, applicant, best, Double.NaN, out);
        } else if (pending.add(key)) {
            homeTracking.add(key);
            out.track.add(new Decisions.Track(key, home));
        } else if (intervalEnd) {
            // Pending for a whole interval and the home reported nothing: it did not access the key at all.
            approve(key, home, host, applicant, best, 0, out);
        }
    }

    /**
     * The most a machine other than the host and the applicant that has not reported {@code key} in this interval may
     * read it at: its instant rate (else it would have reported it by its last poll), or its rate in the previous
     * interval when higher. A machine whose instant rate is not known yet is taken at the applicant's; with none known
     * (reports that carry none) only the previous interval's rates count.
     */
    private double unreportedBound(long key, double[] r, int host, int applicant) {
        double[] before = previousRates.get(key);
        double fallback = Double.isNaN(instantRates[applicant]) ? 0 : instantRates[applicant];
        double bound = 0;
        for (int m = 0; m < machines; m++) {
            if (m == host || m == applicant || (r != null && !Double.isNaN(r[m]))) {
                continue;
            }
            double most = Double.isNaN(instantRates[m]) ? fallback : instantRates[m];
            if (before != null && before[m] > most) {
                most = before[m]; // NaN compares false
            }
            bound = Math.max(bound, most);
        }
        return bound;
    }

    private void approve(long key, int home, int source, int target, double targetRate, double sourceRate,
                         Builder out) {
        if (approvedThisInterval[target] >= config.approvalBudget()) {
            overBudget++; // reported again later, it may be approved in an interval with budget left
            return;
        }
        approvedThisInterval[target]++;
        out.approvals.add(new Decisions.Approval(key, source, target, targetRate, sourceRate));
        latestTarget.put(key, target);
        approvedInInterval.put(key, interval);
        approvals++;
        pending.remove(key);
        if (target != home && homeTracking.add(key)) {
            out.track.add(new Decisions.Track(key, home));
        }
    }

    private void stopHomeTracking(long key, int home, int host, Builder out) {
        if (host == home && homeTracking.remove(key)) {
            out.untrack.add(new Decisions.Track(key, home));
        }
    }

    private static final class Builder {
        final List<Decisions.Approval> approvals = new ArrayList<>();
        final List<Decisions.Track> track = new ArrayList<>();
        final List<Decisions.Track> untrack = new ArrayList<>();

        Decisions build() {
            return approvals.isEmpty() && track.isEmpty() && untrack.isEmpty() ? Decisions.NONE
                : new Decisions(approvals, track, untrack);
        }
    }
}
