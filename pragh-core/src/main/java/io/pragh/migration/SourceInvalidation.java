package io.pragh.migration;

import io.pragh.PraghException;
import io.pragh.address.Address;
import io.pragh.fabric.Region;
import io.pragh.memory.ChunkedRegion;
import io.pragh.reclaim.Leases;
import io.pragh.store.MachineStore;
import io.pragh.values.ValueRecord;

/**
 * The last step of a migration whose CAS of the home's word won: invalidate the source record, and carry over to the
 * new record whatever appends in place added to the source after the migration copied it. Such an append is possible
 * because a migration copies without locking the source: an appender that found the source through an address read
 * before the migration's CAS (or a cached one) may still grow it (see {@link ValueRecord}, "Appends in place"), and
 * it acknowledges its append once the length is published. The new record is still pending meanwhile (no GET returns
 * it, nothing updates it), so once the source is invalid and the new record holds the source's last length, it holds
 * every acknowledged append and may be settled.
 *
 * <p>Carried first, invalidated after: the bytes above the new record's length are read from the source, the source's
 * header is read again and must still be the one whose length they complete (no byte below a published length is
 * written again while the allocation lives, and a reused slot has another generation), the new record takes that
 * length, and only then does a CAS invalidate the source, expecting that same header. So whatever becomes of the CAS
 * (won, lost to a further append and tried again, or taking effect with its reply lost), the new record already holds
 * everything the source held when it was invalidated, and a later pass that finds the source invalid has nothing left
 * to carry. No one but this migration invalidates a source whose new record is pending: the leak scan counts such a
 * source as named ({@code io.pragh.store.LeakScanner}).
 *
 * <p>A source that is pending is not invalidated (a durable append waits for its log, or a delete for its CAS): it
 * is waited for a while, then the caller is told to try again later (the settle pass of
 * {@link UnfinishedMigrations}). A source that is only locked is: its update has not taken effect, and now never
 * will (a replacement's CAS of the home's word loses, an append's publishing CAS finds the record invalid).
 *
 * <pre>{@code
 * int outcome = SourceInvalidation.invalidate(store, source, oldAddress, newAddress, witnessOrZero);
 * }</pre>
 */
final class SourceInvalidation {
    /** This call invalidated the source; the new record has everything it held. */
    static final int INVALIDATED = 0;
    /** The source was no longer that live allocation: invalidated earlier, by a CAS of this migration's. */
    static final int ALREADY_INVALID = 1;
    /** The source is pending (an update holds it): try again later. */
    static final int BUSY = 2;
    /**
     * As {@link #INVALIDATED}, and the source had read replicas ({@link ValueRecord#REPLICATED}): the new record may
     * settle only once their lease has run out ({@link #awaitReplicas}).
     */
    static final int INVALIDATED_REPLICATED = 3;

    /** How long a pending source is waited for before the caller is told to come back later. */
    private static final long BUSY_PATIENCE_NANOS = 100_000_000L;

    private SourceInvalidation() {
    }

    /**
     * @param header the source's header as last seen (a failed CAS's witness), or 0 to read it
     * @return {@link #INVALIDATED}, {@link #INVALIDATED_REPLICATED}, {@link #ALREADY_INVALID} or {@link #BUSY}
     * @throws io.pragh.fabric.FabricException when the source does not answer (nothing is lost: the next pass
     *     carries and invalidates again)
     */
    static int invalidate(MachineStore store, int source, long oldAddress, long newAddress, long header) {
        long offset = Address.byteOffset(oldAddress);
        if (header == 0) {
            header = store.regions().readHeader(source, offset);
        }
        long deadline = 0;
        while (true) {
            if (!ValueRecord.isLiveAt(header, oldAddress)) {
                return ALREADY_INVALID;
            }
            if (ValueRecord.isInvalidationPending(header)) {
                // Never waits for this migration: a delete finding its CAS lost, or a durable append waiting for its
                // log. The first is short; give up on the second after a while.
                long now = System.nanoTime();
                if (deadline == 0) {
                    deadline = now + BUSY_PATIENCE_NANOS;
                } else if (now > deadline) {
                    return BUSY;
                }
                Thread.yield();
                header = store.regions().readHeader(source, offset);
                continue;
            }
            long seen = carryOver(store, source, oldAddress, newAddress, header);
            if (seen != header) {
                header = seen; // grew (or was locked, or invalidated) while its bytes were read: again
                continue;
            }
            long witness = store.regions().casHeader(source, offset, header, ValueRecord.invalidated(header));
            if (witness == header) {
                return ValueRecord.isReplicated(header) ? INVALIDATED_REPLICATED : INVALIDATED;
            }
            header = witness;
        }
    }

    /**
     * Gives the new record (still pending, so nobody reads it yet) the source's bytes and length as {@code header}
     * states them, if the source is still at {@code header} once they are read.
     *
     * @return the source's header after the bytes were read: {@code header} when the new record now holds them
     */
    private static long carryOver(MachineStore store, int source, long oldAddress, long newAddress, long header) {
        ChunkedRegion values = store.values().region();
        long at = Address.byteOffset(newAddress);
        long fresh = values.getLongVolatile(at);
        int copied = ValueRecord.payloadLengthOf(fresh);
        int finalLength = ValueRecord.payloadLengthOf(header);
        if (finalLength <= copied) {
            return header;
        }
        if (!ValueRecord.isLiveAt(fresh, newAddress) || !ValueRecord.isInvalidationPending(fresh)) {
            throw new PraghException("migration's new record at " + at + " is no longer pending while its source"
                + " still had appends to carry over");
        }
        int from = ValueRecord.HEADER_BYTES + copied;
        long payloadAt = at + from;
        store.endpoint().read(source, Region.VALUES, Address.byteOffset(oldAddress) + from,
            values.chunkFor(payloadAt), values.indexInChunk(payloadAt), finalLength - copied);
        long after = store.regions().readHeader(source, Address.byteOffset(oldAddress));
        if ((after & ~ValueRecord.LOCKED) != (header & ~ValueRecord.LOCKED)) {
            return after;
        }
        // Release: the carried bytes before the length that covers them; still pending until the caller settles.
        values.putLongVolatile(at, ValueRecord.headerWord(finalLength, newAddress) | ValueRecord.INVALIDATION_PENDING);
        return header;
    }

    /**
     * Before a migration's new record settles: if the source it invalidated had read replicas ({@code replicated}),
     * or nobody knows (the source was found invalid already, perhaps by this migration's own CAS whose reply was
     * lost), wait until no replica granted before can be read: the host of the source, whose registry lists them,
     * is not the machine the value moved to, so nobody would invalidate them (docs/replicas.md).
     */
    static void awaitReplicas(MachineStore store, boolean replicated, boolean unknown) {
        store.replication().registry().awaitUntil(replicaDeadline(store, replicated, unknown));
    }

    /**
     * As {@link #awaitReplicas}, but only says until when ({@link Leases#nowMillis} time, 0: no wait), so that a
     * round of migrations waits once, until the latest of its keys' deadlines, rather than once per key in turn
     * (which kept the last key of a round with k replicated sources pending k leases).
     */
    static long replicaDeadline(MachineStore store, boolean replicated, boolean unknown) {
        return replicated || (unknown && store.replication().settings().enabled())
            ? Leases.nowMillis() + store.replication().registry().waitMillis() : 0;
    }
}
