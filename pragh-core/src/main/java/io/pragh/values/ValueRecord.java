package io.pragh.values;

import io.pragh.LimitExceededException;
import io.pragh.address.Address;
import io.pragh.address.SizeClasses;
import io.pragh.memory.ChunkedRegion;
import io.pragh.memory.RecordExtent;
import org.agrona.DirectBuffer;

/**
 * Layout of a value record in a value region, 8-byte aligned:
 * <pre>
 *  word 0, the header:
 *    bit 63             32   31   30   29   28   27   26   25  22 21            8 7          0
 *       | payload length | P  | L  | F  | K  | D  | R  |unused| generation: 14 | class: 8   |
 *  word 1: owning key (while free: the next free record of the class)
 *  word 2: version base: the version minus the payload length (see "Appends in place" below)
 *  payload: length bytes, then slack up to the size class's capacity
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
 *   <li><b>K</b> ({@link #LOCKED}): an update at the record's host holds it, from before it reads the value until
 *       it has published its result or given up: updates of one record run one at a time (below). Readers and
 *       migrations do not wait for it.</li>
 *   <li><b>D</b> ({@link #DELETING}): set with P by a DELETE on the record it removes, and cleared with it.</li>
 *   <li><b>R</b> ({@link #REPLICATED}): the host granted read replicas of this record to other machines
 *       ({@code io.pragh.store.ReplicaRegistry}, docs/replicas.md); whoever invalidates or replaces the record must
 *       make them unusable first. Set by CAS only on a live record that is neither pending nor locked.</li>
 *   <li><b>B</b> ({@link #PUT_BACK}): the key's home put this value back from its log (a restart's reload, or a
 *       value lost with the machine it had migrated to) while other machines may still read an older record of it
 *       ({@code io.pragh.store.PutBackFence}); the record neither migrates nor is replaced until the home's fence
 *       lifts, which then clears the bit by CAS on a record that is neither pending nor locked.</li>
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
 *
 * <p>{@link #LOCKED} serialises the updates of a record at its host: each sets it by CAS (from a header with
 * neither bit) before it reads the value, so the value a replacement is computed from is the value its CAS of the
 * home's word replaces, and nothing grows the record in place meanwhile. A replacement that wins leaves it set until
 * the record is invalidated; one that loses clears it. A migration ignores it: if its CAS wins, the holder's CAS
 * loses (or its append's publishing CAS finds the record invalidated), so the holder's update never takes effect.
 *
 * <h2>Appends in place</h2>
 * A record's size class may hold more than its payload (an adjacency list is given room to grow, doubling each time
 * it must move), and an APPEND that fits is written into that slack instead of a new record
 * ({@code io.pragh.store.InPlaceAppend}), on the key's home machine only: a value migrated elsewhere is appended to
 * by a new record, as any update. So the only source a migration may find grown after its copy is on the machine
 * that holds the key's address word: if that machine stops, the word goes with it (a restart reloads the key from
 * its log, every acknowledged append included), and a migration never waits on a source that outlived the word, nor
 * loses appends acknowledged on a machine that crashed. The address word does not change, so readers that copy the
 * record while it grows, through a local copy or a one-sided READ, must never see a torn value. The ordering that
 * ensures it:
 * <ol>
 *   <li>The appender locks the record: CAS of the header from {@code H} (live, neither pending nor locked) to
 *       {@code H|K}. Other updaters at the host wait; a GET or a migration that copies it meanwhile takes the value
 *       of length {@code L} that {@code H} states, which is still the current value.</li>
 *   <li>It writes the appended bytes at {@code [length, length + n)}: beyond the length any published header
 *       states, so no reader uses them yet.</li>
 *   <li>It publishes the new length with a CAS (release) from {@code H|K} to {@code H'} ({@code H'|P} on a durable
 *       cluster, until the key's home has logged the append). A CAS, not a store: if a migration invalidated the
 *       record meanwhile, the append did not take effect and goes round again on the key's new record.</li>
 * </ol>
 * Every copy of a record reads the header word first, with acquire semantics, and then the rest
 * ({@code ChunkedRegion#getBytes} and {@code #getRecord}, which local copies and the in-process fabric's READs go
 * through, the latter copying only the length the header publishes ({@link #EXTENT}), and the TCP
 * fabric's server side; the verbs fabric assumes what RDMA NICs do, not what the verbs specification promises: that
 * a READ fetches its bytes in ascending order). So a copy whose header says length {@code L} holds every byte below
 * {@code L} as published: those bytes were written before the header that covers them, and no byte below a published
 * length is ever written again while the allocation lives (appends write only above it; any other update makes a new
 * record). A copy taken before step 3 has the old length and ignores the new bytes. Versions must not tear either:
 * word 2 is never written in place. It holds the version minus the payload length ({@link #version}), so an append
 * of {@code n} bytes advances the key's version by {@code n}, and a copy's version always matches its length. (An
 * incarnation's lower 32 bits then count bytes appended plus updates: at most 4 GiB of appends to one key between
 * two deletes.)
 *
 * <p>A migration copies the record without locking it, so an append can land on the source after the copy was
 * taken and even after the migration's CAS of the home's word (the appender found the record through an address
 * read before that CAS, or a cached one). The migration's invalidation of the source, a CAS expecting the header it
 * copied, then fails: it carries the bytes between the two lengths over to its new record (still pending, so nobody
 * reads it), checks that the source still states the length it carried, and only then invalidates the source, with a
 * CAS expecting that header (waiting while it is pending, not while it is locked: an append still unpublished then
 * finds its CAS failed and goes round again). Whatever becomes of that CAS, the new record already holds every append
 * the source took, and it settles with its own length ({@code io.pragh.migration.SourceInvalidation}). Nobody else
 * invalidates such a source meanwhile: the leak scan counts a record as named while its key's word names a pending
 * record. If the source does not answer, a new record with room to grow stays pending until it does
 * ({@code io.pragh.migration.UnfinishedMigrations}).
 */
