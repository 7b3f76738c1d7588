package io.pragh.gremlin.structure;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A graph's duty of reclaiming what dead sealers left ({@link SegmentSealer#sweep}): every
 * {@link SegmentSealer#SWEEP_MILLIS}, on a daemon thread of its own, over the lists homed on this process's machines.
 * Appenders take over a list on their own when they find its tail long; the sweep is for lists nobody appends to any
 * more (a supernode whose sealer crashed, then lost edges), whose orphaned segment would otherwise hold its bytes for
 * good. A sweep that fails (a machine down) is logged and tried again next time.
 *
 * <pre>{@code
 * SegmentSweeper sweeper = SegmentSweeper.start(graph);   // null when the configuration says 0
 * sweeper.close();
 * }</pre>
 */
final class SegmentSweeper implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SegmentSweeper.class);

    private final ScheduledExecutorService thread;

    private SegmentSweeper(final GraphStore store, final SegmentSealer sealer, final long everyMillis) {
        // A duty thread: its reads of the lists it sweeps are no view's read events (DutyReads).
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> DutyReads.newThread(r,
            "pragh-segment-sweeper"));
        thread.scheduleWithFixedDelay(() -> sweep(store, sealer), everyMillis, everyMillis, TimeUnit.MILLISECONDS);
    }

    /** Starts sweeping {@code graph}'s home lists, or returns null when its configuration turns the sweep off. */
    static SegmentSweeper start(final PraghGraph graph) {
        final long every = SegmentSealer.sweepMillis(graph);
        return every == 0 ? null : new SegmentSweeper(graph.store(), SegmentSealer.of(graph), every);
    }

    private void sweep(final GraphStore store, final SegmentSealer sealer) {
        if (store.isClosed()) {
            // Another graph over the same store closed it: nothing is left to sweep, and nobody will close us.
            thread.shutdown();
            return;
        }
        try {
            final int reclaimed = sealer.sweep();
            if (reclaimed > 0) {
                LOG.info("reclaimed {} segment(s) that dead or stalled sealers left", reclaimed);
            }
        } catch (RuntimeException e) {
            LOG.warn("the sweep for orphaned supernode segments failed; tried again in one period: {}", e.toString());
        }
    }

    /** Whether the sweep stopped: closed, or its store closed under it. */
    boolean stopped() {
        return thread.isShutdown();
    }

    /** Stops the sweep; one under way is interrupted between store operations (it is safe to stop anywhere). */
    @Override
    public void close() {
        thread.shutdownNow();
    }
}
