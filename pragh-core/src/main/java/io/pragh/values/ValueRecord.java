package io.pragh.values;

import io.pragh.LimitExceededException;
import io.pragh.address.Address;
import io.pragh.address.SizeClasses;
import org.agrona.DirectBuffer;

/**
 * Layout of a value record in a value region, 8-byte aligned:
 * <pre>
 *  word 0, the header:
 *    bit 63             32   31   30   29   28       27   26    22 21            8 7          0
 *       | payload length | P  | L  | F  | unused | D  | unused | generation: 14 | class: 8   |
 *  word 1: owning key (while free: the next free record of the class)
 *  word 2: version: | incarnation: 32 bits | updates since: 32 bits |
 *  payload, padded to 8 bytes
 * </pre>
 * The generation and the size class are those of the allocation, and stay in the header for as long as the slot
 * exists: free, allocated, live or invalidated. The flags say which:
 * <ul>
 *   <li><b>L</b> (live): the record holds a value that an address word names, or is about to name. Invalidation
 *       clears it (and the length, and P), keeping generation and class: {@link #invalidated}.</li>
 *   <li><b>F</b> (free): the slot is on its class's free list. Freeing a record that was published advances the
 *       generation, so an address of the record that was freed never matches the slot again
 *       ({@link Address#nextGeneration}).</li>
 *   <li><b>P</b> ({@link #INVALIDATION_PENDING}): see below.</li>
 *   <li><b>D</b> ({@link #DELETING}): set with P by a DELETE on the record it removes, and cleared with it.</li>
 * </ul>
 * A reader that fetched a record through an address accepts it only when it is live, its generation and class are the
 * address's, and word 1 is the key it asked for ({@link #isValid}); anything else means the address is stale (the
 * record was invalidated, or the slot freed and handed out again) and the reader retries. The version orders one
 * key's updates for the durable log: every update sets it to the old version + 1 on whichever machine hosts the
 * value, and an insert starts a new incarnation from its home's counter, so versions grow across deletes too. Static
 * methods over any buffer: no object per record.
 *
 * <p>{@link #INVALIDATION_PENDING} is set from the moment a PUT or MIGRATE publishes a record (its CAS), and on a new
 * record from its allocation, until that operation has invalidated the record it replaced (or, for a record not yet
 * published, until its CAS outcome is settled). Nobody replaces or migrates a record while the bit is set, so every
 * record's predecessors are invalid before the record itself can be replaced: once an update is acknowledged, no
 * older record of its key is valid anywhere, however many machines the value passed through. A GET that finds the
 * bit waits for it to clear before returning the record (linearizable GET: a GET through an older cached address
 * could still find the predecessor valid meanwhile), and the leak scan never takes a record with the bit set for
 * leaked: its operation is still deciding whether the record is published. A DELETE sets the bit on the record it
 * removes before its CAS, for the same reasons, and {@link #DELETING} with it ({@link #deleting}): the record's own
 * publisher settles it by a CAS from its pending header, and on a durable cluster that settle can come late (a LOG
 * its host sent twice, the first delayed): without a mark of its own, the DELETE's pending header equals the
 * publisher's, the late settle clears the DELETE's bit, and the host stops sending the DELETE's LOG while the key
 * reads as a tombstone whose DELETE never finishes.
 */
public final class ValueRecord {
    public static final int HEADER_BYTES = 24;
    public static final int KEY_OFFSET = 8;
    public static final int VERSION_OFFSET = 16;
    /** Header bit: the operation that published this record has not yet invalidated the one it replaced. */
    public static final long INVALIDATION_PENDING = 1L << 31;
    /** Header bit, only with {@link #INVALIDATION_PENDING}: a DELETE removes the record and is not yet settled. */
    public static final long DELETING = 1L << 27;
    /** Header bit: the record holds a value (not invalidated, not free). */
    public static final long LIVE = 1L << 30;
    /** Header bit: the slot is on its class's free list. */
    public static final long FREE = 1L << 29;
    private static final int GENERATION_SHIFT = 8;
    private static final long CLASS_MASK = 0xFF;
    private static final long GENERATION_MASK = (long) Address.MAX_GENERATION << GENERATION_SHIFT;
    /** The bits a slot keeps whatever its state: generation and class. */
    private static final long IDENTITY_MASK = GENERATION_MASK | CLASS_MASK;

    private ValueRecord() {
    }

