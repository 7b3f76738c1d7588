package io.pragh.values;

import io.pragh.LimitExceededException;
import io.pragh.address.Address;
import org.agrona.DirectBuffer;

/**
 * Layout of a value record in a value region, 8-byte aligned:
 * <pre>
 *  word 0: | payload length: 32 bits | invalidation pending: 1 bit | record size in 8-byte units: 31 bits |
 *          zeroed on invalidation
 *  word 1: owning key
 *  word 2: version: | incarnation: 32 bits | updates since: 32 bits |
 *  payload, padded to 8 bytes
 * </pre>
 * A reader that fetched a record through an address checks that word 0's size equals the address's size and that
 * word 1 is the key it asked for; anything else means the address was stale (the record was invalidated, or the
 * slot it came from was reused) and the reader retries. The version orders one key's updates for the durable log:
 * every update sets it to the old version + 1 on whichever machine hosts the value, and an insert starts a new
 * incarnation from its home's counter, so versions grow across deletes too. Static methods over any buffer: no
 * object per record.
 *
 * <p>{@link #INVALIDATION_PENDING} is set from the moment a PUT or MIGRATE publishes a record (its CAS) until that
 * operation has invalidated the record it replaced. Nobody replaces or migrates a record while the bit is set, so
 * every record's predecessors are invalid before the record itself can be replaced: once an update is
 * acknowledged, no older record of its key is valid anywhere, however many machines the value passed through.
 * Readers ignore the bit (the record is the current value).
 */
public final class ValueRecord {
    public static final int HEADER_BYTES = 24;
    public static final int KEY_OFFSET = 8;
    public static final int VERSION_OFFSET = 16;
    /** Header bit: the operation that published this record has not yet invalidated the one it replaced. */
    public static final long INVALIDATION_PENDING = 1L << 31;
    private static final long UNITS_MASK = INVALIDATION_PENDING - 1;

    private ValueRecord() {
    }

    /** Record size in 8-byte units for a payload, or a {@link LimitExceededException} naming the limit. */
    public static long unitsFor(long payloadLength) {
        if (payloadLength < 0) {
            throw new IllegalArgumentException("payload length must be >= 0, got " + payloadLength);
        }
        long units = (HEADER_BYTES + payloadLength + 7) >>> 3;
        if (units > Address.MAX_LOCAL_UNITS || payloadLength > 0xFFFF_FFFFL) {
            throw new LimitExceededException("value of " + payloadLength + " bytes exceeds the limit of "
                + (Address.MAX_LOCAL_BYTES - HEADER_BYTES) + " bytes (4 GiB record, 29-bit size in 8-byte units)");
        }
        return units;
    }

    public static long headerWord(long payloadLength, long units) {
        return (payloadLength << 32) | units;
    }

    public static long unitsOf(long headerWord) {
        return headerWord & UNITS_MASK;
    }

    public static boolean isInvalidationPending(long headerWord) {
        return (headerWord & INVALIDATION_PENDING) != 0;
    }

    public static int payloadLengthOf(long headerWord) {
        return (int) (headerWord >>> 32);
    }

    /** First version of a key's incarnation number {@code incarnation}. */
    public static long firstVersion(long incarnation) {
        return incarnation << 32;
    }

    public static long incarnationOf(long version) {
        return version >>> 32;
    }

    /** Whether a copied record is the live value of {@code key} at {@code address}. */
    public static boolean isValid(DirectBuffer record, int index, long address, long key) {
        long header = record.getLong(index);
        return unitsOf(header) == Address.sizeUnits(address) && record.getLong(index + KEY_OFFSET) == key;
    }
}
