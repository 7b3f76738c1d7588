package io.pragh.store;

import io.pragh.address.Address;
import io.pragh.values.ValueRecord;
import java.lang.invoke.VarHandle;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * An APPEND (any {@linkplain ValueMutator#appendedLength appending mutator}) written into the slack of the record it
 * grows, on the machine that hosts it: no new record, no copy of the list, no superseded record for the GC, and the
 * address word unchanged; at the key's home only (see {@link ValueRecord}, "Appends in place", for why). The update
 * protocol calls it once it holds the record's lock ({@link ValueRecord#LOCKED}, set by CAS of the header) and has
 * checked that the appended bytes fit the record's size class. The ordering that keeps every reader's copy whole
 * (bytes first, then the length by a releasing CAS; readers acquire the header before the rest) is laid out in
 * {@link ValueRecord}, "Appends in place".
 *
 * <p>The append takes effect at the CAS that publishes the new length; its version is the old one plus the bytes
 * appended (word 2 is never written in place). On a durable cluster the record keeps its pending bit until the key's
 * home has logged the append, exactly as a new record would ({@link UpdateAcknowledgements#applied}).
 *
 * <pre>{@code
 * long version = appends.append(session, key, address, chunk, index, header, mutator, arg, 0, 8);
 * }</pre>
 */
final class InPlaceAppend {
    private final MachineStore machine;

    InPlaceAppend(MachineStore machine) {
        this.machine = machine;
    }

    /**
     * Appends into the record at {@code chunk[index]}, which this thread locked from {@code header} (live, neither
     * pending nor locked) to {@code header | LOCKED}, and which has room for the appended bytes.
     *
     * @return the new version, or {@link UpdateProtocol#FORWARDED} when a migration invalidated the record while
     *     it was locked (the append then did not take effect, and the caller goes round again to the key's new host)
     */
    long append(Session s, long key, long address, UnsafeBuffer chunk, int index, long header, ValueMutator mutator,
                DirectBuffer arg, int argOff, int argLen) {
        long locked = header | ValueRecord.LOCKED;
        int curLen = ValueRecord.payloadLengthOf(header);
        int length = curLen + mutator.appendedLength(arg, argOff, argLen);
        try {
            // Plain writes above every length published so far: no reader uses these bytes until the CAS below.
            mutator.writeAppended(arg, argOff, argLen, chunk, index + ValueRecord.HEADER_BYTES + curLen);
        } catch (RuntimeException | Error e) {
            machine.regions().casHeader(machine.id(), Address.byteOffset(address), locked, header);
            throw e;
        }
        // Still locked, so no replica can be granted meanwhile: none of the old length stays usable once the new one
        // is published (the published header drops REPLICATED).
        machine.replication().registry().invalidateReplicas(key);
        long published = ValueRecord.headerWord(length, address)
            | (machine.acks().durable() ? ValueRecord.INVALIDATION_PENDING : 0);
        // Release (the fence, and a volatile CAS; the fence for a loopback CAS through a NIC): whoever reads this
        // length, locally or one-sidedly, reads the bytes it covers. A CAS rather than a store: a migration that
        // moved the record on may have invalidated it meanwhile.
        VarHandle.releaseFence();
        if (machine.regions().casHeader(machine.id(), Address.byteOffset(address), locked, published) != locked) {
            s.dropCached(key, address);
            return UpdateProtocol.FORWARDED;
        }
        machine.stats().local(length - curLen);
        s.published = address;
        s.publishedLength = length;
        return ValueRecord.version(chunk, index, published);
    }
}
