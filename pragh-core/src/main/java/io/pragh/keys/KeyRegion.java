package io.pragh.keys;

import io.pragh.LimitExceededException;
import io.pragh.address.Address;
import io.pragh.memory.ChunkedRegion;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.BitUtil;
import org.agrona.concurrent.AtomicBuffer;

/**
 * The key region of one machine: an off-heap bucketed hash table of (key, address word) slots that peers read
 * one-sidedly. A bucket is 128 bytes, eight 16-byte slots; slots 0..6 hold keys, slot 7's address word links to an
 * overflow bucket (index + 1, 0 = none). A remote lookup therefore reads one bucket in the common case.
 *
 * <p>Only the home machine inserts and removes keys (under a lock striped by bucket); anyone may CAS an address
 * word, locally or one-sidedly. A slot whose key is set but whose address word is {@link Address#NONE} or a
 * {@linkplain Address#isTombstone tombstone} holds no
 * value: a key being inserted, or deleted and not yet pruned. Readers treat it as absent.
 *
 * <p>Memory ordering: an insert writes the address word (plain; it is 0 in a fresh slot) and then publishes the key
 * with a release store; a reader loads the key and then the address word with acquire. Removal clears the
 * address word by CAS and then the key with a release store. A reader racing with slot reuse may pair a key
 * with another key's address; the value header carries the owning key, so the value check catches it.
 *
 * <pre>{@code
 * KeyRegion keys = new KeyRegion(1 << 20, 1 << 30);
 * long slot = keys.findOrInsert(key);          // home only
 * keys.region().compareAndSetLong(slot, Address.NONE, address);
 * }</pre>
 */
public final class KeyRegion implements AutoCloseable {
    public static final int SLOT_BYTES = 16;
    public static final int SLOTS_PER_BUCKET = 8;
    public static final int KEY_SLOTS = SLOTS_PER_BUCKET - 1;
    public static final int BUCKET_BYTES = SLOT_BYTES * SLOTS_PER_BUCKET;
    private static final int LINK_OFFSET = KEY_SLOTS * SLOT_BYTES + 8;
    private static final int LOCK_STRIPES = 1024;

    private final ChunkedRegion region;
    private final int mainBuckets;
    private final int overflowBuckets;
    private final AtomicInteger overflowUsed = new AtomicInteger();
    private final AtomicLong keyCount = new AtomicLong();
    private final Object[] locks = new Object[LOCK_STRIPES];

    /**
     * @param expectedKeys keys the machine is sized for; main buckets are provisioned at about 70% load
     * @param maxChunkBytes chunk size limit for the backing region
     */
    public KeyRegion(long expectedKeys, int maxChunkBytes) {
        this(expectedKeys, maxChunkBytes, false);
    }

    /**
     * @param expectedKeys keys the machine is sized for; main buckets are provisioned at about 70% load
     * @param maxChunkBytes chunk size limit for the backing region
     * @param hugePages whether the region asks for transparent huge pages ({@link io.pragh.memory.HugePages})
     */
    public KeyRegion(long expectedKeys, int maxChunkBytes, boolean hugePages) {
        if (expectedKeys < 1) {
            throw new IllegalArgumentException("expected keys must be >= 1, got " + expectedKeys);
        }
        long wanted = Math.max(16, (expectedKeys * 10 + KEY_SLOTS * 7 - 1) / (KEY_SLOTS * 7));
        if (wanted > (1 << 30)) {
            throw new LimitExceededException(expectedKeys + " keys need more than 2^30 buckets in one key region");
        }
        this.mainBuckets = BitUtil.findNextPositivePowerOfTwo((int) wanted);
        this.overflowBuckets = Math.max(16, mainBuckets / 4);
        long bytes = (long) (mainBuckets + overflowBuckets) * BUCKET_BYTES;
        this.region = ChunkedRegion.allocate("keys", bytes, maxChunkBytes, hugePages);
        for (int i = 0; i < LOCK_STRIPES; i++) {
            locks[i] = new Object();
        }
    }

