package io.pragh.store;

import io.pragh.address.Address;
import io.pragh.values.ValueRecord;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * An update's waits for the operation before it on the same key ({@link UpdateProtocol}): for the record it replaces
 * to be settled (its own predecessor invalidated, its update logged, no other update holding it) and for a DELETE's
 * tombstone to be finished. Only {@link DeferredUpdates}' thread waits ({@link Session#mayWait}); every other thread
 * asks first ({@link #predecessorPending}, {@link #deleteFinished}) and hands the update over. A wait yields at first
 * (a settle without a log write takes microseconds) and then sleeps in short steps (one with a log write waits for a
 * disk sync, milliseconds, and should not take a core meanwhile); past its patience it fails retryably.
 *
 * <pre>{@code
 * long header = PreviousUpdateWaits.awaitPredecessorInvalidated(key, address, chunk, index);
 * }</pre>
 */
final class PreviousUpdateWaits {
    private static final long PENDING_PATIENCE_NANOS = 5_000_000_000L;
    /** How long a wait yields before it sleeps. */
    private static final long YIELD_NANOS = 50_000;
    private static final long SLEEP_NANOS = 20_000;

    private final MachineStore machine;

    PreviousUpdateWaits(MachineStore machine) {
        this.machine = machine;
    }

    /**
     * Waits until the DELETE that installed {@code tombstone} has invalidated the record it removed (or that record's
     * slot holds another allocation): from then on the deleter no longer needs the tombstone.
     *
     * @throws InvalidationPendingException (retryable: the insert did not take effect) when that takes too long
     */
    void awaitDeleteFinished(long key, long tombstone) {
        long deadline = System.nanoTime() + PENDING_PATIENCE_NANOS;
        while (!deleteFinished(tombstone)) {
            if (System.nanoTime() > deadline) {
                throw new InvalidationPendingException("insert of key " + key + " found its previous DELETE (of the"
                    + " record on machine " + Address.host(tombstone, machine.id()) + " at offset "
                    + Address.byteOffset(tombstone) + ") still not finished after "
                    + (PENDING_PATIENCE_NANOS / 1_000_000) + " ms");
            }
            pause(System.nanoTime() - (deadline - PENDING_PATIENCE_NANOS));
        }
    }

    /** One step of waiting that has gone on for {@code waitedNanos}: a yield at first, then a short sleep. */
    private static void pause(long waitedNanos) {
        if (waitedNanos < YIELD_NANOS) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(SLEEP_NANOS);
        }
    }

    /** Whether the DELETE that installed {@code tombstone} has invalidated the record it removed (or it was reused). */
    boolean deleteFinished(long tombstone) {
        long header = machine.regions().readHeader(Address.host(tombstone, machine.id()),
            Address.byteOffset(tombstone));
        return !ValueRecord.isLive(header) || ValueRecord.generationOf(header) != Address.generation(tombstone);
    }

    /**
     * Whether {@link #awaitPredecessorInvalidated} would wait: the record is pending or locked by another update. An
     * update on any thread but {@link DeferredUpdates}' is deferred instead ({@link Session#mayWait}).
     */
    static boolean predecessorPending(long address, UnsafeBuffer chunk, int index) {
        long header = chunk.getLongVolatile(index);
        return (header & (ValueRecord.INVALIDATION_PENDING | ValueRecord.LOCKED)) != 0
            && ValueRecord.isLiveAt(header, address);
    }

    /**
     * The header of the local record at {@code index} once the operation that published it has invalidated the
     * record it replaced ({@link ValueRecord#INVALIDATION_PENDING}) and no other update holds it
     * ({@link ValueRecord#LOCKED}); either is one operation's last steps, so this wait is short unless its thread
     * died or its home stopped answering ({@link UncertainUpdates}). A slot that no longer holds the allocation
     * {@code address} names is not waited for.
     */
    static long awaitPredecessorInvalidated(long key, long address, UnsafeBuffer chunk, int index) {
        long header = chunk.getLongVolatile(index);
        long deadline = 0;
        while ((header & (ValueRecord.INVALIDATION_PENDING | ValueRecord.LOCKED)) != 0
            && ValueRecord.isLiveAt(header, address)) {
            long now = System.nanoTime();
            if (deadline == 0) {
                deadline = now + PENDING_PATIENCE_NANOS;
            } else if (now > deadline) {
                throw new InvalidationPendingException("update of key " + key + " found its value's previous record"
                    + " still not invalidated after " + (PENDING_PATIENCE_NANOS / 1_000_000) + " ms");
            }
            // Yield, not spin: the publisher may be a thread waiting for this core. Past a short while the wait is
            // for a log write (a disk sync, milliseconds): sleep in short steps rather than take a core meanwhile.
            pause(now - (deadline - PENDING_PATIENCE_NANOS));
            header = chunk.getLongVolatile(index);
        }
        return header;
    }
}
