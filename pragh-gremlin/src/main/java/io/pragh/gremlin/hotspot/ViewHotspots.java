package io.pragh.gremlin.hotspot;

import io.pragh.gremlin.events.EventKind;
import io.pragh.gremlin.events.ViewEvents;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.gremlin.view.PraghViews;
import io.pragh.runtime.DutyThread;
import org.agrona.collections.LongArrayList;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * View-driven hotspot migration (Concerto's): a watched view gets a read counter, a handler of its read events
 * ({@link ViewReadCounter}); every round (on a thread of its own, or when called) a view whose reads since its last
 * round reach its threshold (reads per second) has its members placed where they are read ({@link HotspotPlacement}:
 * in proportion to each machine's reads, so an evenly read view spreads evenly and a view read from one machine
 * gathers there), and every value of a member that is not on its machine yet is MIGRATEd there: values move, keys
 * stay at their hash home, and reads stay reads of the one current value (the split migration protocol's). Each move
 * is handed to the migration policy's coordinator so it knows where the value went ({@link HotspotMachines#move}).
 * The watch is durable (a property of the view, with the read subscription); the graph's embedder opens this again
 * after a restart and the watches are back.
 *
 * <p>On a multi-process cluster every process opens one (its Gremlin front end does), counting its own machines'
 * reads; the round runs in the coordinator's process only, which takes every process's counts
 * ({@link HotspotMachines#takeOtherReads}), reads the members' hosts and hands the moves to the coordinator. The same
 * round serves both: only the {@link HotspotMachines} differ.
 *
 * <p>Example:
 * <pre>{@code
 * ViewHotspots hotspots = ViewHotspots.of(ViewEvents.of(views));   // registers g.call("pragh.hotspot", [...])
 * hotspots.watch("trending", 1_000);                             // hot at 1,000 reads/s of its members
 * hotspots.start(1_000);                                         // a round a second; or hotspots.runRound()
 * }</pre>
 */
public final class ViewHotspots implements AutoCloseable {
    /** Graph configuration key: when above 0, rounds run by themselves this often from {@link #of} on. */
    public static final String INTERVAL_MILLIS = "pragh.hotspotIntervalMillis";
    /** The view property holding a watched view's threshold (reads per second): what makes a watch durable. */
    public static final String THRESHOLD_PROPERTY = "pragh.hotspot.readsPerSecond";
    /** The read subscription of watched view {@code v} is named this prefix plus {@code v}. */
    public static final String SUBSCRIPTION_PREFIX = "pragh.hotspot.";
    private static final long MOVE_PATIENCE_MILLIS = 60_000;
    /** How long taking a view's counts waits for this process's event lanes to hand over the reads made before. */
    private static final long FLUSH_MILLIS = 10_000;
    /** Keys one ask of their hosts names at most (the client protocol's HOSTS takes up to 8,192). */
    private static final int BATCH = 4_096;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ViewHotspots.class);
    private static final Map<ViewEvents, ViewHotspots> OPEN = new ConcurrentHashMap<>();

    /** One watched view: its counter, threshold and when its counts began. */
    private static final class Watch {
        final ViewReadCounter counter;
        volatile double threshold;
        long since = System.nanoTime();

        Watch(final ViewReadCounter counter, final double threshold) {
            this.counter = counter;
            this.threshold = threshold;
        }
    }

    private final ViewEvents events;
    private final PraghViews views;
    private final HotspotMachines machines;
    private final Map<String, Watch> watches = new ConcurrentHashMap<>();
    private DutyThread thread;

    private ViewHotspots(final ViewEvents events, final HotspotMachines machines) {
        this.events = events;
        this.views = events.views();
        this.machines = machines;
        views.graph().getServiceRegistry().registerService(new HotspotService(this));
    }

    /**
     * The hotspot migration of {@code events}' graph in this process (one per graph), over its embedded cluster;
     * see {@link #of(ViewEvents, HotspotMachines)}.
     *
     * @throws IllegalArgumentException when the graph's store is not an embedded cluster (a multi-process cluster's
     *                                  Gremlin front end opens it with its own machines)
     */
    public static ViewHotspots of(final ViewEvents events) {
        final GraphStore store = events.views().graph().store();
        if (!(store instanceof EmbeddedGraphStore)) {
            final ViewHotspots open = OPEN.get(events);
            if (open != null) {
                return open;
            }
            throw new IllegalArgumentException("ViewHotspots.of(events) moves values between the machines of an "
                + "embedded cluster; this graph's store is a " + store.getClass().getSimpleName() + " (on a "
                + "multi-process cluster each machine's Gremlin front end opens it: ViewHotspots.of(events, machines))");
        }
        return of(events, new EmbeddedMachines(((EmbeddedGraphStore) store).cluster()));
    }

    /**
     * The hotspot migration of {@code events}' graph in this process (one per graph: a second call answers the
     * first's while it is open) over {@code machines}, with the watches stored in its views back, and rounds running
     * by themselves when the graph's configuration sets {@link #INTERVAL_MILLIS}.
     */
    public static ViewHotspots of(final ViewEvents events, final HotspotMachines machines) {
        return OPEN.computeIfAbsent(events, e -> {
            final ViewHotspots h = new ViewHotspots(e, machines);
            h.restoreWatches();
            final long interval = e.views().graph().configuration().getLong(INTERVAL_MILLIS, 0L);
            if (interval > 0) {
                h.start(interval);
            }
            return h;
        });
    }

    /** The hotspot migration open in this process for {@code events}' graph, or null. */
    public static ViewHotspots open(final ViewEvents events) {
        return OPEN.get(events);
    }

    /**
     * Watches here every view whose stored threshold says it is watched, and no other (a watch another process set or
     * removed is stored with the view). A catalog not readable yet (machines still starting) is read at the next
     * round.
     */
    private synchronized void restoreWatches() {
        try {
            for (final String view : views.names().keySet()) {
                final Object threshold = views.properties(view).get(THRESHOLD_PROPERTY);
                if (threshold instanceof Number) {
                    countHere(view, ((Number) threshold).doubleValue());
                }
            }
            for (final String view : new ArrayList<>(watches.keySet())) {
                if (stored(view) == null) {
                    stopCountingHere(view);
                }
            }
        } catch (RuntimeException e) {
            LOG.info("view hotspot watches not read yet ({}); read at the next round", e.getMessage());
        }
    }

    /** The threshold stored with {@code view}, or null when it has none or the view is gone. */
    private Double stored(final String view) {
        if (!views.exists(view)) {
            return null;
        }
        final Object threshold = views.properties(view).get(THRESHOLD_PROPERTY);
        return threshold instanceof Number ? ((Number) threshold).doubleValue() : null;
    }

    /**
     * Watches view {@code view}: from now on its reads are counted, and a round finding them at or above
     * {@code readsPerSecond} places its members where they are read. Watching again changes the threshold.
     */
    public synchronized void watch(final String view, final double readsPerSecond) {
        if (!(readsPerSecond > 0) || Double.isInfinite(readsPerSecond)) {
            throw new IllegalArgumentException("the threshold of view '" + view + "' is a positive number of reads "
                + "per second; got " + readsPerSecond);
        }
        views.property(view, THRESHOLD_PROPERTY, readsPerSecond); // an error naming the view when there is none
        if (countHere(view, readsPerSecond)) {
            machines.takeOtherReads(view); // every other process counts from now on
        }
    }

    /** Counts {@code view}'s reads in this process (or changes its threshold); true when it was not counted yet. */
    private boolean countHere(final String view, final double readsPerSecond) {
        final Watch w = watches.get(view);
        if (w != null) {
            w.threshold = readsPerSecond;
            return false;
        }
        final String name = SUBSCRIPTION_PREFIX + view;
        events.subscribe(name, view, EventKind.VERTEX_READ, EventKind.EDGE_READ, EventKind.PROPERTY_READ);
        final ViewReadCounter counter = new ViewReadCounter(machines.machineCount());
        events.handle(name, counter);
        watches.put(view, new Watch(counter, readsPerSecond));
        return true;
    }

    private void stopCountingHere(final String view) {
        final Watch w = watches.remove(view);
        if (w != null) {
            events.release(SUBSCRIPTION_PREFIX + view, w.counter);
        }
    }

    /**
     * This process's reads of watched view {@code view} since they were last taken, and zero from now on: reads per
     * reading machine, then how many of them were remote (what {@link HotspotMachines#takeOtherReads} gathers from
     * the other processes). A view watched elsewhere since is counted from now on (none yet); one no longer watched
     * stops being counted.
     *
     * @throws IllegalArgumentException when the view is not watched (naming it)
     */
    public synchronized long[] takeReads(final String view) {
        final Double threshold = stored(view);
        if (threshold == null) {
            stopCountingHere(view);
            throw new IllegalArgumentException("view '" + view + "' is not watched for hotspots");
        }
        return countHere(view, threshold) ? new long[machines.machineCount() + 1]
            : takeFlushed(watches.get(view).counter);
    }

    /**
     * {@code counter}'s counts once this process's event lanes handled every read event queued before now: a read's
     * event is queued before its GET returns, so counts taken after the readers stopped hold every read they made.
     * Taken at once, the last reads of a phase could land in the next round's counts (a round over server processes
     * counted 10 of the reads made before it moved a view's values as remote reads after it).
     */
    private long[] takeFlushed(final ViewReadCounter counter) {
        try {
            if (!events.flush(FLUSH_MILLIS)) {
                LOG.warn("the event lanes did not hand over every read within {} ms; the rest count in the next round",
                    FLUSH_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the caller is being stopped: take what was counted
        }
        return counter.take();
    }

    /** Stops watching {@code view} (durably); its values stay where the last round put them. */
    public synchronized void unwatch(final String view) {
        if (watches.remove(view) == null) {
            throw new IllegalArgumentException("view '" + view + "' is not watched: watched are " + watched().keySet());
        }
        events.unsubscribe(SUBSCRIPTION_PREFIX + view);
        if (views.exists(view)) {
            views.property(view, THRESHOLD_PROPERTY, null);
        }
        try {
            machines.takeOtherReads(view); // the other processes stop counting
        } catch (RuntimeException expected) {
            // Each answers that the view is not watched: that is the point.
        }
    }

    /** The watched views and their thresholds (reads per second). */
    public Map<String, Double> watched() {
        final Map<String, Double> out = new TreeMap<>();
        watches.forEach((v, w) -> out.put(v, w.threshold));
        return out;
    }

    /**
     * One round over every watched view: takes its counts, and places the members of each view found hot; waits for
     * the moves. Returns a report per watched view.
     *
     * @throws IllegalArgumentException on a multi-process cluster, in any process but the coordinator's (naming it)
     */
    public synchronized List<HotspotReport> runRound() {
        final String elsewhere = machines.roundsRunElsewhere();
        if (elsewhere != null) {
            throw new IllegalArgumentException(elsewhere);
        }
        restoreWatches(); // watches set or removed in other processes
        final List<HotspotReport> out = new ArrayList<>();
        for (final Map.Entry<String, Watch> e : new TreeMap<>(watches).entrySet()) {
            if (!views.exists(e.getKey())) {
                watches.remove(e.getKey()); // dropped meanwhile: its subscription went with it
                continue;
            }
            out.add(round(e.getKey(), e.getValue()));
        }
        return out;
    }

    private HotspotReport round(final String view, final Watch w) {
        final long now = System.nanoTime();
        final long[] counts = takeFlushed(w.counter);
        final long[] others = machines.takeOtherReads(view);
        for (int m = 0; m < counts.length; m++) {
            counts[m] += others[m];
        }
        final double seconds = Math.max(1e-9, (now - w.since) / 1e9);
        w.since = now;
        final long[] reads = java.util.Arrays.copyOf(counts, machines.machineCount());
        final long total = java.util.Arrays.stream(reads).sum();
        final double rate = total / seconds;
        final HotspotReport seen = new HotspotReport(view, reads, counts[counts.length - 1], rate, w.threshold, 0);
        if (!seen.hot()) {
            return seen;
        }
        final int moved = place(views.members(view), reads);
        return new HotspotReport(view, reads, counts[counts.length - 1], rate, w.threshold, moved);
    }

    /** Places {@code members} by {@code reads} and moves what is not where the plan says; returns values moved. */
    private int place(final long[] members, final long[] reads) {
        final int[] labels = views.graph().store().names().edgeLabels();
        final int per = MemberValues.perMember(labels.length);
        final LongArrayList keys = new LongArrayList(members.length * per, Long.MIN_VALUE);
        for (final long vid : members) {
            MemberValues.candidates(vid, labels, keys);
        }
        final long[] all = keys.toLongArray();
        final int[] at = hostsOf(all);
        final int[] hosts = new int[members.length];
        for (int i = 0; i < members.length; i++) {
            hosts[i] = at[i * per]; // the vertex record's host is the member's (-1, none: placed wherever quota is left)
        }
        final int[] to = HotspotPlacement.plan(reads, hosts);
        final long[] moving = new long[all.length];
        final int[] targets = new int[all.length];
        int n = 0;
        for (int k = 0; k < all.length; k++) {
            final int target = to[k / per];
            if (at[k] >= 0 && at[k] != target) {
                moving[n] = all[k];
                targets[n++] = target;
            }
        }
        return n == 0 ? 0 : machines.move(moving, targets, n, MOVE_PATIENCE_MILLIS);
    }

    /** The hosts of {@code keys}, asked in batches of at most {@link #BATCH} keys. */
    private int[] hostsOf(final long[] keys) {
        final int[] out = new int[keys.length];
        for (int from = 0; from < keys.length; from += BATCH) {
            final int n = Math.min(BATCH, keys.length - from);
            System.arraycopy(machines.hosts(java.util.Arrays.copyOfRange(keys, from, from + n), n), 0, out, from, n);
        }
        return out;
    }

    /** How many of view {@code view}'s members have their vertex record on each machine now (index = machine). */
    public int[] membersByHost(final String view) {
        final long[] members = views.members(view);
        final long[] keys = new long[members.length];
        for (int i = 0; i < members.length; i++) {
            keys[i] = GraphKeys.vertex(members[i]);
        }
        final int[] out = new int[machines.machineCount()];
        for (final int h : hostsOf(keys)) {
            if (h >= 0) {
                out[h]++;
            }
        }
        return out;
    }

    /** Runs a round every {@code intervalMillis} on a thread of its own until {@link #stop} or {@link #close}. */
    public void start(final long intervalMillis) {
        if (intervalMillis < 1) {
            throw new IllegalArgumentException("hotspot rounds need an interval of at least 1 ms; got " + intervalMillis);
        }
        stop(); // outside the lock: the old thread may be waiting for it to run its round
        synchronized (this) {
            startThread(intervalMillis);
        }
    }

    private void startThread(final long intervalMillis) {
        final long interval = TimeUnit.MILLISECONDS.toNanos(intervalMillis);
        thread = DutyThread.periodic("view-hotspots", interval, this::runRoundLogged);
        thread.start();
    }

    /** A round on the rounds' own thread: a failed round is logged, and the next one runs as usual. */
    private void runRoundLogged() {
        try {
            if (machines.roundsRunElsewhere() != null) {
                return; // every process may run the thread; only the coordinator's rounds (it may change)
            }
            runRound();
        } catch (RuntimeException e) {
            LOG.warn("a view hotspot round failed", e);
        }
    }

    /** Whether rounds run by themselves. */
    public synchronized boolean running() {
        return thread != null;
    }

    /** Stops the rounds' own thread (watches stay). */
    public void stop() {
        final DutyThread t;
        synchronized (this) {
            t = thread;
            thread = null;
        }
        if (t != null) {
            t.close();
        }
    }

    /** Stops the rounds and the counting here; watches stay stored, for the next {@link #of}. */
    @Override
    public void close() {
        OPEN.remove(events, this);
        stop();
        watches.forEach((view, w) -> events.release(SUBSCRIPTION_PREFIX + view, w.counter));
    }
}