    public ChunkedRegion region() {
        return region;
    }

    public int mainBuckets() {
        return mainBuckets;
    }

    public long size() {
        return keyCount.get();
    }

    /** Key slots this region can hold at most (main and overflow buckets). */
    public long slotCapacity() {
        return (long) (mainBuckets + overflowBuckets) * KEY_SLOTS;
    }

    /** Byte offset of the bucket a key hashes to; the same on every machine for the same region geometry. */
    public long homeBucketOffset(long key) {
        return bucketOffset((int) (Hashing.bucketHash(key) & (mainBuckets - 1)));
    }

    /**
     * The first word of {@code key}'s home bucket, read plainly and with no lookup: the key region's side of
     * {@code LocationCache#touch}, so that a batch's lookups of keys homed here find their buckets in the CPU's cache.
     */
    public long touch(long key) {
        return region.getLong(homeBucketOffset(key));
    }

    public static long bucketOffset(int bucket) {
        return (long) bucket * BUCKET_BYTES;
    }

    /**
     * Searches one bucket (in place or a copy a peer read one-sidedly) for {@code key}.
     *
     * @return the byte offset, within the bucket, of the key's address word; or -1
     */
    public static int findInBucket(AtomicBuffer bucket, int bucketIndex, long key) {
        for (int s = 0; s < KEY_SLOTS; s++) {
            if (bucket.getLong(bucketIndex + s * SLOT_BYTES) == key) {
                return s * SLOT_BYTES + 8;
            }
        }
        return -1;
    }

    /** Byte offset of the overflow bucket linked from this bucket, or -1. */
    public static long overflowOf(AtomicBuffer bucket, int bucketIndex, int mainBuckets) {
        long link = bucket.getLongVolatile(bucketIndex + LINK_OFFSET);
        return link == 0 ? -1 : bucketOffset(mainBuckets + (int) (link - 1));
    }

    /** Local lookup: byte offset of the key's address word in this region, or -1 when the key has no slot. */
    public long find(long key) {
        long bucket = homeBucketOffset(key);
        while (bucket >= 0) {
            AtomicBuffer chunk = region.chunkFor(bucket);
            int index = region.indexInChunk(bucket);
            int at = findInBucket(chunk, index, key);
            if (at >= 0) {
                return bucket + at;
            }
            bucket = overflowOf(chunk, index, mainBuckets);
        }
        return -1;
    }

    /** Acquire-load of an address word found by {@link #find}. */
    public long address(long slotOffset) {
        return region.getLongVolatile(slotOffset);
    }

    public boolean compareAndSetAddress(long slotOffset, long expected, long desired) {
        return region.compareAndSetLong(slotOffset, expected, desired);
    }

    /** How the key region's owner CASes one of its address words (a CPU CAS, or through the fabric). */
    @FunctionalInterface
    public interface AddressCas {
        boolean compareAndSet(long slotOffset, long expected, long desired);
    }

    /**
     * Home only: the key's slot, claiming an empty one (address word NONE) when the key has none. Readers may see the
     * slot before a value is installed; they treat it as absent.
     */
    public long findOrInsert(long key) {
        long first = homeBucketOffset(key);
        synchronized (lockFor(first)) {
            return findOrInsertLocked(key, first);
        }
    }

    /**
     * Home only: installs the first value of a key that has none, claiming or reusing its slot, atomically with
     * respect to {@link #prune} (both hold the bucket's lock), so that a concurrent delete can never clear the key of
     * a slot whose value was just installed. The word must still be {@code absent}, the "no value" word the caller
     * found ({@link Address#NONE}, or a tombstone whose DELETE has finished); a slot claimed afresh holds NONE.
     *
     * @return the slot's address-word offset, or -1 when the word is no longer {@code absent} (the caller retries)
     */
    public long insert(long key, long absent, long address, AddressCas cas) {
        long first = homeBucketOffset(key);
        synchronized (lockFor(first)) {
            long slot = findOrInsertLocked(key, first);
            return cas.compareAndSet(slot, absent, address) ? slot : -1;
        }
    }