    /** Record size in 8-byte units for a payload, or a {@link LimitExceededException} naming the limit. */
    public static long unitsFor(long payloadLength) {
        if (payloadLength < 0) {
            throw new IllegalArgumentException("payload length must be >= 0, got " + payloadLength);
        }
        long units = (HEADER_BYTES + payloadLength + 7) >>> 3;
        if (units > SizeClasses.MAX_UNITS) {
            throw new LimitExceededException("value of " + payloadLength + " bytes exceeds the limit of "
                + (Address.MAX_RECORD_BYTES - HEADER_BYTES) + " bytes (1 GiB record: the largest size class of an"
                + " address word, and the largest value region chunk)");
        }
        return units;
    }

    /** The header of a live record of {@code payloadLength} bytes at the allocation {@code address} names. */
    public static long headerWord(long payloadLength, long address) {
        return (payloadLength << 32) | LIVE | identityOf(address);
    }

    /** Generation and class of an allocation, as a header holds them. */
    static long identityOf(long address) {
        return ((long) Address.generation(address) << GENERATION_SHIFT) | Address.sizeClass(address);
    }

    /** The header of a slot that is allocated but holds no live record (yet, or any more). */
    static long allocatedHeader(int generation, int sizeClass) {
        return ((long) generation << GENERATION_SHIFT) | sizeClass;
    }

    /** The header of a slot on its free list. */
    static long freeHeader(int generation, int sizeClass) {
        return FREE | allocatedHeader(generation, sizeClass);
    }

    /** The header a record has once invalidated: not live, not pending, same generation and class. */
    public static long invalidated(long headerWord) {
        return headerWord & IDENTITY_MASK;
    }

    public static boolean isLive(long headerWord) {
        return (headerWord & LIVE) != 0;
    }

    public static boolean isFree(long headerWord) {
        return (headerWord & FREE) != 0;
    }

    public static boolean isInvalidationPending(long headerWord) {
        return (headerWord & INVALIDATION_PENDING) != 0;
    }

    /** The header a DELETE gives the live record it removes, until it is settled: pending, and marked as deleted. */
    public static long deleting(long headerWord) {
        return headerWord | INVALIDATION_PENDING | DELETING;
    }

    public static boolean isDeleting(long headerWord) {
        return (headerWord & DELETING) != 0;
    }

    /** The header without the flags of an operation that has not settled yet (P, D). */
    public static long settledForm(long headerWord) {
        return headerWord & ~(INVALIDATION_PENDING | DELETING);
    }

    public static int payloadLengthOf(long headerWord) {
        return (int) (headerWord >>> 32);
    }

    public static int generationOf(long headerWord) {
        return (int) ((headerWord & GENERATION_MASK) >>> GENERATION_SHIFT);
    }

    public static int sizeClassOf(long headerWord) {
        return (int) (headerWord & CLASS_MASK);
    }

    /** Record units of the header's size class. */
    public static long unitsOf(long headerWord) {
        return SizeClasses.units(sizeClassOf(headerWord));
    }

    /** Whether the header is that of a live record of the allocation {@code address} names (pending or not). */
    public static boolean isLiveAt(long headerWord, long address) {
        return (headerWord & (LIVE | FREE | IDENTITY_MASK)) == (LIVE | identityOf(address));
    }

    /** Whether the slot's header is still the allocation {@code address} names (live or not, but not free). */
    public static boolean isSameAllocation(long headerWord, long address) {
        return (headerWord & (FREE | IDENTITY_MASK)) == identityOf(address);
    }

    /**
     * The local address of the allocation a header describes, at {@code offsetUnits} (what the slot's own machine
     * posts to its GC).
     */
    public static long addressOf(long headerWord, long offsetUnits) {
        return Address.local(sizeClassOf(headerWord), generationOf(headerWord), offsetUnits);
    }

    /** First version of a key's incarnation number {@code incarnation}. */
    public static long firstVersion(long incarnation) {
        return incarnation << 32;
    }

    public static long incarnationOf(long version) {
        return version >>> 32;
    }

    /**
     * Whether a copied record is the live value of {@code key} at {@code address}: live, of the address's generation
     * and class, and owned by the key.
     */
    public static boolean isValid(DirectBuffer record, int index, long address, long key) {
        return isLiveAt(record.getLong(index), address) && record.getLong(index + KEY_OFFSET) == key;
    }
}
