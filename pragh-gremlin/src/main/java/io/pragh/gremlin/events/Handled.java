package io.pragh.gremlin.events;

import org.agrona.collections.Long2LongHashMap;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The bookkeeping of one queue of an event pool (a lane of {@link EventLanes}, a strand of {@link EventStrands}): how
 * many events were queued and handled (for {@link #flush}), and the newest version delivered per key, to drop a
 * version told again. Handled by one thread at a time (a lane's own, or the worker holding a strand, handed over
 * with a happens-before edge), so the map needs no lock.
 *
 * <p>Example: {@code handled.queued.incrementAndGet(); ... handled.handle(e, dispatch);}
 */
final class Handled {
    final AtomicLong queued = new AtomicLong();
    /** Written by the one thread handling this queue at a time; volatile so {@link #flush} sees it. */
    private volatile long done;
    private final Long2LongHashMap lastVersion = new Long2LongHashMap(-1L);

    /** Hands {@code e} to {@code dispatch} unless its version was delivered already; counts it handled either way. */
    void handle(final RawEvent e, final Consumer<RawEvent> dispatch) {
        try {
            if (e.version == 0 || newest(e.key, e.version)) {
                dispatch.accept(e);
            }
        } finally {
            done = done + 1; // release: after the event was handled
        }
    }

    /**
     * Whether {@code version} is above every version of {@code key} delivered here, and if so, remembers it. Not
     * merely "not the last one": a durable home is told a version again when the value's host (a migrated value's)
     * sent its LOG again while the first append was slow, and the first append's completion can come after the
     * repeat's and after later updates of the key (v1, v2, then v1 again). A key's versions only grow and its updates
     * are observed in commit order, so an older version is a repeat, as the membership mirror also takes it.
     */
    private boolean newest(final long key, final long version) {
        if (version <= lastVersion.get(key)) {
            return false;
        }
        lastVersion.put(key, version);
        return true;
    }

    /**
     * Waits until every event queued on {@code all} before this call has been handled (or {@code millis} passed);
     * returns whether it was. Events queued meanwhile may or may not be handled by then.
     */
    static boolean flush(final Handled[] all, final long millis) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (final Handled h : all) {
            final long target = h.queued.get();
            while (h.done < target) {
                if (System.nanoTime() > deadline) {
                    return false;
                }
                Thread.sleep(1);
            }
        }
        return true;
    }

    /** Interrupts {@code threads} (a pool's), then waits up to 5 s for each: queued events go with the pool. */
    static void stop(final Thread[] threads) {
        for (final Thread t : threads) {
            t.interrupt();
        }
        for (final Thread t : threads) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
