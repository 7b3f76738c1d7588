package io.pragh.monitor;

import io.pragh.address.Address;
import io.pragh.cache.LocationCache;
import io.pragh.keys.Placement;
import io.pragh.store.AccessObserver;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.LongArrayList;
import org.agrona.collections.LongHashSet;

/**
 * The monitor of one machine (paper section 4.4). Remote accesses are read from the location cache's per-entry
 * access counters, so the cache's replacement policy decides which remote keys are worth watching and no per-key
 * table exists for them; a value migrated here is still a remote key, so its accesses keep being counted there.
 * Local accesses are counted only for the keys the coordinator asks about ({@link #track}), in a separate table,
 * through the store's access hook: install the monitor with {@code store.setAccessObserver(monitor)}.
 *
 * <p>Counts decay: at the end of every interval the cache's counters and the table's are halved, so a rate here is
 * an exponentially weighted count (this interval's accesses plus half the previous one's and so on) per interval
 * second. Both sides of a comparison are measured the same way, which is what the coordinator's threshold needs.
 *
 * <p>What a periodic report leaves out is relative to the interval's observed rates, not an absolute rate (which
 * admits nothing at 40 queries/s and the whole working set at millions): a key is reported when it holds at least
 * {@link MonitorConfig#minShare} of this machine's remote accesses in the interval and was read at least
 * {@link MonitorConfig#minAccesses} times, whatever its rate. Moving a key saves this machine its share of remote
 * reads, so the share is what a migration is worth; the count keeps a key read once (which says nothing about who
 * reads it most) out. The coordinator then spends a budget of migrations per interval on the hottest reported keys.
 * A positive {@link MonitorConfig#reportRate} is the paper's absolute threshold and replaces the share.
 *
 * <p>The instant rate is relative too ({@link MonitorConfig#relativeInstantRate}): {@link MonitorConfig#instantFactor}
 * times the rate of the latest periodic report's threshold, at most {@link MonitorConfig#instantRate} ({@link
 * #instantRate}). At the paper's throughput that is the paper's 100/s; at ours (2 accesses an interval of 2 s) it is
 * 10/s, so a key one machine starts reading at 10-100/s mid-interval (a new neighbour of a hot vertex) moves within a
 * poll or two instead of at the interval's end. Every report carries the instant rate it was made with: the
 * coordinator's instant decision needs it as the most a machine that has not reported a key may read it at.
 *
 * <p>An interval's end can be made in slices ({@link #beginEnd}, then {@link #continueEnd} until it returns the
 * report), with {@link #poll}s between them: the end's pass over the cache (the sets of a 128 MiB cache that hold a
 * count, a few ms at scale 20 on this host; 60-130 ms when it passed every set) would otherwise hold up every poll for
 * its whole length. The poll tells counts from before the
 * halving from counts after it by the slice cursor: a key whose set a slice has passed has its halved count plus the
 * reads since; one whose set is still ahead has its whole count of the ending interval, which the poll halves as the
 * slice will (see docs/design.md, "The monitor's interval end in slices"). {@link #endInterval} is the end in one go.
 *
 * <p>{@link #onAccess} may be called by any thread of the machine; {@link #poll}, {@link #endInterval},
 * {@link #beginEnd}, {@link #continueEnd}, {@link #track} and {@link #untrack} by one monitoring thread.
 *
 * <pre>{@code
 * Monitor monitor = new Monitor(store.id(), store.placement(), store.cache(), MonitorConfig.defaults());
 * store.setAccessObserver(monitor);
 * MonitorReport hot = monitor.poll(Leases.nowMillis());        // instant report, or null
 * MonitorReport all = monitor.endInterval(Leases.nowMillis()); // periodic report; counters decay
 * monitor.beginEnd(Leases.nowMillis());                        // or the same in slices, polling between them
 * MonitorReport report;
 * while ((report = monitor.continueEnd(Leases.nowMillis())) == null) {
 *     monitor.poll(Leases.nowMillis());
 * }
 * }</pre>
 */
