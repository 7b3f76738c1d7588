package io.pragh.store;

import io.pragh.address.Address;
import io.pragh.values.ValueRecord;

/**
 * Whether an update must wait for the operation before it on the same key ({@link UpdateProtocol}): for the record it
 * replaces to be settled (its own predecessor invalidated, its update logged, no other update holding it) or for a
 * DELETE's tombstone to be finished. No thread waits in place: an update that must wait is handed to
 * {@link DeferredUpdates}, which tries it again until it need not.
 *
 * <pre>{@code
 * long header = chunk.getLongVolatile(index);
 * if (PreviousUpdateChecks.pending(header, address)) {
 *     return DEFERRED;
 * }
 * }</pre>
 */
final class PreviousUpdateChecks {
    private final MachineStore machine;

    PreviousUpdateChecks(MachineStore machine) {
        this.machine = machine;
    }

    /** Whether the DELETE that installed {@code tombstone} has invalidated the record it removed (or it was reused). */
    boolean deleteFinished(long tombstone) {
        long header = machine.regions().readHeader(Address.host(tombstone, machine.id()),
            Address.byteOffset(tombstone));
        return !ValueRecord.isLive(header) || ValueRecord.generationOf(header) != Address.generation(tombstone);
    }

    /**
     * Whether the record {@code header} heads (the allocation {@code address} names) is still its publisher's
     * ({@link ValueRecord#INVALIDATION_PENDING}: its predecessor not yet invalidated, or its update not yet logged) or
     * held by another update ({@link ValueRecord#LOCKED}). Either is one operation's last steps, short unless its
     * thread died or its home stopped answering ({@link UncertainUpdates}), or a disk sync away. A slot that no
     * longer holds that allocation is not waited for.
     */
    static boolean pending(long header, long address) {
        return (header & (ValueRecord.INVALIDATION_PENDING | ValueRecord.LOCKED)) != 0
            && ValueRecord.isLiveAt(header, address);
    }
}