    /** {@link #insert} of a key that has no word or the word NONE. */
    public long insert(long key, long address, AddressCas cas) {
        return insert(key, Address.NONE, address, cas);
    }

    private long findOrInsertLocked(long key, long first) {
        if (!KeyLayout.isValid(key)) {
            throw new IllegalArgumentException("key " + key + " has kind 0, which no valid key has");
        }
        long bucket = first;
        long free = -1;
        long last = first;
        while (bucket >= 0) {
            AtomicBuffer chunk = region.chunkFor(bucket);
            int index = region.indexInChunk(bucket);
            for (int s = 0; s < KEY_SLOTS; s++) {
                long k = chunk.getLong(index + s * SLOT_BYTES);
                if (k == key) {
                    return bucket + s * SLOT_BYTES + 8;
                }
                if (k == 0 && free < 0) {
                    free = bucket + s * SLOT_BYTES;
                }
            }
            last = bucket;
            bucket = overflowOf(chunk, index, mainBuckets);
        }
        if (free < 0) {
            free = linkOverflow(last);
        }
        region.putLongVolatile(free + 8, Address.NONE);
        region.putLongRelease(free, key);
        keyCount.incrementAndGet();
        return free + 8;
    }

    /**
     * Home only: removes the key's slot if its address word is NONE, so a deleted key stops taking space. Returns
     * whether the slot was removed.
     */
    public boolean prune(long key) {
        return prune(key, Address.NONE);
    }

    /**
     * Home only: removes the key's slot if its address word is still {@code word} (NONE, or the tombstone of a DELETE
     * that has finished: a later insert or DELETE of the key leaves it alone). Returns whether the slot was removed.
     */
    public boolean prune(long key, long word) {
        if (!Address.isNone(word)) {
            throw new IllegalArgumentException("prune of key " + key + " expects a word that holds no value, got "
                + Address.toString(word));
        }
        long first = homeBucketOffset(key);
        synchronized (lockFor(first)) {
            long slot = find(key);
            if (slot < 0 || region.getLongVolatile(slot) != word) {
                return false;
            }
            region.putLongRelease(slot - 8, 0);
            keyCount.decrementAndGet();
            return true;
        }
    }

    private long linkOverflow(long lastBucket) {
        int index = overflowUsed.getAndIncrement();
        if (index >= overflowBuckets) {
            overflowUsed.decrementAndGet();
            throw new LimitExceededException("key region is full: " + keyCount.get() + " keys in " + mainBuckets
                + " buckets and all " + overflowBuckets + " overflow buckets; configure more keys per machine");
        }
        // Release: a reader that follows the link sees the (zeroed) overflow bucket, never older contents.
        region.putLongRelease(lastBucket + LINK_OFFSET, index + 1L);
        return bucketOffset(mainBuckets + index);
    }

    private Object lockFor(long firstBucketOffset) {
        return locks[(int) ((firstBucketOffset / BUCKET_BYTES) & (LOCK_STRIPES - 1))];
    }

    /** Visits every key with a value; a concurrent insert or delete may or may not be seen. */
    public void forEach(KeyVisitor visitor) {
        long buckets = mainBuckets + (long) overflowUsed.get();
        for (long b = 0; b < buckets; b++) {
            long bucket = bucketOffset((int) b);
            for (int s = 0; s < KEY_SLOTS; s++) {
                long slot = bucket + (long) s * SLOT_BYTES;
                long key = region.getLongVolatile(slot);
                if (key != 0) {
                    long address = region.getLongVolatile(slot + 8);
                    if (!Address.isNone(address)) {
                        visitor.visit(key, address, slot + 8);
                    }
                }
            }
        }
    }

    /** Receives the keys {@link #forEach} walks. */
    @FunctionalInterface
    public interface KeyVisitor {
        void visit(long key, long address, long slotOffset);
    }

    @Override
    public void close() {
        region.close();
    }
}