public final class Monitor implements AccessObserver {
    /** Shortest window an instant rate is measured over. */
    static final long MIN_INSTANT_WINDOW_MILLIS = 100;
    /**
     * Cache sets one slice of an interval's end passes by default: 4 MiB of a cache's 128 MiB (32 slices), a few
     * milliseconds, so a poll waits that long at most for the end.
     */
    public static final int DEFAULT_END_SLICE_SETS = 1 << 14;

    private final int machine;
    private final Placement placement;
    private final LocationCache cache;
    private final MonitorConfig config;
    /** Remote accesses go to the table when asked, or when there is no cache whose counters could hold them. */
    private final boolean remoteInTable;
    private final AccessTable table = new AccessTable();
    /**
     * Accesses to the values this machine homes or holds, for the far-memory tier ({@code io.pragh.tier}): off until
     * {@link #countHeldValues} (a table entry per value read is the cost the paper's monitor avoids), and decayed by
     * the tier's rounds ({@link #decayHeld}), not by this monitor's intervals.
     */
    private final AccessTable held = new AccessTable();
    private volatile boolean countHeld;
    /** Keys tracked on the coordinator's request: written under this monitor's lock, read by GETs without one. */
    private final TrackedKeys tracked = new TrackedKeys();
    /** Keys already reported instantly in this interval. */
    private final LongHashSet reportedInstantly = new LongHashSet();
    /** Most keys {@link #busy} holds: a poll's work stays bounded when a whole working set becomes busy at once. */
    static final int MAX_BUSY = 1 << 16;
    /** Cached keys that became busy this interval and were not reported instantly yet: key to when it became busy. */
    private final Long2LongHashMap busy = new Long2LongHashMap(-1);
    /** The access count each key in {@link #busy} had when it became busy. */
    private final Long2LongHashMap busyCount = new Long2LongHashMap(-1);
    /** The poll's probe of one busy key's entry (the polling thread's). */
    private final LocationCache.Hit probe = new LocationCache.Hit();
    private long intervalStartMillis = -1;
    private long reportThreshold;
    /** The instant rate of this interval (see {@link #instantRate}); written and read by the monitoring thread. */
    private double instantRate;
    /** How long the previous interval was (0 in the first): what the counts carried into this one were counted over. */
    private double previousIntervalSeconds;

    // The interval end under way ({@link #beginEnd} to the last {@link #continueEnd}). All of it is the monitoring
    // thread's, as the poll's state is: the end and the poll run on one thread, so a poll after a slice sees that
    // slice's halved counters and cursor in program order, and no field here needs a fence or a volatile. What races
    // is only the GET threads' counter bumps against the slice's halving (lossy by design, see LocationCache).
    /** Cache sets a slice passes. */
    private final int endSliceSets;
    /** Whether an end is under way. */
    private boolean ending;
    /** Sets {@code [0, endCursor)} of the cache were passed (reported on and halved) by the end under way or last. */
    private int endCursor;
    /**
     * When each slice of the latest end started (by slice index): a busy mark made before its set's slice started
     * counts from before the halving. The end's own begin for slices not made yet.
     */
    private final long[] sliceStartMillis;
    /** When the latest end's last slice was made: marks from then on count from after every halving. */
    private long endDoneMillis = Long.MIN_VALUE;
    /** The ending interval's length, its share's total so far, and its candidates from the cache with their counts. */
    private double endSeconds;
    private long endRemote;
    private final List<KeyRate> endKeys = new ArrayList<>();
    private final LongArrayList endCounts = new LongArrayList();
    /** The ending interval's table entries (tracked keys, or every remote key without a cache), with their counts. */
    private final List<KeyRate> endTableKeys = new ArrayList<>();
    private final LongArrayList endTableCounts = new LongArrayList();
    /** A slice's visitor of the cache's live entries: one instance, so a slice allocates only for the candidates. */
    private final LocationCache.EntryVisitor endVisitor = this::visitEnding;

    public Monitor(int machine, Placement placement, LocationCache cache, MonitorConfig config) {
        this(machine, placement, cache, config, DEFAULT_END_SLICE_SETS);
    }