public final class ValueRecord {
    public static final int HEADER_BYTES = 24;
    /**
     * A value record's extent for {@link ChunkedRegion#getRecord}: its header and the payload length the header
     * publishes, never its slack. Copying a record's whole size class copied up to twice its payload once lists grew
     * into power-of-two records: 1.37x the bytes of main per fused two-hop query, and 1.7x its median time.
     */
    public static final RecordExtent EXTENT = (header, maxLength) ->
        (int) Math.min(maxLength, HEADER_BYTES + (header >>> 32)); // unsigned: never short of the header words
    public static final int KEY_OFFSET = 8;
    public static final int VERSION_OFFSET = 16;
    /** Header bit: the operation that published this record has not yet invalidated the one it replaced. */
    public static final long INVALIDATION_PENDING = 1L << 31;
    /** Header bit: an update at the record's host holds it (see the class comment). */
    public static final long LOCKED = 1L << 28;
    /** Header bit, only with {@link #INVALIDATION_PENDING}: a DELETE removes the record and is not yet settled. */
    public static final long DELETING = 1L << 27;
    /**
     * Header bit: read replicas of this record may exist on other machines (set by its host's replica registry).
     * An update at the host invalidates them before it publishes; a migration that invalidates a source with this bit
     * waits out the replica lease before its new record settles (docs/replicas.md).
     */
    public static final long REPLICATED = 1L << 26;
    /**
     * Header bit: the value was put back at its home from its log while an older record of it may still be read
     * elsewhere; it stays at home, unchanged, until the home's {@code io.pragh.store.PutBackFence} lifts.
     */
    public static final long PUT_BACK = 1L << 25;
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

    public static boolean isReplicated(long headerWord) {
        return (headerWord & REPLICATED) != 0;
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

    /** Bytes of payload a record of this header's size class holds: its length plus its slack. */
    public static int capacityOf(long headerWord) {
        return (int) ((unitsOf(headerWord) << 3) - HEADER_BYTES);
    }

    /**
     * The version of the record at {@code index} whose header is {@code headerWord} (the copy's own header, read
     * first): word 2 plus the payload length, so that appends in place never write word 2 (see the class comment).
     */
    public static long version(DirectBuffer record, int index, long headerWord) {
        return versionOf(headerWord, record.getLong(index + VERSION_OFFSET));
    }

    /** The version a header and a word 2 stand for. */
    public static long versionOf(long headerWord, long versionWord) {
        return versionWord + payloadLengthOf(headerWord);
    }

    /** Word 2 of a record of {@code version} with {@code payloadLength} bytes. */
    public static long versionWord(long version, int payloadLength) {
        return version - payloadLength;
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
