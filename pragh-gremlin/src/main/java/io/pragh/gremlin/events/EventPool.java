package io.pragh.gremlin.events;

import java.util.function.Consumer;

/**
 * Where the taps hand committed events and which threads run the handlers: {@link EventLanes} (a vertex's events
 * hashed to one of a few lanes, each behind whatever its lane holds) or {@link EventStrands} (each event behind only
 * earlier events of its own vertex's strand). Both handle each committed update once, in order per vertex, drop and
 * count when full, and never block the offering store thread.
 *
 * <p>Example: {@code EventPool pool = EventPool.of("element", 32, 65_536, dispatch); pool.offer(raw);}
 */
interface EventPool extends AutoCloseable {
    /** Queues {@code e}, or drops and counts it when full. Never blocks. */
    void offer(RawEvent e);

    /** Events dropped because the pool was full. */
    long dropped();

    /** Waits until every event queued before this call was handled, or {@code millis} passed; whether it was. */
    boolean flush(long millis) throws InterruptedException;

    @Override
    void close();

    /** Whether the calling thread is one of a pool's handler threads (taps do not tell events of handlers' reads). */
    static boolean onPoolThread() {
        return EventLanes.onLane() || EventStrands.onWorker();
    }

    /**
     * The pool for ordering {@code ordering}: {@code lane} ({@code threads} lanes of {@code capacity} each) or
     * {@code element} ({@code threads} workers over {@link EventStrands#STRANDS} strands, {@code capacity} times
     * {@code threads} queued events in all, the same total bound).
     */
    static EventPool of(final String ordering, final int threads, final int capacity,
                        final Consumer<RawEvent> dispatch) {
        return switch (ordering) {
            case "lane" -> new EventLanes(threads, capacity, dispatch);
            case "element" -> new EventStrands(threads, (long) threads * capacity, dispatch);
            default -> throw new IllegalArgumentException("pragh.events.ordering is 'lane' or 'element'; got '"
                + ordering + "'");
        };
    }
}