    /** With {@code endSliceSets} cache sets a slice of an interval's end ({@link #continueEnd}) at most. */
    Monitor(int machine, Placement placement, LocationCache cache, MonitorConfig config, int endSliceSets) {
        if (endSliceSets < 1) {
            throw new IllegalArgumentException("an interval end's slice needs at least one cache set, got "
                + endSliceSets);
        }
        this.machine = machine;
        this.placement = placement;
        this.cache = cache;
        this.config = config;
        this.remoteInTable = config.countRemoteInTable() || !cache.enabled();
        this.endSliceSets = endSliceSets;
        this.sliceStartMillis = new long[Math.max(1, (cache.setCount() + endSliceSets - 1) / endSliceSets)];
        // Before any interval ended: the threshold of minAccesses over one configured interval.
        this.instantRate = relativeInstantRate(config.minAccesses(), config.intervalMillis() / 1000.0);
    }

    /**
     * Accesses per second at which a key is reported instantly in this interval: {@link MonitorConfig#instantRate}, or
     * while the policy is relative {@link MonitorConfig#instantFactor} times the latest periodic threshold's rate, at
     * most that.
     */
    public double instantRate() {
        return instantRate;
    }

    private double relativeInstantRate(long thresholdAccesses, double seconds) {
        if (!config.relativeInstantRate()) {
            return config.instantRate();
        }
        return Math.min(config.instantRate(), config.instantFactor() * thresholdAccesses / seconds);
    }

    public int machine() {
        return machine;
    }

    public MonitorConfig config() {
        return config;
    }

    /** Starts the first interval (later ones start when the previous one ends). */
    public void start(long nowMillis) {
        intervalStartMillis = nowMillis;
    }

    /**
     * The access hook ({@link AccessObserver}): a GET on this machine found {@code key} (homed on {@code home}) with its value on
     * {@code host}. Counts it when the key is tracked, or when it is remote and this machine counts remote
     * accesses in its table (asked to, or running without a location cache); otherwise does nothing (the location
     * cache counted it already). Only keys homed here can be tracked ({@link #track}), so a remote key's access skips
     * the tracked-key probe: on the traversal benchmark's query path that probe, a cache miss into the tracked-key
     * table on every GET, was 5.6% of the query threads' samples in split-cache-replica, seven of eight of them for
     * remote keys.
     */
    @Override
    public void onAccess(long key, int home, int host) {
        if (home != machine ? remoteInTable : tracked.contains(key)) {
            table.record(key, host);
        }
        if (countHeld && (home == machine || host == machine)) {
            held.record(key, host);
        }
    }

    /** The tracked-key probe of {@link #onAccess}, started early (see {@link AccessObserver#touch}). */
    @Override
    public long touch(long key) {
        // As onAccess: only a key homed here can be tracked.
        return placement.home(key) == machine ? tracked.touch(key) : 0;
    }

    /**
     * Counts from now on every GET on this machine of a value it homes (wherever the value lives, a memory node
     * included) or holds, as the far-memory tier needs to tell hot values from warm and cold ones.
     */
    public void countHeldValues() {
        countHeld = true;
    }

    /** Decayed accesses to a value this machine homes or holds, since {@link #countHeldValues}: 0 when never read. */
    public long heldAccesses(long key) {
        return held.count(key);
    }

    /** Halves every held-value count, dropping those that reach zero: the tier's round ends. */
    public void decayHeld() {
        held.decay(k -> false);
    }

    /**
     * Counts this machine's accesses of {@code key}, which it homes, from now on, wherever its value lives: the home's
     * own reads of a value that migrated away or whose move is deferred are the coordinator's measure of what the home
     * would lose (a value's host counts its reads of a value homed elsewhere in its location cache). Until
     * {@link #untrack}.
     *
     * @throws IllegalArgumentException when {@code key} is homed on another machine
     */
    public synchronized void track(long key) {
        int home = placement.home(key);
        if (home != machine) {
            throw new IllegalArgumentException("machine " + machine + " tracks only keys it homes; key " + key
                + " is homed on machine " + home);
        }
        // The table's entry first: a GET that sees the key tracked finds its entry to count in.
        table.ensure(key, home);
        tracked.add(key);
    }

