package io.pragh.gremlin.events;

import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The events of one view on their way to one remote subscriber ({@code pragh.subscribe}): a bounded queue the lanes
 * fill (full: the event is dropped and counted, as on the lanes, so a slow client never stalls a lane) and the
 * serving thread drains into the response stream (Gremlin), or the client drains by polling (the client port,
 * {@link ViewEvents#openPolled}). Lives while the subscriber's request streams, or until polls stop.
 */
final class RemoteStream {
    final String view;
    final int kinds;
    private final ArrayBlockingQueue<Map<String, Object>> queue;
    private final LongAdder dropped = new LongAdder();
    /**
     * A polling client's answer waiting for the next event (a long poll), or null: run once, by whoever takes it
     * out first (the lane offering an event, the poll's own re-check, or its timeout).
     */
    private final AtomicReference<Runnable> waiter = new AtomicReference<>();
    /** When a polling client last drained it ({@code System.nanoTime()}); unused by a Gremlin stream. */
    volatile long lastPolled = System.nanoTime();

    RemoteStream(final String view, final int kinds, final int capacity) {
        this.view = view;
        this.kinds = kinds;
        this.queue = new ArrayBlockingQueue<>(capacity);
    }

    void offer(final ViewEvent e) {
        if (!queue.offer(e.toMap())) {
            dropped.increment();
        }
        wake(waiter.get());
    }

    /**
     * Parks {@code answer} until an event is queued (then it runs once); returns false, parking nothing, when another
     * answer waits already. The caller checks the queue after parking, since an event may have come just before.
     */
    boolean await(final Runnable answer) {
        return waiter.compareAndSet(null, answer);
    }

    /** Runs {@code answer} if it is still the one waiting (a timeout's wake of an answer run already does nothing). */
    void wake(final Runnable answer) {
        if (answer != null && waiter.compareAndSet(answer, null)) {
            answer.run();
        }
    }

    boolean isEmpty() {
        return queue.isEmpty();
    }

    /** The next event, or null when none came within {@code millis}. */
    Map<String, Object> poll(final long millis) throws InterruptedException {
        return queue.poll(millis, TimeUnit.MILLISECONDS);
    }

    /** Moves up to {@code max} queued events to {@code out} without waiting; returns how many. */
    int drainTo(final java.util.Collection<Map<String, Object>> out, final int max) {
        return queue.drainTo(out, max);
    }

    long dropped() {
        return dropped.sum();
    }
}
