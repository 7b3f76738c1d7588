package io.pragh.store;

import io.pragh.LimitExceededException;
import io.pragh.values.ValueRecord;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.DirectBuffer;

/**
 * Writes whole values of keys that have none straight into their home's regions: one allocation, one record write and
 * one key insert per key, no update protocol, no message, no superseded copy. For bulk loading, where a loader builds
 * every value of a home (all of a vertex's adjacency entries at once) and hands them to that home's inserter, one
 * thread per home.
 *
 * <p>It keeps the write path's invariants:
 * <ul>
 *   <li>keys: a key is inserted only where the home's key region has no value for it, atomically with any other
 *       writer (the region's bucket lock and a CAS of the NONE word); when the key has a value already,
 *       {@link #insert} returns false and writes nothing, and the caller goes through the update protocol instead;</li>
 *   <li>versions: each record gets a fresh incarnation's first version ({@link Incarnations#nextFirstVersion}), as
 *       an update's first insert of a key does, so later updates and a restart sort after it;</li>
 *   <li>durability: on a machine with a write-ahead log each record is logged as a SET at its version and stays
 *       pending (unreadable) until the log has it, as an update's new record does; {@link #durable} completes when
 *       every record so far is;</li>
 *   <li>the location cache needs nothing: a cache holds addresses of keys that had a value, and a value loaded
 *       here is local to its home, so peers find it by the usual bucket read.</li>
 * </ul>
 *
 * <p>An inserter belongs to one thread (its session's gate stripe admits it) and one home machine.
 *
 * <pre>{@code
 * BulkInsert in = new BulkInsert(machine.store());
 * UnsafeBuffer value = new UnsafeBuffer(bytes);
 * if (!in.insert(key, value, 0, bytes.length)) {
 *     machine.update(key, Mutators.APPEND, bytes);   // the key has a value already: append through the protocol
 * }
 * in.durable().join();
 * }</pre>
 */
public final class BulkInsert {
    private final MachineStore store;
    private final ValueMutator set;
    private final AtomicLong notDurable = new AtomicLong();
    private final CompletableFuture<Void> allDurable = new CompletableFuture<>();
    private volatile Throwable logFailure;
    private boolean finished;
    private long inserted;
    private long bytes;

    public BulkInsert(MachineStore store) {
        this.store = store;
        this.set = store.mutators().get(Mutators.SET);
        notDurable.set(1); // the inserter's own count, dropped by durable()
    }

    /**
     * Installs {@code value} as the key's first value, as a record local to this home.
     *
     * @return true when installed; false when the key has a value (or a delete in progress) here: nothing written
     * @throws IllegalArgumentException when this machine is not the key's home, or the value is too large
     */
    public boolean insert(long key, DirectBuffer value, int offset, int length) {
        if (finished) {
            throw new IllegalStateException("this bulk inserter was finished by durable()");
        }
        if (store.placement().home(key) != store.id()) {
            throw new IllegalArgumentException("machine " + store.id() + " cannot bulk-insert key " + key
                + ": its home is machine " + store.placement().home(key));
        }
        if (length > store.config().maxValueBytes()) {
            throw new LimitExceededException("a bulk-loaded value of " + length + " bytes (key " + key + ") exceeds"
                + " the " + store.config().maxValueBytes() + "-byte value limit");
        }
        int stripe = store.session().gateStripe;
        store.gate().enter(stripe);
        try {
            return insertInside(key, value, offset, length);
        } finally {
            store.gate().exit(stripe);
        }
    }

    private boolean insertInside(long key, DirectBuffer value, int offset, int length) {
        long address = store.values().allocate(ValueRecord.unitsFor(length));
        long version = store.incarnations().nextFirstVersion();
        long slot;
        try {
            // Pending until settled: readers wait for (and the leak scan leaves alone) a record its writer may still
            // publish or, on a durable machine, a record the log does not have yet.
            store.regions().writeRecord(key, version, address, length, ValueRecord.INVALIDATION_PENDING, set, value, offset, -1,
                value, offset, length);
            // The store's CAS, not the CPU's: the machine may be serving, and a NIC's atomics may not be coherent
            // with this CPU's.
            slot = store.keys().insert(key, address, (s, expected, desired) ->
                store.regions().casAddress(store.id(), s, expected, desired));
        } catch (RuntimeException | Error e) {
            store.values().release(address);
            throw e;
        }
        if (slot < 0) {
            store.values().release(address);
            return false;
        }
        inserted++;
        bytes += length;
        CompletableFuture<Void> logged = store.acks().logLoaded(key, version, value, offset, length);
        if (logged.isDone() && !logged.isCompletedExceptionally()) {
            store.regions().settled(address, length);
            return true;
        }
        notDurable.incrementAndGet();
        logged.whenComplete((ok, failure) -> {
            if (failure == null) {
                store.regions().settled(address, length);
            } else {
                logFailure = failure;
            }
            countDown();
        });
        return true;
    }

    private void countDown() {
        if (notDurable.decrementAndGet() == 0) {
            Throwable f = logFailure;
            if (f == null) {
                allDurable.complete(null);
            } else {
                allDurable.completeExceptionally(f);
            }
        }
    }

    /**
     * Completes once every record inserted so far is durable (at once without a log), exceptionally when the log
     * refused one. The inserter takes no records after this call.
     */
    public CompletableFuture<Void> durable() {
        if (!finished) {
            finished = true;
            countDown();
        }
        return allDurable;
    }

    /** Keys installed by this inserter. */
    public long inserted() {
        return inserted;
    }

    /** Payload bytes installed by this inserter. */
    public long bytes() {
        return bytes;
    }
}
