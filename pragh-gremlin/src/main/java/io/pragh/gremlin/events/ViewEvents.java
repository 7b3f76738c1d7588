package io.pragh.gremlin.events;

import io.pragh.gremlin.events.Subscriptions.Subscription;
import io.pragh.gremlin.storage.ByteReader;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.storage.GraphMutations;
import io.pragh.gremlin.storage.PropertyField;
import io.pragh.gremlin.storage.VertexOps;
import io.pragh.gremlin.storage.ViewRecords;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.view.PraghViews;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;

/**
 * Event handlers on views (Concerto's): a named <em>subscription</em> says which view and which {@link EventKind}s;
 * it is durable (kept in the store, logged and recovered with the views). Handler code is Java handed to a
 * subscription in this process ({@link #handle}); after a restart the subscriptions are back and the embedder
 * hands its handlers to them again. Remote clients receive a view's events as a stream ({@code pragh.subscribe}).
 *
 * <p>Delivery: each committed update of a member (and, when subscribed, each GET of one) becomes one event, tapped
 * where it committed and handled on this process's event pool ({@link EventLanes}), never on a request's thread;
 * one vertex's events are handled one at a time in the order they committed on its machine. <b>Membership is as
 * of commit</b>: an update is delivered to the views its vertex was in when the update committed, whatever joins
 * or leaves happen before its handler runs. The tap reads it, without waiting, from a mirror of the membership
 * records that the taps keep in commit order ({@link MembershipMirror}); an update of a vertex in no subscribed view
 * is dropped at the tap. Three exceptions look membership up when the event is handled instead: events tapped before
 * the mirror's first scan is done, and, when machines run in other processes, the other end of an added edge (its
 * membership updates commit there) and a GET of another process's vertex (tapped at its reader).
 *
 * <p><b>Where an event fires</b>: in the process whose machine observed it. A GET at its reader. An update where it
 * committed: on an embedded cluster the machine its value is on (every machine is in this process); on a
 * multi-process cluster, whose machines are durable, the key's home once the home's log has it, also when the value
 * migrated to another process (the update runs there, and its host sends it to the home to log). A migrated member's
 * updates therefore fire at its home, against the home's exact mirror, whatever joins, leaves and migrations come;
 * an embedder hands its handlers to every process ({@code ViewEventsOfMigratedValuesTest}). A home may be told a
 * migrated value's update twice (its host sends the LOG again while the first append is slow), even after later
 * ones: the lanes drop a version at or below one delivered, so it is handled once ({@code ViewEventsOfRetoldLogsTest}).
 *
 * <p>A full lane drops and counts ({@link #dropped}); see {@link EventLanes} for
 * why. Bulk loads (the loader's direct installs) are not events.
 *
 * <p>Example:
 * <pre>{@code
 * ViewEvents events = ViewEvents.of(views);
 * events.subscribe("speeds", "paloAlto", EventKind.PROPERTY_UPDATE);
 * events.handle("speeds", (ViewHandler.PropertyUpdate) e -> System.out.println(e.vid() + " " + e.value()));
 * }</pre>
 */
