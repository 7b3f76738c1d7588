package io.pragh.gremlin.hotspot;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.MigrationControl;
import io.pragh.gremlin.events.EventKind;
import io.pragh.gremlin.events.ViewEvents;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.gremlin.view.PraghViews;
import io.pragh.migration.Migrator;
import io.pragh.runtime.DutyThread;
import org.agrona.collections.LongArrayList;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * View-driven hotspot migration (Concerto's): a watched view gets a read counter, a handler of its read events
 * ({@link ViewReadCounter}); every round (on a thread of its own, or when called) a view whose reads since its last
 * round reach its threshold (reads per second) has its members placed where they are read ({@link HotspotPlacement}:
 * in proportion to each machine's reads, so an evenly read view spreads evenly and a view read from one machine
 * gathers there), and every value of a member that is not on its machine yet is MIGRATEd there: values move, keys
 * stay at their hash home, and reads stay reads of the one current value (the split migration protocol's). With the
 * cluster's automatic migration on, each move is handed to its {@link MigrationControl} so the coordinator knows
 * where the value went. The watch is durable (a property of the view, with the read subscription); the graph's
 * embedder opens this again after a restart and the watches are back.
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
    private final EmbeddedCluster cluster;
    private final Map<String, Watch> watches = new ConcurrentHashMap<>();
    private DutyThread thread;

    private ViewHotspots(final ViewEvents events) {
        this.events = events;
        this.views = events.views();
        final GraphStore store = views.graph().store();
        if (!(store instanceof EmbeddedGraphStore)) {
            throw new IllegalArgumentException("view-driven migration moves values between the machines of an "
                + "embedded cluster; this graph's store is a " + store.getClass().getSimpleName());
        }
        this.cluster = ((EmbeddedGraphStore) store).cluster();
        views.graph().getServiceRegistry().registerService(new HotspotService(this));
    }

    /**
     * The hotspot migration of {@code events}' graph in this process (one per graph), with the watches stored in
     * its views back, and rounds running by themselves when the graph's configuration sets {@link #INTERVAL_MILLIS}.
     *
     * @throws IllegalArgumentException when the graph's store is not an embedded cluster
     */
    public static ViewHotspots of(final ViewEvents events) {
        return OPEN.computeIfAbsent(events, e -> {
            final ViewHotspots h = new ViewHotspots(e);
            h.restoreWatches();
            final long interval = e.views().graph().configuration().getLong(INTERVAL_MILLIS, 0L);
            if (interval > 0) {
                h.start(interval);
            }
            return h;
        });
    }

    private void restoreWatches() {
        for (final String view : views.names().keySet()) {
            final Object threshold = views.properties(view).get(THRESHOLD_PROPERTY);
            if (threshold instanceof Number) {
                watch(view, ((Number) threshold).doubleValue());
            }
        }
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
        final Watch w = watches.get(view);
        if (w != null) {
            w.threshold = readsPerSecond;
            return;
        }
        final String name = SUBSCRIPTION_PREFIX + view;
        events.subscribe(name, view, EventKind.VERTEX_READ, EventKind.EDGE_READ, EventKind.PROPERTY_READ);
        final ViewReadCounter counter = new ViewReadCounter(cluster.machineCount());
        events.handle(name, counter);
        watches.put(view, new Watch(counter, readsPerSecond));
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
     */
    public synchronized List<HotspotReport> runRound() {
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
        final long[] counts = w.counter.take();
        final double seconds = Math.max(1e-9, (now - w.since) / 1e9);
        w.since = now;
        final long[] reads = java.util.Arrays.copyOf(counts, cluster.machineCount());
        final long total = java.util.Arrays.stream(reads).sum();
        final double rate = total / seconds;
        final HotspotReport seen = new HotspotReport(view, total, counts[counts.length - 1], rate, w.threshold, 0);
        if (!seen.hot()) {
            return seen;
        }
        final int moved = place(views.members(view), reads);
        return new HotspotReport(view, total, counts[counts.length - 1], rate, w.threshold, moved);
    }

    /** Places {@code members} by {@code reads} and moves what is not where the plan says; returns values moved. */
    private int place(final long[] members, final long[] reads) {
        final int[] hosts = new int[members.length];
        for (int i = 0; i < members.length; i++) {
            final int h = MemberValues.host(cluster, GraphKeys.vertex(members[i]));
            hosts[i] = h >= 0 ? h : cluster.placement().home(GraphKeys.vertex(members[i]));
        }
        final int[] to = HotspotPlacement.plan(reads, hosts);
        final int[] labels = views.graph().store().names().edgeLabels();
        final MigrationControl control = cluster.migrationControl();
        final List<CompletableFuture<Migrator.Outcome>> moves = new ArrayList<>();
        for (int i = 0; i < members.length; i++) {
            final LongArrayList keys = MemberValues.keys(cluster, members[i], labels);
            for (int k = 0; k < keys.size(); k++) {
                final long key = keys.getLong(k);
                if (MemberValues.host(cluster, key) != to[i]) {
                    moves.add(control != null ? control.migrate(key, to[i])
                        : cluster.machine(to[i]).migrateAsync(key));
                }
            }
        }
        return await(moves);
    }

    private static int await(final List<CompletableFuture<Migrator.Outcome>> moves) {
        int moved = 0;
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MOVE_PATIENCE_MILLIS);
        for (final CompletableFuture<Migrator.Outcome> f : moves) {
            try {
                if (f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)
                    == Migrator.Outcome.MIGRATED) {
                    moved++;
                }
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                // The value stays where it was (a conflict, a closing machine): a later hot round tries again.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return moved;
    }

    /** How many of view {@code view}'s members have their vertex record on each machine now (index = machine). */
    public int[] membersByHost(final String view) {
        final int[] out = new int[cluster.machineCount()];
        for (final long vid : views.members(view)) {
            final int h = MemberValues.host(cluster, GraphKeys.vertex(vid));
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
