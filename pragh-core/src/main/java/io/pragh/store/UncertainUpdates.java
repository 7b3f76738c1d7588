package io.pragh.store;

import io.pragh.runtime.DutyThread;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Updates whose CAS of the home's address word failed without saying whether it took effect, and whose home did not
 * answer a second CAS either (see {@link UpdateProtocol}): they are settled here, on a thread of their own, once the
 * home answers. Until then the update's new record stays pending (or a delete's old record flagged), so the key's
 * other updates and its GETs wait, failing retryably after their patience, and the leak scan leaves the record alone.
 *
 * <p>Settled as won, the update is finished (old record invalidated and reclaimed, new one's pending bit cleared)
 * and acknowledged, or logged at its home first on a durable cluster; settled as lost, its new record is released and
 * it is refused retryably (it did not take effect). The origin hears the outcome when it is known; if it is still
 * unknown after {@link #ANSWER_WITHIN_NANOS}, the origin is told that, and the update is still settled, and logged if
 * it took effect, when the home answers again. Rare (a home cut off exactly between a CAS and its reply), so an
 * object per entry; the thread starts with the first one.
 *
 * <pre>{@code
 * store.uncertainUpdates().size();   // updates waiting for their home to answer
 * }</pre>
 */
public final class UncertainUpdates extends DutyThread {
    private static final Logger LOG = LoggerFactory.getLogger(UncertainUpdates.class);

    /** How long an origin may wait for the outcome before it is told the outcome is unknown. */
    static final long ANSWER_WITHIN_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long MIN_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    private static final long MAX_PERIOD_NANOS = TimeUnit.SECONDS.toNanos(2);

    /** What settling an update needs; {@code arg} is a copy, since the message that carried it is gone. */
    record Entry(int origin, long request, long key, int home, long slot, long expected, long desired, long fresh,
                 int length, long oldHeader, long version, int mutatorId, byte[] arg) {
    }

    private static final class Tracked {
        final Entry entry;
        final long sinceNanos = System.nanoTime();
        boolean answered;
        /** Settled as won: never CAS again (the word may have moved on), only finish and answer. */
        boolean won;

        Tracked(Entry entry) {
            this.entry = entry;
        }
    }

    private final MachineStore machine;
    private final UpdateProtocol updates;
    private final List<Tracked> entries = new ArrayList<>();
    private final AtomicBoolean started = new AtomicBoolean();
    private long nextAttemptNanos;
    private long periodNanos = MIN_PERIOD_NANOS;
    private volatile long settled;

    UncertainUpdates(MachineStore machine, UpdateProtocol updates) {
        super("m" + machine.id() + "-settle", MIN_PERIOD_NANOS);
        this.machine = machine;
        this.updates = updates;
    }

    void add(Entry e) {
        synchronized (entries) {
            entries.add(new Tracked(e));
        }
        if (started.compareAndSet(false, true)) {
            start();
        }
        wake();
    }

    /** Updates waiting for their home to answer. */
    public int size() {
        synchronized (entries) {
            return entries.size();
        }
    }

    /** Updates settled here so far (won or lost). */
    public long settled() {
        return settled;
    }

    @Override
    protected int doWork() {
        List<Tracked> todo;
        synchronized (entries) {
            if (entries.isEmpty() || System.nanoTime() - nextAttemptNanos < 0) {
                return 0;
            }
            todo = new ArrayList<>(entries);
        }
        int done = 0;
        for (Tracked t : todo) {
            if (settle(t)) {
                synchronized (entries) {
                    entries.remove(t);
                }
                done++;
            }
        }
        // Back off while the home keeps not answering: an unreachable machine is not asked a thousand times a second.
        periodNanos = done > 0 ? MIN_PERIOD_NANOS : Math.min(MAX_PERIOD_NANOS, 2 * periodNanos);
        nextAttemptNanos = System.nanoTime() + periodNanos;
        settled += done;
        return done;
    }

    /** Whether the entry is settled; never throws, so that one entry cannot stop the others or the thread. */
    private boolean settle(Tracked t) {
        Entry e = t.entry;
        try {
            int outcome = t.won ? UpdateProtocol.WON : updates.recas(e.home(), e.slot(), e.expected(), e.desired());
            if (outcome == UpdateProtocol.UNKNOWN) {
                if (!t.answered && System.nanoTime() - t.sinceNanos > ANSWER_WITHIN_NANOS) {
                    t.answered = true;
                    machine.acks().complete(e.origin(), e.request(), "update of key " + e.key() + " may or may not have"
                        + " taken effect: its home, machine " + e.home() + ", stopped answering during its CAS"
                        + " (it is settled when the home answers again)");
                }
                return false;
            }
            if (outcome == UpdateProtocol.WON) {
                t.won = true;
                // Safe to repeat if a step below fails: each step checks what it changes.
                updates.finishWon(e.key(), e.home(), e.slot(), e.expected(), e.desired(), e.fresh(), e.length());
                // Logged even if the origin was already told "unknown": the update took effect, so it must be durable.
                UnsafeBuffer arg = new UnsafeBuffer(e.arg());
                machine.acks().applied(e.home(), e.origin(), e.request(), e.key(), e.version(), e.mutatorId(), arg, 0,
                    e.arg().length, UpdateProtocol.published(e.expected(), e.fresh()), e.length());
            } else {
                updates.undo(e.key(), e.expected(), e.fresh(), e.oldHeader());
                if (!t.answered) {
                    machine.acks().completeRetryable(e.origin(), e.request(), "update of key " + e.key()
                        + " did not take effect: its CAS of the home's address word lost");
                }
            }
            return true;
        } catch (RuntimeException failure) {
            LOG.warn("machine {} could not settle an update of key {}: {}", machine.id(), e.key(), failure.toString());
            return false;
        }
    }
}