    public synchronized void untrack(long key) {
        if (!tracked.remove(key)) {
            return;
        }
        if (!remoteInTable || placement.home(key) == machine) {
            table.remove(key);
        }
    }

    public boolean isTracked(long key) {
        return tracked.contains(key);
    }

    /**
     * Instant report: the keys whose rate so far in this interval passed the instant rate and that were not reported
     * instantly yet in this interval; null when there are none.
     */
    public MonitorReport poll(long nowMillis) {
        checkStarted();
        // A rate over less than the control plane's 100 ms poll period is noise: one access made a millisecond
        // into the interval is not "more than N accesses per second". The counts carry half of the previous interval's
        // (decay), so they are measured over the previous interval's length too: a key read steadily at r per second
        // carries r x that length into the interval, and its count over the time so far alone said ten times r a
        // tenth of a second in (every key read about as often as the instant rate passed at every interval's start).
        double seconds = Math.max(MIN_INSTANT_WINDOW_MILLIS, nowMillis - intervalStartMillis) / 1000.0
            + previousIntervalSeconds;
        List<KeyRate> hot = new ArrayList<>();
        if (!remoteInTable) {
            collectBusy(nowMillis, seconds, hot);
        }
        collectTable(seconds, instantRate, config.minAccesses(), hot);
        hot.removeIf(k -> !reportedInstantly.add(k.key()));
        return hot.isEmpty() ? null : new MonitorReport(machine, true, hot, instantRate);
    }

    /**
     * The cached keys past the instant rate, among those that became busy this interval (the cache's ring of keys
     * that reached {@link LocationCache#HOT_MARK}), not the whole cache: a poll costs the busy keys, so the control
     * plane can poll every 100 ms whatever the cache size. A key passes on its rate over the interval so far (with
     * the previous interval, whose halved count it carries, see {@link #poll}) or, when that is higher, since it
     * became busy: a key first read late in the interval (a new neighbour of a hot
     * vertex) would otherwise wait for the interval's end, its accesses averaged over time it was not read in. It is
     * reported at the rate it passed on: the coordinator's instant decision weighs it against the instant rates of the
     * machines that did not report it (the most they can read it at, measured the same way) and against other
     * instant reports, so a rate averaged over time the key was not read in would never win there. (The interval's end
     * replaces it with the interval's rate, as every machine's is measured.) Busy keys that do not pass yet stay
     * candidates until the interval ends (up to {@link #MAX_BUSY}).
     */
    private void collectBusy(long nowMillis, double seconds, List<KeyRate> out) {
        cache.drainHot(busyVisitor);
        TrackedKeys trackedNow = tracked;
        Long2LongHashMap.KeyIterator it = busy.keySet().iterator();
        while (it.hasNext()) {
            long key = it.nextValue();
            long marked = busy.get(key);
            if (trackedNow.contains(key) || reportedInstantly.contains(key)
                || !cache.peek(key, nowMillis, probe)) {
                // Tracked keys are the table's; an evicted or stale entry's refill counts on, and the interval's report
                // sees it.
                it.remove();
                busyCount.remove(key);
                continue;
            }
            long accesses = probe.accesses;
            if (ending && cache.setIndex(key) >= endCursor) {
                // Still the ending interval's whole count: its slice is ahead and will halve it. Taken as this
                // interval's, a key read fast until the end (and barely since) looked twice as fast as it is; halved
                // here, the poll sees the count the key will carry, as after an end made in one go.
                accesses >>>= 1;
            }
            double sinceMarked = (accesses - busyCount.get(key))
                / (Math.max(MIN_INSTANT_WINDOW_MILLIS, nowMillis - marked) / 1000.0);
            double rate = accesses / seconds;
            double passing = Math.max(rate, sinceMarked);
            if (accesses >= config.minAccesses() && passing >= instantRate) {
                out.add(new KeyRate(key, Address.host(probe.address, placement.home(key)), passing, false));
                it.remove();
                busyCount.remove(key);
            }
        }
    }

