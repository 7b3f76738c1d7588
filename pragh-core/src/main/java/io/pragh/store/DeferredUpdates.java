package io.pragh.store;

import io.pragh.runtime.DutyThread;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Updates delivered by message that found something to wait for: the value's previous record still pending (its
 * update not yet logged at the home), or the key's previous DELETE not yet finished. The thread that delivers
 * messages must not wait there, since it also delivers what ends the wait: a home whose delivery thread waited for a
 * DELETE to finish would never take in the LOG that finishes it, and every message behind it would stall until the
 * wait's patience ran out (the chaos test with restarts saw updates time out by the handful, and a DELETE left
 * unfinished). Such an update is applied again here, on a thread of its own, where it may wait as a client's thread
 * does; the origin hears from it as from any update. Started with the first one.
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
            if (!machine.gate().tryEnter(s.gateStripe)) {
                refuse(e);
                continue;
            }
            try {
                // Not a delivery thread: apply may wait here, with the patience a client's thread has.
                updates.apply(s, e.origin(), e.request(), e.key(), e.mutatorId(), new UnsafeBuffer(e.arg()), 0,
                    e.arg().length, e.hops());
            } finally {
                machine.gate().exit(s.gateStripe);
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

    private void refuse(Entry e) {
        machine.acks().complete(e.origin(), e.request(), "machine " + machine.id() + " closed before the update of key "
            + e.key() + " was applied; it did not take effect");
    }
}
