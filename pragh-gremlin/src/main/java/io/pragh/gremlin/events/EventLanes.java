package io.pragh.gremlin.events;

import org.agrona.collections.Long2LongHashMap;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * The event pool of one process: a few lane threads, each with a bounded queue; every event of one vertex goes to
 * the same lane (by a hash of its id), so one vertex's events are handled one at a time, in the order its updates
 * committed on its machine. A lane drops a version of a key at or below one it delivered (a durable home may be told
 * of one version twice, even after later ones), so each committed update is handled once.
 *
 * <p><b>When a lane's queue is full, the event is dropped and counted</b> ({@link #dropped}), never waited for:
 * taps run on the store's own threads, at the moment an update commits, and back-pressure there would stall every
 * update of the machine behind a slow handler; worse, a handler that writes the store (view properties) would wait
 * for a store thread that waits for its lane. A bounded loss that is counted and reported keeps the store's latency
 * independent of handler code; a subscriber that must not miss anything sizes the queues for its bursts and
 * watches {@link #dropped}.
 *
 * <p>Example: {@code EventLanes lanes = new EventLanes(2, 65_536, dispatch); lanes.offer(raw);}
 */
final class EventLanes implements AutoCloseable {
    private final Lane[] lanes;
    private final LongAdder dropped = new LongAdder();

    EventLanes(final int count, final int capacity, final Consumer<RawEvent> dispatch) {
        if (count < 1 || capacity < 1) {
            throw new IllegalArgumentException("event lanes need at least one lane of capacity 1; got " + count
                + " lanes of " + capacity);
        }
        lanes = new Lane[count];
        for (int i = 0; i < count; i++) {
            lanes[i] = new Lane("pragh-view-events-" + i, capacity, dispatch);
            lanes[i].start();
        }
    }

    /** Queues {@code e} on its vertex's lane, or drops and counts it when the lane is full. Never blocks. */
    void offer(final RawEvent e) {
        final Lane lane = lanes[(int) Long.remainderUnsigned(e.vid * 0x9E3779B97F4A7C15L >>> 17, lanes.length)];
        if (lane.queue.offer(e)) {
            lane.queued.incrementAndGet();
        } else {
            dropped.increment();
        }
    }

    long dropped() {
        return dropped.sum();
    }

    /**
     * Waits until every event queued before this call has been handled (or {@code millis} passed); returns whether
     * it was. Events queued meanwhile may or may not be handled by then.
     */
    boolean flush(final long millis) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (final Lane lane : lanes) {
            final long target = lane.queued.get();
            while (lane.done < target) {
                if (System.nanoTime() > deadline) {
                    return false;
                }
                Thread.sleep(1);
            }
        }
        return true;
    }

    static boolean onLane() {
        return Thread.currentThread() instanceof Lane;
    }

    @Override
    public void close() {
        for (final Lane lane : lanes) {
            lane.interrupt();
        }
        for (final Lane lane : lanes) {
            try {
                lane.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static final class Lane extends Thread {
        final ArrayBlockingQueue<RawEvent> queue;
        final AtomicLong queued = new AtomicLong();
        /** Written by this lane only; volatile so {@link #flush} sees it (release after the event was handled). */
        volatile long done;
        /** Lane-confined: the newest version delivered per key, to drop a version told again ({@link #newest}). */
        private final Long2LongHashMap lastVersion = new Long2LongHashMap(-1L);
        private final Consumer<RawEvent> dispatch;

        Lane(final String name, final int capacity, final Consumer<RawEvent> dispatch) {
            super(name);
            setDaemon(true);
            this.queue = new ArrayBlockingQueue<>(capacity);
            this.dispatch = dispatch;
        }

        /**
         * Whether {@code version} is above every version of {@code key} this lane delivered, and if so, remembers it.
         * Not merely "not the last one": a durable home is told a version again when the value's host (a migrated
         * value's) sent its LOG again while the first append was slow, and the first append's completion can come
         * after the repeat's and after later updates of the key (v1, v2, then v1 again). A key's versions only grow
         * and its updates are observed in commit order, so an older version is a repeat, as the membership mirror
         * also takes it.
         */
        private boolean newest(final long key, final long version) {
            if (version <= lastVersion.get(key)) {
                return false;
            }
            lastVersion.put(key, version);
            return true;
        }

        @Override
        public void run() {
            try {
                while (true) {
                    final RawEvent e = queue.take();
                    try {
                        if (e.version == 0 || newest(e.key, e.version)) {
                            dispatch.accept(e);
                        }
                    } finally {
                        done = done + 1;
                    }
                }
            } catch (InterruptedException closing) {
                // closed: queued events are dropped with the pool
            }
        }
    }
}
