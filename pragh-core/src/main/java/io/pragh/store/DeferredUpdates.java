package io.pragh.store;

import io.pragh.runtime.DutyThread;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.agrona.DirectBuffer;
import org.agrona.collections.LongHashSet;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Updates that must wait for their key's previous update ({@link PreviousUpdateChecks}): the value's previous record
 * still pending (its update not yet logged at the home) or locked by another update, or the key's previous DELETE
 * not yet finished, or its value put back at home from the log and still held there ({@link PutBackFence}). No
 * thread waits for that in place. The thread that delivers messages must not, since it also
 * delivers what ends the wait: a home whose delivery thread waited for a DELETE to finish would never take in the LOG
 * that finishes it (the chaos test with restarts saw updates time out by the handful, and a DELETE left unfinished).
 * A worker serving clients must not either: on a durable cluster the wait lasts until the previous update's log write
 * is synced to disk, milliseconds in which it would serve nobody. And this thread does not: it tries each update it
 * holds again, in passes, and applies the ones that need no longer wait, so a key whose previous update stays
 * unsettled for long (its home unreachable, its CAS's outcome unknown) holds up only its own later updates, not the
 * other keys' behind it. An update still waiting after {@link #PATIENCE_NANOS} is refused, retryably: it did not
 * take effect. The origin hears from each update as from any other. Started with the first one.
 *
 * <p>Per key, updates are applied in the order they were handed over: within a pass, once one of a key must still
 * wait, the key's later ones are not tried; and while one of a key is here every later update of that key comes
 * here too ({@link #holds}), behind it. So one thread's updates of a key take effect in the order it made them,
 * whichever of them had to wait.
 *
 * <pre>{@code
 * store.deferredUpdates().deferred();   // updates handed here so far
 * }</pre>
 */
public final class DeferredUpdates extends DutyThread {
    private static final Logger LOG = LoggerFactory.getLogger(DeferredUpdates.class);
    /** How long an update may wait here for its key's previous update to settle before it is refused. */
    static final long PATIENCE_NANOS = 5_000_000_000L;
    /** Without progress, a pass yields for this long (a settle without a log write takes microseconds) ... */
    private static final long YIELD_NANOS = 50_000;
    /** ... then sleeps in short steps (a log write waits for a disk sync, milliseconds: no core taken meanwhile) ... */
    private static final long SHORT_SLEEP_NANOS = 20_000;
    /** ... and past this, in longer ones (something is stuck: its home unreachable, or a CAS's outcome unknown). */
    private static final long STUCK_NANOS = 2_000_000;
    private static final long LONG_SLEEP_NANOS = 200_000;
    /** At most one report of a refusal per this long ({@link #report}): under a partition refusals come by the many. */
    private static final long REPORT_EVERY_NANOS = 10_000_000_000L;

    /** What applying the update again needs; {@code arg} is a copy, since the message that carried it is gone. */
    private record Entry(int origin, long request, long key, int mutatorId, byte[] arg, int hops, long since) {
    }

    private final MachineStore machine;
    private final UpdateProtocol updates;
    /** Handed over by any thread, taken in by this one. */
    private final ConcurrentLinkedQueue<Entry> arrivals = new ConcurrentLinkedQueue<>();
    /** This thread's only: the updates it holds, in the order they were handed over. */
    private final ArrayDeque<Entry> waiting = new ArrayDeque<>();
    /** This thread's only: the keys one of whose updates must still wait, in the current pass. */
    private final LongHashSet waitingKeys = new LongHashSet();
    /** How many updates of each key are held here: counted before an entry is queued, uncounted once it ended. */
    private final ConcurrentHashMap<Long, Integer> queuedKeys = new ConcurrentHashMap<>();
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicLong deferred = new AtomicLong();
    private long idleSince;
    /** When {@link #report} last logged, or 0. */
    private long reportedAt;

    DeferredUpdates(MachineStore machine, UpdateProtocol updates) {
        super("m" + machine.id() + "-deferred", TimeUnit.MILLISECONDS.toNanos(1));
        this.machine = machine;
        this.updates = updates;
    }

    /** Hands over an update that must wait for its key's previous update (or line up behind one held here). */
    void defer(int origin, long request, long key, int mutatorId, DirectBuffer arg, int argOff, int argLen,
               int hops) {
        byte[] copy = new byte[argLen];
        arg.getBytes(argOff, copy);
        // Counted before it is queued: from here on, later updates of the key line up behind it.
        queuedKeys.merge(key, 1, Integer::sum);
        arrivals.add(new Entry(origin, request, key, mutatorId, copy, hops, System.nanoTime()));
        deferred.incrementAndGet();
        if (started.compareAndSet(false, true)) {
            start();
        }
        wake();
        if (!isRunning() && machine.gate().isClosing()) {
            refuseArrivals(); // closed while this was handed over: nobody else will answer it
        }
    }

    /**
     * Whether an update of {@code key} is held here and has not ended: a later update of the key must then be handed
     * here too. Nothing is looked up (nor allocated) while none is held.
     */
    boolean holds(long key) {
        return !queuedKeys.isEmpty() && queuedKeys.containsKey(key);
    }

    /** Updates handed here so far. */
    public long deferred() {
        return deferred.get();
    }

    @Override
    protected int doWork() {
        Entry arrived;
        while ((arrived = arrivals.poll()) != null) {
            waiting.add(arrived);
        }
        if (waiting.isEmpty()) {
            idleSince = 0;
            return 0; // parks until the next arrival wakes it
        }
        int ended = pass();
        long now = System.nanoTime();
        if (ended > 0 || idleSince == 0) {
            idleSince = now;
        } else {
            pause(now - idleSince);
        }
        // Never 0 while updates wait here: their wait ends without anyone waking this thread.
        return Math.max(ended, 1);
    }

    /** Tries every held update whose key has no earlier one still waiting; returns how many ended. */
    private int pass() {
        int ended = 0;
        waitingKeys.clear();
        Session s = machine.session();
        for (Iterator<Entry> it = waiting.iterator(); it.hasNext() && isRunning(); ) {
            Entry e = it.next();
            if (waitingKeys.contains(e.key())) {
                continue; // behind an earlier update of its key: its turn comes after that one's
            }
            if (!tryApply(s, e)) {
                if (System.nanoTime() - e.since() < PATIENCE_NANOS) {
                    waitingKeys.add(e.key());
                    continue;
                }
                machine.acks().completeRetryable(e.origin(), e.request(), "update of key " + e.key() + " found the"
                    + " key's previous update still unsettled (its record pending or locked, or its DELETE"
                    + " unfinished), or its value still held at home after a restart (PutBackFence), after "
                    + (PATIENCE_NANOS / 1_000_000) + " ms; it did not take effect");
                report(e);
            }
            it.remove();
            uncount(e.key());
            ended++;
        }
        return ended;
    }

    /**
     * Logs a refusal, with what this machine's log has not written yet: a key's previous update that stays unsettled
     * for {@link #PATIENCE_NANOS} is a record whose home has not logged it (or a host that does not answer), and a
     * home's own record waits for nothing but its log's thread. A record of machine 2's own left pending behind an
     * interrupted Gremlin addV said nothing of why (GremlinAcrossProcessesTest beside a CPU hog).
     */
    private void report(Entry e) {
        long now = System.nanoTime();
        if (reportedAt != 0 && now - reportedAt < REPORT_EVERY_NANOS) {
            return;
        }
        reportedAt = now;
        UpdateLog log = machine.acks().updateLog();
        LOG.warn("machine {} refused an update of key {} from machine {}: the key's previous update was still"
            + " unsettled after {} ms{}", machine.id(), e.key(), e.origin(), PATIENCE_NANOS / 1_000_000,
            log == null ? "" : "; " + log.backlog());
    }

    /** Applies the update unless it must still wait; a closing machine refuses it (it ended either way). */
    private boolean tryApply(Session s, Entry e) {
        if (!machine.gate().tryEnter(s.gateStripe)) {
            refuse(e);
            return true;
        }
        try {
            return updates.applyIfSettled(s, e.origin(), e.request(), e.key(), e.mutatorId(),
                new UnsafeBuffer(e.arg()), 0, e.arg().length, e.hops());
        } finally {
            machine.gate().exit(s.gateStripe);
        }
    }

    /** A pass that ended nothing, {@code waitedNanos} after the last one that did: back off by how long it has been. */
    private static void pause(long waitedNanos) {
        if (waitedNanos < YIELD_NANOS) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(waitedNanos < STUCK_NANOS ? SHORT_SLEEP_NANOS : LONG_SLEEP_NANOS);
        }
    }

    @Override
    protected void onStop() {
        refuseArrivals();
        Entry e;
        while ((e = waiting.poll()) != null) {
            refuse(e);
            uncount(e.key());
        }
    }

    private void refuseArrivals() {
        Entry e;
        while ((e = arrivals.poll()) != null) {
            refuse(e);
            uncount(e.key());
        }
    }

    private void uncount(long key) {
        queuedKeys.computeIfPresent(key, (k, n) -> n == 1 ? null : n - 1);
    }

    private void refuse(Entry e) {
        machine.acks().complete(e.origin(), e.request(), "machine " + machine.id() + " closed before the update of key "
            + e.key() + " was applied; it did not take effect");
    }
}
