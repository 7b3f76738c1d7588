package io.pragh.fabric.fault;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A rule that holds the operations it selects until {@link #release}: the way to freeze a protocol between two of
 * its steps (a MIGRATE between its READ and its CAS, say) and run other operations in that window. A held one-sided
 * operation keeps its issuing thread (or, batched, its batch's completion) waiting; a held message is queued and
 * delivered, in order, on release; an operation of {@link FaultSelector#applyLateOnRelease} failed at its issuer
 * and lands, in order, on release. Once released the rule lets everything pass.
 *
 * <pre>{@code
 * HoldRule held = fabric.when().cas().batched().from(1).times(1).hold();
 * CompletableFuture<Migrator.Outcome> m = cluster.machine(1).migrateAsync(key);
 * held.awaitHeld(1, 10, TimeUnit.SECONDS);
 * // ... whatever must happen while the CAS is in flight ...
 * held.release();
 * }</pre>
 */
public final class HoldRule extends FaultRule {
    private final List<Runnable> heldMessages = new ArrayList<>();
    private boolean released;
    private int holding;
    private long everHeld;

    HoldRule(FaultFabric fabric, FaultSelector s) {
        this(fabric, s, FaultAction.HOLD);
    }

    HoldRule(FaultFabric fabric, FaultSelector s, FaultAction action) {
        super(fabric, s, action, 0, 0);
    }

    @Override
    synchronized boolean active() {
        return !released;
    }

    /** Blocks the calling thread until release; an interrupt ends the wait (and is kept). */
    void await() {
        synchronized (this) {
            holding++;
            everHeld++;
            notifyAll();
            try {
                while (!released) {
                    wait();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                holding--;
            }
        }
    }

    /** Queues a held message's delivery; false when already released (then the caller delivers it now). */
    synchronized boolean enqueue(Runnable delivery) {
        if (released) {
            return false;
        }
        heldMessages.add(delivery);
        everHeld++;
        notifyAll();
        return true;
    }

    /**
     * Waits until at least {@code count} operations or messages have been held since installation.
     *
     * @return false when the time ran out first
     */
    public synchronized boolean awaitHeld(long count, long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (everHeld < count) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    /** Operations held right now (threads waiting in this rule). */
    public synchronized int holding() {
        return holding;
    }

    /** Operations and messages held since installation. */
    public synchronized long everHeld() {
        return everHeld;
    }

    /** Lets every held operation go on and delivers held messages in order; later ones pass untouched. */
    public void release() {
        List<Runnable> deliveries;
        synchronized (this) {
            if (released) {
                return;
            }
            released = true;
            notifyAll();
            deliveries = new ArrayList<>(heldMessages);
            heldMessages.clear();
        }
        deliveries.forEach(Runnable::run);
    }

    @Override
    public void remove() {
        release();
        super.remove();
    }
}