    /** The busy ring's drain: a key that became busy joins {@link #busy} with its mark in this interval's terms. */
    private final LocationCache.HotVisitor busyVisitor = this::takeMark;
    /**
     * The drain at an end's begin: the marks still in the ring from before it carry counts from before the halving
     * and times long past (a key read fast again looked slow since it "became busy"); they are dropped, and their keys
     * come back at their next mark.
     */
    private final LocationCache.HotVisitor beginVisitor = (key, markedMillis, markedCount) -> {
        if (markedMillis >= intervalStartMillis) {
            takeMark(key, markedMillis, markedCount);
        }
    };

    private void takeMark(long key, long markedMillis, long markedCount) {
        // The earliest mark of the interval: the longest window to measure the rate since over.
        if (busy.size() >= MAX_BUSY || busy.containsKey(key)) {
            return;
        }
        busy.put(key, markedMillis);
        busyCount.put(key, markInThisInterval(key, markedMillis, markedCount));
    }

    /**
     * The count a busy mark stands for after its set's halving (what the poll's probe compares it with). A mark timed
     * before the latest end began but written after its drain (a GET whose clock was read before the begin) is taken
     * as it is: whether its count is from before the halving or after, the larger reading and the longer window only
     * make the rate since the mark lower.
     *
     * <p>A mark made while an end was under way counts from before the halving when its set's slice had not started
     * yet. Decided on the mark's time (the GET's clock, read before its bump): a GET that stalls between its clock and
     * its bump across a whole slice makes a halved mark of a count from after the halving, and one poll may then see
     * that key faster than it is; a mark in the very millisecond its slice started is taken as after the halving,
     * which can only make the rate since the mark lower.
     */
    private long markInThisInterval(long key, long markedMillis, long markedCount) {
        if (markedMillis < intervalStartMillis || (!ending && markedMillis >= endDoneMillis)) {
            return markedCount;
        }
        int set = cache.setIndex(key);
        boolean beforeHalving = set >= endCursor || markedMillis < sliceStartMillis[set / endSliceSets];
        return beforeHalving ? markedCount >>> 1 : markedCount;
    }

    /**
     * Periodic report of the interval that ends now: every key with at least {@link #reportThreshold} accesses and at
     * or above the report rate (none by default), and every tracked key;
     * then the counters decay and the next interval starts. {@link #beginEnd} and every slice at once.
     */
    public MonitorReport endInterval(long nowMillis) {
        beginEnd(nowMillis);
        MonitorReport report;
        do {
            report = continueEnd(nowMillis);
        } while (report == null);
        return report;
    }

    /**
     * Ends the interval at {@code nowMillis}: the next one starts now, and the monitor's own table (the tracked keys)
     * is reported on and halved at once; the location cache's counters are reported on and halved by the slices of
     * {@link #continueEnd}, between which {@link #poll} may run. Until the last slice, the instant rate and {@link
     * #reportThreshold} are the previous interval's.
     *
     * @throws IllegalStateException when not started, or when an end is under way
     */
    public void beginEnd(long nowMillis) {
        checkStarted();
        if (ending) {
            throw new IllegalStateException("machine " + machine + ": an interval end is under way; continueEnd until"
                + " it reports before ending another");
        }
        endSeconds = Math.max(1, nowMillis - intervalStartMillis) / 1000.0;
        endRemote = 0;
        endKeys.clear();
        endCounts.clear();
        endTableKeys.clear();
        endTableCounts.clear();
        TrackedKeys trackedNow = tracked;
        // The table in one step: a few thousand tracked keys (or, on a machine without a cache, every remote key,
        // whose end is then not sliced). Candidates at minAccesses; the share's threshold is known at the last slice.
        table.forEach((key, host, count) -> {
            if (host != machine) {
                endRemote += count;
            }
            boolean isTracked = trackedNow.contains(key);
            if (isTracked || (count >= config.minAccesses() && count / endSeconds >= config.reportRate())) {
                endTableKeys.add(new KeyRate(key, host, count / endSeconds, isTracked));
                endTableCounts.addLong(count);
            }
        });
        table.decay(tracked::contains);
        previousIntervalSeconds = endSeconds;
        intervalStartMillis = nowMillis;
        reportedInstantly.clear();
        // Their counts are about to be halved, so a rate since the mark would be wrong; they come back at their next
        // mark, as do the marks still in the ring from before now (see beginVisitor).
        busy.clear();
        busyCount.clear();
        ending = true;
        endCursor = 0;
        Arrays.fill(sliceStartMillis, nowMillis);
        if (!remoteInTable) {
            cache.drainHot(beginVisitor);
        }
    }

