package io.pragh.gremlin.events;

import java.util.concurrent.ArrayBlockingQueue;
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
final class EventLanes implements EventPool {
    private final Lane[] lanes;
    private final Handled[] handled;
    private final LongAdder dropped = new LongAdder();

    EventLanes(final int count, final int capacity, final Consumer<RawEvent> dispatch) {
        if (count < 1 || capacity < 1) {
            throw new IllegalArgumentException("event lanes need at least one lane of capacity 1; got " + count
                + " lanes of " + capacity);
        }
        lanes = new Lane[count];
        handled = new Handled[count];
        for (int i = 0; i < count; i++) {
            lanes[i] = new Lane("pragh-view-events-" + i, capacity, dispatch);
            handled[i] = lanes[i].handled;
            lanes[i].start();
        }
    }

    /** Queues {@code e} on its vertex's lane, or drops and counts it when the lane is full. Never blocks. */
    @Override
    public void offer(final RawEvent e) {
        final Lane lane = lanes[(int) Long.remainderUnsigned(e.vid * 0x9E3779B97F4A7C15L >>> 17, lanes.length)];
        if (lane.queue.offer(e)) {
            lane.handled.queued.incrementAndGet();
        } else {
            dropped.increment();
        }
    }

    @Override
    public long dropped() {
        return dropped.sum();
    }

    @Override
    public boolean flush(final long millis) throws InterruptedException {
        return Handled.flush(handled, millis);
    }

    static boolean onLane() {
        return Thread.currentThread() instanceof Lane;
    }

    @Override
    public void close() {
        Handled.stop(lanes);
    }

    private static final class Lane extends Thread {
        final ArrayBlockingQueue<RawEvent> queue;
        /** Lane-confined but for its counts: see {@link Handled}. */
        final Handled handled = new Handled();
        private final Consumer<RawEvent> dispatch;

        Lane(final String name, final int capacity, final Consumer<RawEvent> dispatch) {
            super(name);
            setDaemon(true);
            this.queue = new ArrayBlockingQueue<>(capacity);
            this.dispatch = dispatch;
        }

        @Override
        public void run() {
            try {
                while (true) {
                    handled.handle(queue.take(), dispatch);
                }
            } catch (InterruptedException closing) {
                // closed: queued events are dropped with the pool
            }
        }
    }
}
