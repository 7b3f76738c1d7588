package io.pragh.gremlin.events;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * An event pool ordered per element only: every vertex's events go to one of {@link #STRANDS} strands (by a hash of
 * its id), and a few worker threads take whichever strand is ready. A strand is on at most one worker at a time, so a
 * vertex's events are handled one at a time in commit order; but an event waits only behind earlier events of its own
 * strand (1 in 4,096 vertices share it), not behind everything a lane holds: a long handler (an incident analysis)
 * holds its worker and its strand, and the other workers go on with every other strand. {@link EventLanes} is the
 * lane pool this is measured against.
 *
 * <p>The duplicate-version drop is per strand (a key belongs to one vertex, so to one strand); its map is confined to
 * the strand, handed from worker to worker through the strand's scheduled flag and the ready queue (see {@link Worker#run}).
 * Full means {@code capacity} events queued over all strands: the event is dropped and counted, never waited for
 * (the store thread that offers must not stall; see {@link EventLanes}).
 *
 * <p>Example: {@code EventStrands pool = new EventStrands(32, 2_097_152, dispatch); pool.offer(raw);}
 */
final class EventStrands implements EventPool {
    /** Strands per pool: a power of two, many more than workers, so two busy vertices rarely share one. */
    static final int STRANDS = 4096;
    /** Events a worker handles from one strand before it lets the others go first. */
    private static final int BATCH = 64;

    private final Strand[] strands = new Strand[STRANDS];
    private final Handled[] handled = new Handled[STRANDS];
    private final LinkedBlockingQueue<Strand> ready = new LinkedBlockingQueue<>();
    private final Worker[] workers;
    private final long capacity;
    /** Events offered and not yet taken by a worker, over all strands: the bound {@link #capacity} applies to it. */
    private final AtomicLong pending = new AtomicLong();
    private final LongAdder dropped = new LongAdder();
    private final Consumer<RawEvent> dispatch;

    EventStrands(final int workers, final long capacity, final Consumer<RawEvent> dispatch) {
        if (workers < 1 || capacity < 1) {
            throw new IllegalArgumentException("an event pool needs at least one worker and room for one event; got "
                + workers + " workers and room for " + capacity);
        }
        this.capacity = capacity;
        this.dispatch = dispatch;
        for (int i = 0; i < STRANDS; i++) {
            strands[i] = new Strand();
            handled[i] = strands[i].handled;
        }
        this.workers = new Worker[workers];
        for (int i = 0; i < workers; i++) {
            this.workers[i] = new Worker("pragh-view-events-" + i);
            this.workers[i].start();
        }
    }

    static int strandOf(final long vid) {
        return (int) ((vid * 0x9E3779B97F4A7C15L) >>> 17) & (STRANDS - 1);
    }

    @Override
    public void offer(final RawEvent e) {
        if (pending.incrementAndGet() > capacity) {
            pending.decrementAndGet();
            dropped.increment();
            return;
        }
        final Strand s = strands[strandOf(e.vid)];
        s.handled.queued.incrementAndGet();
        s.queue.offer(e);
        // After the event is in the queue: either this CAS sees the strand idle and schedules it, or the worker that
        // holds it sees the event when it re-checks the queue after marking it idle (both are volatile accesses).
        if (s.scheduled.compareAndSet(false, true)) {
            ready.offer(s);
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

    static boolean onWorker() {
        return Thread.currentThread() instanceof Worker;
    }

    @Override
    public void close() {
        Handled.stop(workers);
    }

    private static final class Strand {
        final ConcurrentLinkedQueue<RawEvent> queue = new ConcurrentLinkedQueue<>();
        /** Whether the strand is on the ready queue or on a worker: set by the offer that schedules it. */
        final AtomicBoolean scheduled = new AtomicBoolean();
        /** Confined to the worker holding the strand but for its counts: see {@link Handled}. */
        final Handled handled = new Handled();
    }

    private final class Worker extends Thread {
        Worker(final String name) {
            super(name);
            setDaemon(true);
        }

        @Override
        public void run() {
            try {
                while (true) {
                    final Strand s = ready.take(); // happens-after the offer (or worker) that put it there
                    int n = 0;
                    RawEvent e;
                    while (n < BATCH && (e = s.queue.poll()) != null) {
                        pending.decrementAndGet();
                        n++;
                        s.handled.handle(e, dispatch);
                    }
                    if (n == BATCH && !s.queue.isEmpty()) {
                        ready.offer(s); // still scheduled: its turn again after the strands already ready
                        continue;
                    }
                    // Release the strand (a volatile write, ordering this worker's writes to its map before whoever
                    // schedules it next), then re-check: an offer that found it still scheduled did not enqueue it.
                    s.scheduled.set(false);
                    if (!s.queue.isEmpty() && s.scheduled.compareAndSet(false, true)) {
                        ready.offer(s);
                    }
                }
            } catch (InterruptedException closing) {
                // closed: queued events are dropped with the pool
            }
        }
    }
}