    /** Whether an interval end is under way ({@link #beginEnd} made, {@link #continueEnd} has not reported yet). */
    public boolean ending() {
        return ending;
    }

    /**
     * One slice of the end under way: reports on and halves the next cache sets (at most the slice size, 16,384 by
     * default); returns the periodic report once every set was passed, else null. Each set is passed once, so a read
     * counted during the end is halved once (with the ending interval's counts when its set was still ahead, not at
     * all when it was passed already) and never lost.
     *
     * @throws IllegalStateException when no end is under way
     */
    public MonitorReport continueEnd(long nowMillis) {
        if (!ending) {
            throw new IllegalStateException("machine " + machine + ": no interval end is under way; beginEnd first");
        }
        int sets = remoteInTable ? 0 : cache.setCount();
        if (endCursor < sets) {
            int to = Math.min(sets, endCursor + endSliceSets);
            sliceStartMillis[endCursor / endSliceSets] = nowMillis;
            cache.forEachThenHalve(nowMillis, endCursor, to, endVisitor);
            endCursor = to;
            if (endCursor < sets) {
                return null;
            }
        }
        return finishEnd(nowMillis);
    }

    /** A cache entry passed by a slice, with its count before the halving: the share's total and the candidates. */
    private void visitEnding(long key, long address, long slotOffset, long accesses) {
        int host = Address.host(address, placement.home(key));
        if (host != machine) {
            endRemote += accesses;
        }
        if (accesses >= config.minAccesses() && accesses / endSeconds >= config.reportRate()
            && !tracked.contains(key)) {
            endKeys.add(new KeyRate(key, host, accesses / endSeconds, false));
            endCounts.addLong(accesses);
        }
    }

    private MonitorReport finishEnd(long nowMillis) {
        reportThreshold = config.reportRate() > 0 ? config.minAccesses()
            : Math.max(config.minAccesses(), (long) Math.ceil(config.minShare() * endRemote));
        List<KeyRate> keys = new ArrayList<>(endKeys.size() + endTableKeys.size());
        for (int i = 0; i < endKeys.size(); i++) {
            if (endCounts.getLong(i) >= reportThreshold) {
                keys.add(endKeys.get(i));
            }
        }
        for (int i = 0; i < endTableKeys.size(); i++) {
            if (endTableKeys.get(i).tracked() || endTableCounts.getLong(i) >= reportThreshold) {
                keys.add(endTableKeys.get(i));
            }
        }
        endKeys.clear();
        endCounts.clear();
        endTableKeys.clear();
        endTableCounts.clear();
        instantRate = relativeInstantRate(reportThreshold, endSeconds);
        ending = false;
        endDoneMillis = nowMillis;
        return new MonitorReport(machine, false, keys, instantRate);
    }

    /**
     * Accesses an untracked key needed to be in the latest periodic report: {@code minAccesses}, or more when
     * {@code minShare} of the interval's remote accesses was more (see the class javadoc).
     */
    public long reportThreshold() {
        return reportThreshold;
    }

    private void collectTable(double seconds, double minRate, long minAccesses, List<KeyRate> out) {
        TrackedKeys trackedNow = tracked;
        table.forEach((key, host, count) -> {
            double rate = count / seconds;
            boolean isTracked = trackedNow.contains(key);
            if ((count >= minAccesses && rate >= minRate) || (isTracked && minRate <= config.reportRate())) {
                out.add(new KeyRate(key, host, rate, isTracked));
            }
        });
    }

    private void checkStarted() {
        if (intervalStartMillis < 0) {
            throw new IllegalStateException("monitor of machine " + machine + " was not started");
        }
    }
}
