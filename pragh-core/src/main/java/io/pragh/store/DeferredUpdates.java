package io.pragh.store;

import io.pragh.runtime.DutyThread;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Updates that found something to wait for, on a thread that may not wait ({@link Session#mayWait}): the value's
 * previous record still pending (its update not yet logged at the home) or locked by another update, or the key's
 * previous DELETE not yet finished. The thread that delivers messages must not wait there, since it also delivers
 * what ends the wait: a home whose delivery thread waited for a DELETE to finish would never take in the LOG that
 * finishes it, and every message behind it would stall until the wait's patience ran out (the chaos test with
 * restarts saw updates time out by the handful, and a DELETE left unfinished). A worker serving clients must not
 * either: on a durable cluster the wait lasts until the previous update's log write is synced to disk, milliseconds
 * in which it would serve nobody (with clients writing the same keys, the workers spent most of their time yielding
 * in such waits). Such an update is applied again here, on a thread of its own, where it may wait; the origin hears
 * from it as from any update. Started with the first one.
 *
 * <p>Updates are applied in the order they were handed over, and while one of a key is here every later update of
 * that key comes here too ({@link #holds}), behind it: one thread's updates of a key take effect in the order it
 * made them, whichever of them had to wait.
 *
 * <pre>{@code
 * store.deferredUpdates().deferred();   // updates handed here so far
 * }</pre>
 */
public final class DeferredUpdates extends DutyThread {
    /** What applying the update again needs; {@code arg} is a copy, since the message that carried it is gone. */
    private record Entry(int origin, long request, long key, int mutatorId, byte[] arg, int hops) {
    }

    private final MachineStore machine;
    private final UpdateProtocol updates;
    private final ConcurrentLinkedQueue<Entry> queue = new ConcurrentLinkedQueue<>();
    /** How many updates of each key are queued here: counted before an entry is queued, uncounted once applied. */
    private final ConcurrentHashMap<Long, Integer> queuedKeys = new ConcurrentHashMap<>();
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicLong deferred = new AtomicLong();

    DeferredUpdates(MachineStore machine, UpdateProtocol updates) {
        super("m" + machine.id() + "-deferred", TimeUnit.MILLISECONDS.toNanos(1));
        this.machine = machine;
        this.updates = updates;
    }

    /** Hands over an update its delivery thread must not wait for. */
    void defer(int origin, long request, long key, int mutatorId, DirectBuffer arg, int argOff, int argLen,
               int hops) {
        byte[] copy = new byte[argLen];
        arg.getBytes(argOff, copy);
        // Counted before it is queued: from here on, later updates of the key line up behind it.
        queuedKeys.merge(key, 1, Integer::sum);
        queue.add(new Entry(origin, request, key, mutatorId, copy, hops));
        deferred.incrementAndGet();
        if (started.compareAndSet(false, true)) {
            start();
        }
        wake();
        if (!isRunning() && machine.gate().isClosing()) {
            refuseRemaining(); // closed while this was handed over: nobody else will answer it
        }
    }

    /**
     * Whether an update of {@code key} is queued here and not yet applied: a later update of the key must then be
     * handed here too. Nothing is looked up (nor allocated) while the queue is empty.
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
        int done = 0;
        Entry e;
        while (isRunning() && (e = queue.poll()) != null) {
            Session s = machine.session();
            s.mayWait = true; // this thread's session only: here an update waits in place
            if (!machine.gate().tryEnter(s.gateStripe)) {
                refuse(e);
                continue;
            }
            try {
                updates.apply(s, e.origin(), e.request(), e.key(), e.mutatorId(), new UnsafeBuffer(e.arg()), 0,
                    e.arg().length, e.hops());
            } finally {
                machine.gate().exit(s.gateStripe);
                uncount(e.key());
            }
            done++;
        }
        return done;
    }

    @Override
    protected void onStop() {
        refuseRemaining();
    }

    private void refuseRemaining() {
        Entry e;
        while ((e = queue.poll()) != null) {
            refuse(e);
        }
    }

    private void uncount(long key) {
        queuedKeys.computeIfPresent(key, (k, n) -> n == 1 ? null : n - 1);
    }

    private void refuse(Entry e) {
        uncount(e.key());
        machine.acks().complete(e.origin(), e.request(), "machine " + machine.id() + " closed before the update of key "
            + e.key() + " was applied; it did not take effect");
    }
}