public final class ViewEvents implements AutoCloseable {
    /**
     * Lanes of the event pool (system property {@code pragh.events.lanes}, default 32). Many more lanes than cores: a
     * handler that runs long (Concerto's incident analysis, tens of store reads) holds its lane, and every event
     * queued behind it on that lane waits, whatever its vertex. With 2 lanes that wait set the p99 of every event
     * (151 and 267 ms at 8,000 and 16,000 updates/s, {@code ./pragh bench views}); with 8, 24 and 40 ms on the same
     * host, but at 32,000 updates/s with 1% incidents 34-701 ms (median 247 of seven runs on a loaded host), where
     * 32 lanes, alternating with them, gave a median of 100 ms and 5-11 ms whenever the host did not starve the
     * process (docs/results/views.md); with almost no incidents, 8 lanes kept 32,000/s at 0.12 ms: the waits are
     * behind analyses. An idle lane is a parked thread and an empty queue. A vertex's events still share one lane,
     * so their order holds.
     */
    public static final int LANES = Integer.getInteger("pragh.events.lanes", 32);
    /** Capacity of each lane's queue (system property {@code pragh.events.queue}, default 65,536). */
    public static final int QUEUE = Integer.getInteger("pragh.events.queue", 65_536);
    /**
     * How the pool orders events (system property {@code pragh.events.ordering}): {@code lane} (the default: a
     * vertex's events hashed to one of {@link #LANES} lanes, each event behind whatever its lane holds) or
     * {@code element} ({@link #LANES} workers over {@link EventStrands}: each event behind only earlier events of its
     * own vertex's strand; {@link #QUEUE} times {@link #LANES} events queued in all). Both keep the guarantees: once
     * per committed update, in order per vertex, drop and count when full. {@code element} is not the default until an
     * A/B series on a quiet host shows it cuts the tail (docs/results/views.md).
     */
    public static final String ORDERING = System.getProperty("pragh.events.ordering", "lane");
    private static final Logger LOG = LoggerFactory.getLogger(ViewEvents.class);
    private static final Map<PraghGraph, ViewEvents> OPEN = new ConcurrentHashMap<>();

    /** One place events go: a subscription's handlers or a remote stream, with its view's bit. */
    private static final class Target {
        final String view;
        final long viewMask;
        final int kinds;
        final ViewHandler[] handlers;
        final RemoteStream stream;

        Target(final String view, final long viewMask, final int kinds, final ViewHandler[] handlers,
               final RemoteStream stream) {
            this.view = view;
            this.viewMask = viewMask;
            this.kinds = kinds;
            this.handlers = handlers;
            this.stream = stream;
        }
    }

    private final PraghViews views;
    private final GraphStore store;
    private final Map<String, Subscription> subscriptions = new ConcurrentHashMap<>();
    private final Map<String, List<ViewHandler>> handlers = new ConcurrentHashMap<>();
    private final List<RemoteStream> streams = new CopyOnWriteArrayList<>();
    /** Streams polled over the client port, by id ({@link #openPolled}). */
    private final Map<Long, RemoteStream> polled = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong polledIds = new java.util.concurrent.atomic.AtomicLong();
    private final EventPool lanes;
    private final MembershipMirror mirror = new MembershipMirror();
    private final EventTaps taps;
    private final LongAdder delivered = new LongAdder();
    private final LongAdder failures = new LongAdder();
    /** Whether the stored subscriptions have been read ({@link #ensureLoaded}). */
    private volatile boolean loaded;
    /** Rebuilt on every change of subscriptions, handlers or streams; read once per event by the lanes. */
    private volatile Target[] targets = new Target[0];
    /** Remote streams whose events are tapped: set once the taps want their kinds, so a caller may write then. */
    private volatile int streamsTapped;

    private ViewEvents(final PraghViews views, final int lanes, final int queue) {
        this.views = views;
        this.store = views.graph().store();
        this.lanes = EventPool.of(ORDERING, lanes, queue, this::dispatch);
        this.taps = new EventTaps(store, mirror, this.lanes::offer);
        views.graph().getServiceRegistry().registerService(new SubscribeService(this));
        try {
            ensureLoaded();
        } catch (RuntimeException e) {
            // The stored subscriptions and the view catalog may be homed on machines not up yet (a cluster whose
            // machines start together): read them on first use instead of failing this machine's start.
            LOG.info("view event subscriptions not read yet ({}); read on first use", e.getMessage());
        }
    }

    /** Reads the stored subscriptions once, before anything uses them (see the constructor for why not there). */
    private void ensureLoaded() {
        if (loaded) {
            return;
        }
        synchronized (this) {
            if (!loaded) {
                Subscriptions.load(store).forEach(subscriptions::putIfAbsent);
                mirror.seed(store); // the taps feed it already: what commits during the scan is folded in
                loaded = true;
                rebuild();
            }
        }
    }

    /**
     * The event handlers of {@code views}' graph in this process (one per graph: a second call answers the first's
     * while it is open), with the stored subscriptions loaded and the {@code pragh.subscribe} service registered.
     */
    public static ViewEvents of(final PraghViews views) {
        return OPEN.computeIfAbsent(views.graph(), g -> new ViewEvents(views, LANES, QUEUE));
    }

