package io.pragh.runtime;

import java.util.concurrent.locks.LockSupport;

/**
 * How one consumer thread waits for work that other threads hand it: it spins for a few microseconds, then yields
 * the core for a few tens of microseconds, and only then parks until a producer {@link #signal signals} it. In the
 * manner of Agrona's {@code BackoffIdleStrategy}, with one difference that matters here: the park is not a timed
 * poll but a sleep that the producer ends, so a consumer that has gone to sleep wakes on the first offer rather than
 * after a park period.
 *
 * <p>Why not park at once: a request and its acknowledgement each cross a thread here (a message to the home
 * machine's delivery thread, the acknowledgement back through the sender's), and a parked thread takes some 10-30 us
 * on this class of VM to be woken and scheduled, so two hand-offs per acknowledged write cost 10-20x the emulated
 * wire time. A thread that has just handled a message is likely to get the next one within microseconds (a load, a
 * pipelined client); one that waited 50 us is idle, and spinning longer would only take a core from others (on two
 * cores, it would). The yields keep a busy machine usable: a spinning consumer gives its core to any runnable thread.
 *
 * <p>Thread-safety: one consumer calls {@link #idle} and {@link #reset}; any thread calls {@link #signal}. The
 * consumer must re-check its queue after {@link #idle} returns; a signal may also end a park that had no reason
 * (spurious wake-ups are allowed, as for {@link LockSupport#park}).
 *
 * <pre>{@code
 * SpinYieldPark idle = new SpinYieldPark(Thread.currentThread());
 * while (running) {
 *     Message m = queue.poll();
 *     if (m == null) { idle.idle(queue::isEmpty); continue; }
 *     idle.reset();
 *     handle(m);
 * }
 * // producer: queue.offer(m); idle.signal();
 * }</pre>
 */
public final class SpinYieldPark {
    /** Spinning this long after the last work costs one core's microseconds and catches back-to-back requests. */
    public static final long SPIN_NANOS = 5_000;
    /** Yielding until this long after the last work: another thread runs if it can, and we come back soon. */
    public static final long YIELD_NANOS = 250_000;
    /** A parked consumer re-checks after this even without a signal: a lost signal would cost this, not a hang. */
    private static final long PARK_NANOS = 100_000_000;

    /** Whether a wait beyond the yield phase is useful at all: with one core, a spin only delays the producer. */
    private static final boolean MULTI_CORE = Runtime.getRuntime().availableProcessors() > 1;

    /** A test the consumer gives {@link #idle} so that it re-checks its queue after announcing it will sleep. */
    @FunctionalInterface
    public interface Emptiness {
        boolean isEmpty();
    }

    private final Thread consumer;
    /**
     * Set by the consumer before it parks, read by every producer after it offered: both volatile, so either the
     * producer sees the flag (and unparks) or the consumer's re-check sees the offer (Dekker's pattern: the pair of
     * volatile write-then-read on each side cannot both miss).
     */
    private volatile boolean sleeping;
    /** When the consumer last had work (plain: only the consumer thread reads and writes it). */
    private long lastWorkNanos = System.nanoTime();

    public SpinYieldPark(Thread consumer) {
        this.consumer = consumer;
    }

    /** The consumer had work: the next wait starts spinning again. */
    public void reset() {
        lastWorkNanos = System.nanoTime();
    }

    /** One step of waiting for the consumer: a spin, a yield or a park, by how long it has found no work. */
    public void idle(Emptiness queue) {
        long idleFor = System.nanoTime() - lastWorkNanos;
        if (MULTI_CORE && idleFor < SPIN_NANOS) {
            Thread.onSpinWait();
        } else if (idleFor < YIELD_NANOS) {
            Thread.yield();
        } else {
            sleeping = true;
            try {
                if (queue.isEmpty()) {
                    LockSupport.parkNanos(this, PARK_NANOS);
                }
            } finally {
                sleeping = false;
            }
        }
    }

    /**
     * After offering work: wakes the consumer if it is parked or about to be.
     *
     * @return whether it did: a producer with several consumers of one queue wakes the first that sleeps
     */
    public boolean signal() {
        if (sleeping) {
            LockSupport.unpark(consumer);
            return true;
        }
        return false;
    }

    /**
     * Waits for {@code done} by spinning and yielding only, up to the yield phase of a consumer: for a thread that
     * expects an answer within microseconds and will block (with its own timeout) if it does not come.
     *
     * @return whether {@code done} held before the spin and yield phases ended
     */
    public static boolean spinYieldUntil(java.util.function.BooleanSupplier done) {
        long start = System.nanoTime();
        while (!done.getAsBoolean()) {
            long waited = System.nanoTime() - start;
            if (waited >= YIELD_NANOS) {
                return false;
            }
            if (MULTI_CORE && waited < SPIN_NANOS) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
        return true;
    }
}