    public PraghViews views() {
        return views;
    }

    /**
     * Subscribes {@code name} to {@code kinds} of view {@code view} (replacing what {@code name} listened to), durably.
     * The view must exist; at least one kind is needed.
     */
    public void subscribe(final String name, final String view, final EventKind... kinds) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a subscription needs a non-empty name");
        }
        if (kinds.length == 0) {
            throw new IllegalArgumentException("subscription '" + name + "' needs at least one event kind: "
                + Arrays.toString(EventKind.values()));
        }
        ensureLoaded();
        views.id(view); // an error naming the view when there is none
        final Subscription s = new Subscription(view, Set.of(kinds));
        Subscriptions.put(store, name, s);
        subscriptions.put(name, s);
        rebuild();
    }

    /** Ends subscription {@code name} durably, and forgets its handlers here. */
    public void unsubscribe(final String name) {
        ensureLoaded();
        Subscriptions.remove(store, name);
        subscriptions.remove(name);
        handlers.remove(name);
        rebuild();
    }

    /** The subscriptions stored now: name to the view they listen to. */
    public Map<String, String> subscriptions() {
        ensureLoaded();
        final Map<String, String> out = new java.util.TreeMap<>();
        subscriptions.forEach((n, s) -> out.put(n, s.view));
        return out;
    }

    /** The kinds subscription {@code name} listens to. */
    public Set<EventKind> kinds(final String name) {
        return Set.copyOf(subscription(name).kinds);
    }

    /**
     * Runs {@code handler} for the events of subscription {@code name} in this process; it must implement the
     * interface of at least one kind the subscription listens to.
     */
    public void handle(final String name, final ViewHandler handler) {
        final Subscription s = subscription(name);
        if (s.kinds.stream().noneMatch(handler::takes)) {
            throw new IllegalArgumentException("the handler given to subscription '" + name + "' implements no"
                + " ViewHandler interface of the kinds it listens to, " + s.kinds);
        }
        handlers.computeIfAbsent(name, n -> new CopyOnWriteArrayList<>()).add(handler);
        rebuild();
    }

    /** Stops running {@code handler} for subscription {@code name} here (no-op when it was not handed to it). */
    public void release(final String name, final ViewHandler handler) {
        final List<ViewHandler> hs = handlers.get(name);
        if (hs != null && hs.remove(handler)) {
            rebuild();
        }
    }

    /** Events handed to a handler or a remote stream so far (one per target they reached). */
    public long delivered() {
        return delivered.sum();
    }

    /** Events dropped because a lane was full. */
    public long dropped() {
        return lanes.dropped();
    }

    /** Handler calls that threw. */
    public long failures() {
        return failures.sum();
    }

    /**
     * Waits until every event of an update acknowledged before this call has been handled (at most {@code millis});
     * returns whether it was. An update's event is queued before its writer is acknowledged, so after a write
     * returns and a flush, its handlers have run.
     */
    public boolean flush(final long millis) throws InterruptedException {
        return lanes.flush(millis);
    }

    RemoteStream open(final String view, final Set<EventKind> kinds, final int capacity) {
        ensureLoaded();
        views.id(view);
        final RemoteStream s = new RemoteStream(view, new Subscription(view, kinds).mask(), capacity);
        streams.add(s);
        rebuild();
        return s;
    }

    void close(final RemoteStream s) {
        streams.remove(s);
        rebuild();
    }

    /**
     * Opens a stream of {@code view}'s events of {@code kinds} for a client that polls it (the client port's
     * {@code SUBSCRIBE}); returns its id. Holds at most {@code capacity} events between polls (then drops and
     * counts, as a lane does). A stream not polled for {@link #POLLED_IDLE_MILLIS} is closed.
     */
    public long openPolled(final String view, final Set<EventKind> kinds, final int capacity) {
        closeIdlePolled();
        final long id = polledIds.incrementAndGet();
        polled.put(id, open(view, kinds, capacity));
        return id;
    }

    /** Up to {@code max} events of polled stream {@code id} queued now, oldest first; never waits. */
    public List<Map<String, Object>> poll(final long id, final int max) {
        final RemoteStream s = polled.get(id);
        if (s == null) {
            throw new IllegalArgumentException("no event stream " + id + " (closed, or idle for over "
                + POLLED_IDLE_MILLIS + " ms): subscribe again");
        }
        s.lastPolled = System.nanoTime();
        final List<Map<String, Object>> out = new ArrayList<>(Math.min(max, 1024));
        s.drainTo(out, max);
        closeIdlePolled();
        return out;
    }

    /**
     * A long poll of polled stream {@code id}: up to {@code max} events as soon as there is one, or an empty list
     * once {@code waitMillis} (at most {@link #MAX_POLL_WAIT_MILLIS}) passed without one. No thread waits meanwhile:
     * the lane that queues the next event completes the answer, or a timer does.
     */
    public CompletableFuture<List<Map<String, Object>>> poll(final long id, final int max, final long waitMillis) {
        final List<Map<String, Object>> now = poll(id, max);
        final RemoteStream s = polled.get(id);
        if (!now.isEmpty() || waitMillis <= 0 || s == null) {
            return CompletableFuture.completedFuture(now);
        }
        final CompletableFuture<List<Map<String, Object>>> answer = new CompletableFuture<>();
        final Runnable complete = () -> {
            s.lastPolled = System.nanoTime();
            final List<Map<String, Object>> out = new ArrayList<>();
            s.drainTo(out, max);
            answer.complete(out);
        };
        if (!s.await(complete)) {
            return CompletableFuture.completedFuture(now); // another poll of this stream waits already
        }
        if (!s.isEmpty()) {
            s.wake(complete); // an event came between the first drain and the parking
        }
        POLL_TIMER.schedule(() -> s.wake(complete), Math.min(waitMillis, MAX_POLL_WAIT_MILLIS), TimeUnit.MILLISECONDS);
        return answer;
    }

    /** The longest a long poll waits for an event (well below {@link #POLLED_IDLE_MILLIS}). */
    public static final long MAX_POLL_WAIT_MILLIS = 30_000;
    /** Ends long polls that saw no event: one daemon thread for every graph's streams. */
    private static final ScheduledExecutorService POLL_TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
        final Thread t = new Thread(r, "pragh-view-events-poll-timer");
        t.setDaemon(true);
        return t;
    });

    /** Closes polled stream {@code id} (no-op when it is gone). */
    public void closePolled(final long id) {
        final RemoteStream s = polled.remove(id);
        if (s != null) {
            close(s);
        }
    }

    /** How long a polled stream lives without a poll: a client that went away must not keep one filling. */
    public static final long POLLED_IDLE_MILLIS = 60_000;

    private void closeIdlePolled() {
        final long now = System.nanoTime();
        polled.forEach((id, s) -> {
            if (now - s.lastPolled > POLLED_IDLE_MILLIS * 1_000_000L) {
                closePolled(id);
            }
        });
    }

    /** The open event handlers of a graph whose machines include {@code machine} in this process, or null. */
    public static ViewEvents serving(final io.pragh.store.MachineStore machine) {
        for (final ViewEvents e : OPEN.values()) {
            if (e.store.localMachines().contains(machine)) {
                return e;
            }
        }
        return null;
    }

    /** Remote streams open now whose events are tapped (an update committed from now on reaches them). */
    public int remoteSubscribers() {
        return streamsTapped;
    }

    private Subscription subscription(final String name) {
        ensureLoaded();
        final Subscription s = subscriptions.get(name);
        if (s == null) {
            throw new IllegalArgumentException("no subscription '" + name + "': subscriptions are "
                + subscriptions.keySet());
        }
        return s;
    }

    private synchronized void rebuild() {
        final Map<String, Integer> ids = views.names();
        final List<Target> out = new ArrayList<>();
        int wanted = 0;
        long wantedViews = 0;
        for (final Map.Entry<String, Subscription> e : subscriptions.entrySet()) {
            final Integer view = ids.get(e.getValue().view);
            final List<ViewHandler> hs = handlers.getOrDefault(e.getKey(), List.of());
            if (view != null && !hs.isEmpty()) {
                out.add(new Target(e.getValue().view, 1L << view, e.getValue().mask(),
                    hs.toArray(new ViewHandler[0]), null));
                wanted |= e.getValue().mask();
                wantedViews |= 1L << view;
            }
        }
        for (final RemoteStream s : streams) {
            final Integer view = ids.get(s.view);
            if (view != null) {
                out.add(new Target(s.view, 1L << view, s.kinds, new ViewHandler[0], s));
                wanted |= s.kinds;
                wantedViews |= 1L << view;
            }
        }
        // Targets first, then the taps: an event tapped from now on finds the target it was tapped for.
        targets = out.toArray(new Target[0]);
        taps.want(wanted, wantedViews);
        streamsTapped = streams.size();
    }

    /**
     * On a lane: hands the event to every target of a view its vertex was in when it committed (looked up now only
     * when the tap could not tell: before the mirror was seeded, or an edge's other end on another process).
     */
    private void dispatch(final RawEvent r) {
        try {
            final Target[] ts = targets;
            if (ts.length == 0) {
                return;
            }
            long bits = r.bitsKnown ? r.bits : ViewRecords.bits(store.get(ViewRecords.members(r.vid)));
            if (bits != 0 && r.other >= 0) {
                bits &= ViewRecords.bits(store.get(ViewRecords.members(r.other)));
            }
            if (r.edgeLookup) {
                bits |= edgeMemberBits(r);
            }
            if (bits == 0) {
                return;
            }
            String property = null;
            Object value = null;
            if (r.kind == EventKind.PROPERTY_UPDATE && GraphKeys.kind(r.key) == GraphKeys.VERTEX) {
                final PropertyField f = VertexOps.added(r.arg);
                if (f != null) {
                    property = store.names().name(f.key);
                    value = f.value();
                }
            }
            for (final Target t : ts) {
                if ((bits & t.viewMask) == 0 || (t.kinds & r.kind.bit()) == 0) {
                    continue;
                }
                final ViewEvent e = new ViewEvent(r.kind, t.view, r.vid, r.key, r.version, property, value, r.nanos,
                    r.machine, r.host, views);
                for (final ViewHandler h : t.handlers) {
                    if (h.takes(r.kind)) {
                        try {
                            h.deliver(e);
                        } catch (RuntimeException failed) {
                            failures.increment();
                            LOG.warn("a handler of view '{}' failed on {}", t.view, e, failed);
                        }
                    }
                }
                if (t.stream != null) {
                    t.stream.offer(e);
                }
                delivered.increment();
            }
        } catch (RuntimeException unexpected) {
            failures.increment(); // e.g. the store closing under the lane: the lane goes on
            LOG.debug("a view event could not be delivered", unexpected);
        }
    }

    /**
     * The views holding, as an edge member, the edge an event concerns: the edge an edge property update or an edge
     * removal names, or any edge of the list or record read or otherwise written (one GET at the edge's home).
     */
    private long edgeMemberBits(final RawEvent r) {
        final byte[] record = store.get(ViewRecords.edgeMembers(r.vid));
        final int keyKind = GraphKeys.kind(r.key);
        if (r.arg != null && keyKind == GraphKeys.EDGE && r.mutatorId == GraphMutations.EDGE_PROPERTIES
            && r.arg.length >= 9) {
            return ViewRecords.edgeBitsOf(record, ByteReader.longAt(r.arg, 1)); // op, then the edge's number
        }
        if (r.arg != null && r.mutatorId == GraphMutations.REMOVE_EDGE && r.arg.length >= 8) {
            return ViewRecords.edgeBitsOf(record, ByteReader.longAt(r.arg, 0));
        }
        return ViewRecords.labelBitsOf(record, GraphKeys.label(r.key));
    }

    /** Stops tapping and handling (queued events are dropped); subscriptions stay stored. */
    @Override
    public void close() {
        OPEN.remove(views.graph(), this);
        taps.close();
        lanes.close();
    }
}
