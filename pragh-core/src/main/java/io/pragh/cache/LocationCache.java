package io.pragh.cache;

import io.pragh.keys.Hashing;
import io.pragh.memory.ChunkedRegion;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The location cache (paper section 4.2): remote keys' address words, so that a GET of a remote key skips the key
 * lookup and, once the value migrated here, is fully local. Off-heap, bounded by bytes, set-associative.
 *
 * <pre>
 *  set:   | seqlock word | 6 ways x 40 bytes | pad to 256 bytes |
 *  way:   | key | address word | slot offset at home | lease stamp (ms) | access counter |
 * </pre>
 * Writers take a set's seqlock (odd while writing); readers copy a way and retry if the seqlock moved, so a reader
 * never pairs one key with another key's address. Access counters are bumped outside the seqlock with a plain read and
 * an ordered write (a release store, {@code putLongOrdered}), not an atomic add: two racing bumps can lose a count, and
 * they are only statistics for the monitor and the replacement policy, where a lost count costs nothing, while a CAS
 * loop on the GET path would cost every reader. Replacement evicts an empty or expired way first, then the way with the
 * fewest accesses; the monitor halves counters every interval so that old popularity fades. Lookups are also counted as
 * hits and misses (a disabled cache misses every one) in counts striped by thread ({@link StripedCount}), for the
 * metrics.
 *
 * <p>A key whose counter reaches {@link #HOT_MARK} is also written, with the time, to a small lossy ring that the
 * monitor's instant poll drains ({@link #drainHot}): a poll then looks at the keys that just became busy, not at every
 * way of the cache (25M ways over 8 machines of 128 MiB, which bounded polling to once in several seconds under the
 * control thread's duty limit, so that a new key read hundreds of times a second waited for the interval's end).
 *
 * <p>The interval end's pass ({@link #forEachThenHalve}) likewise passes only the sets that hold a nonzero count: a
 * bitmap with a bit per set is set by a bump that takes a count to a power of two, 1 included, when the set's bit is
 * clear (an opaque read of the word, a release store of it with the bit only then) and cleared by the pass once
 * halving left every count of the set at zero. A count past 1 was 1 since its set's bit was last cleared (a count
 * cleared is 0, and counts only grow by one or halve), so its set was marked then: a bump to any other count need not
 * read the bitmap, a word of which every GET read at random before (a cache miss into 64 KiB per machine). Passing
 * every set read 1 GiB over 8 machines every interval and wrote all of it (73% of the control thread's time at scale
 * 20, most of the monitors' 11.5 us per traversal query), while most sets held no count: a key read once is gone from
 * the counts after one halving. Lossy as the counters are: a bump that races the clearing of its set's bit (it read the
 * bit before the clear, its count after the pass's last read) leaves a count the passes skip until a bump into that
 * set reaches the next power of two and marks it again; the accesses until then are missing from a report, and they
 * are not lost, only late (as many accesses late as the count had at most). Two GETs marking sets of the same 64 at
 * the same moment can lose one mark the same way.
 *
 * <pre>{@code
 * LocationCache cache = new LocationCache(128L << 20, 5_000);
 * cache.insert(key, address, slotOffset, nowMillis);
 * if (cache.lookup(key, nowMillis, hit)) { long address = hit.address; }
 * }</pre>
 */
public final class LocationCache implements AutoCloseable {
    public static final long DEFAULT_BYTES = 128L << 20;
    public static final int WAYS = 6;
    /**
     * The access count at which a key enters the ring of busy keys ({@link #drainHot}), and again at every power of two
     * above it: a key whose halved count starts an interval above the mark still enters it when it keeps being read.
     */
    public static final long HOT_MARK = 8;
    /** Keys the ring holds between two drains; more are lost (the monitor's interval report still sees them). */
    static final int HOT_RING = 4096;
    static final int WAY_BYTES = 40;
    static final int SET_BYTES = 256;
    private static final int KEY = 0;
    private static final int ADDRESS = 8;
    private static final int SLOT = 16;
    private static final int STAMP = 24;
    private static final int COUNT = 32;
    private static final int WAYS_OFFSET = 8;
    /**
     * The address of a way whose address was found stale ({@link #invalidate}): the word 0 says "no value" and is
     * never cached, so it marks a way that keeps its key and access count but no address (a miss to lookups, first
     * to be replaced, not shown to the monitor) until the GET that found it stale refills it.
     */
    private static final long DROPPED = 0L;

    /** The fields of a hit, reused by one thread: no allocation on the GET path. */
    public static final class Hit {
        public long address;
        public long slotOffset;
        public long stampMillis;
        /** The entry's access count before this lookup's (or at a {@link #peek}). */
        public long accesses;
    }

    private final ChunkedRegion memory;
    private final UnsafeBuffer sets;
    private final int setMask;
    private final long leaseMillis;
    /** Striped by thread, not LongAdders: see {@link StripedCount}. */
    private final StripedCount hits = new StripedCount();
    private final StripedCount misses = new StripedCount();
    /** Misses that found the key's entry with its lease run out, and with its address dropped as stale. */
    private final StripedCount expiredMisses = new StripedCount();
    private final StripedCount droppedMisses = new StripedCount();
    /** Remote lookups that found the key without a value (see {@link #noteAbsent}). */
    private final StripedCount absentLookups = new StripedCount();
    /**
     * Told why each miss missed and what made each entry leave ({@link #observe}): a diagnostic, null unless one runs.
     * Volatile so that a census started while GETs run is seen by them; read only on the miss, eviction and drop
     * paths, never on a hit.
     */
    private volatile Diagnostics diagnostics;
    /** The ring of busy keys: key, the time it reached a mark, and the mark, per slot; 0 keys are empty slots. */
    private final AtomicLongArray hot = new AtomicLongArray(3 * HOT_RING);
    private final AtomicLong hotWrites = new AtomicLong();
    /** Slots drained so far (by the one draining thread). */
    private long hotReads;
    /**
     * A bit per set, set when a count in the set may be nonzero (see the class comment): what the interval end's pass
     * visits. Set by GET threads (opaque read, then a release store when clear), cleared only by the pass (one thread).
     */
    private final long[] countedSets;
    private static final VarHandle COUNTED = MethodHandles.arrayElementVarHandle(long[].class);

    /**
     * @param bytes memory budget; rounded down to a power-of-two number of sets; 0 disables the cache (every
     *              lookup misses, nothing is stored), which is how split migration without a cache is run
     * @param leaseMillis how long a cached address may be used after it was read from the key region
     */
    public LocationCache(long bytes, long leaseMillis) {
        this(bytes, leaseMillis, false);
    }

    /**
     * As {@link #LocationCache(long, long)}; with {@code hugePages} the sets ask for transparent huge pages
     * ({@link io.pragh.memory.HugePages}): a probe lands at random in the whole budget, a TLB miss per probe on 4 KiB
     * pages.
     */
    public LocationCache(long bytes, long leaseMillis, boolean hugePages) {
        this.leaseMillis = leaseMillis;
        if (bytes == 0) {
            this.memory = null;
            this.sets = null;
            this.setMask = -1;
            this.countedSets = new long[0];
            return;
        }
        if (bytes < SET_BYTES) {
            throw new IllegalArgumentException("location cache needs at least " + SET_BYTES + " bytes, got " + bytes);
        }
        if (bytes > (1L << 30)) {
            throw new IllegalArgumentException("location cache is limited to 1 GiB, got " + bytes + " bytes");
        }
        int setCount = Integer.highestOneBit((int) (bytes / SET_BYTES));
        // Sets are a power of two of 256 bytes, so the region is one power-of-two chunk within the budget.
        this.memory = ChunkedRegion.allocate("location-cache", (long) setCount * SET_BYTES, setCount * SET_BYTES,
            hugePages);
        this.sets = memory.chunk(0);
        this.setMask = setCount - 1;
        this.countedSets = new long[Math.max(1, setCount >>> 6)];
    }

    /** Makes this cache's memory resident now (see {@link ChunkedRegion#pretouch}); for benchmarks. */
    public void pretouch() {
        if (memory != null) {
            memory.pretouch();
        }
    }

    /** Whether this cache stores anything (a zero budget disables it). */
    public boolean enabled() {
        return sets != null;
    }

    public long leaseMillis() {
        return leaseMillis;
    }

    public int capacity() {
        return (setMask + 1) * WAYS;
    }

    public long bytes() {
        return (long) (setMask + 1) * SET_BYTES;
    }

    /** Lookups that found an unexpired entry, since the cache was made. */
    public long hits() {
        return hits.sum();
    }

    /** Lookups that found no entry or an expired one (every lookup when the cache is disabled). */
    public long misses() {
        return misses.sum();
    }

    /** Of {@link #misses}, those whose entry's lease had run out (the address is read again from the key's home). */
    public long expiredMisses() {
        return expiredMisses.sum();
    }

    /** Of {@link #misses}, those whose entry's address had been dropped as stale (a rewrite or a move of the value). */
    public long droppedMisses() {
        return droppedMisses.sum();
    }

    /**
     * Counts a remote key lookup (a miss here, then a read of the key's home bucket) that found the key without a value:
     * a GET of a vertex with no adjacency list. Nothing caches an absence, so each such GET costs a remote bucket read;
     * this counts what caching absences would save (a diagnostic: a cached absence needs an insert to wait out its
     * lease before it is readable, see docs/results policy7).
     */
    public void noteAbsent() {
        absentLookups.increment();
    }

    /** Remote key lookups that found the key without a value, since the cache was made ({@link #noteAbsent}). */
    public long absentLookups() {
        return absentLookups.sum();
    }

    private int setOf(long key) {
        return (int) (Hashing.bucketHash(key) >>> 20 & setMask) * SET_BYTES;
    }

    /**
     * The first word of {@code key}'s set, read plainly and with no lookup: a batch of lookups reads every set once
     * this way first ({@code BatchGet}), so that the CPU fetches the sets from memory in parallel (the loads do not
     * depend on one another), and each lookup then finds its set in the CPU's cache instead of stalling on it. The
     * value means nothing; the caller only keeps it somewhere, so that the load is not optimised away.
     */
    public long touch(long key) {
        return sets == null ? 0 : sets.getLong(setOf(key));
    }

    /**
     * Finds an unexpired entry for {@code key}, fills {@code hit} and counts the access.
     */
    public boolean lookup(long key, long nowMillis, Hit hit) {
        if (sets == null) {
            misses.increment();
            return false;
        }
        int found = find(key, nowMillis, hit);
        if (found < 0) {
            misses.increment();
            if (found == EXPIRED) {
                expiredMisses.increment();
            } else if (found == STALE) {
                droppedMisses.increment();
            }
            Diagnostics d = diagnostics;
            if (d != null) {
                d.onMiss(key, found == EXPIRED ? MISS_LEASE_RUN_OUT : found == STALE ? MISS_DROPPED : MISS_NOT_CACHED,
                    found == EXPIRED ? hit.address : 0);
            }
            return false;
        }
        hits.increment();
        // Lossy bump (see the class comment): plain read, ordered write, no read-modify-write atomic.
        long count = sets.getLong(found + COUNT) + 1;
        sets.putLongOrdered(found + COUNT, count);
        if ((count & (count - 1)) == 0) {
            // Only at powers of two (see the class comment): a set whose count is past 1 was marked when it was 1.
            markCounted(found / SET_BYTES);
            if (count >= HOT_MARK) {
                markHot(key, nowMillis, count);
            }
        }
        return true;
    }

    /**
     * Fills {@code hit} from {@code key}'s live entry (unexpired, with an address), its access count included, counting
     * nothing; returns whether there was one. The monitor's probe of a key {@link #drainHot} named.
     */
    public boolean peek(long key, long nowMillis, Hit hit) {
        return sets != null && find(key, nowMillis, hit) >= 0;
    }

    /** Why a lookup missed, as {@link Diagnostics#onMiss} is told: no way holds the key. */
    public static final int MISS_NOT_CACHED = 1;
    /** Why a lookup missed: the key's entry's lease ran out. */
    public static final int MISS_LEASE_RUN_OUT = 2;
    /** Why a lookup missed: the key's entry's address had been dropped as stale ({@link #invalidate}). */
    public static final int MISS_DROPPED = 3;
    /** What an evicted entry was when {@link #insert} took its way for another key ({@link Diagnostics#onEvict}). */
    public static final int EVICTED_LIVE = 1;
    public static final int EVICTED_EXPIRED = 2;
    public static final int EVICTED_DROPPED = 3;

    /** {@link #find}'s answers when there is no live entry: none, its lease ran out, its address was dropped. */
    private static final int ABSENT = -1;
    private static final int EXPIRED = -2;
    private static final int STALE = -3;

    /** The way of {@code key}'s live entry, its fields copied to {@code hit}, or why there is none (below 0). */
    private int find(long key, long nowMillis, Hit hit) {
        int set = setOf(key);
        while (true) {
            long seq = sets.getLongVolatile(set);
            if ((seq & 1) != 0) {
                Thread.onSpinWait();
                continue;
            }
            int found = -1;
            long address = 0;
            long slot = 0;
            long stamp = 0;
            long count = 0;
            for (int w = 0; w < WAYS; w++) {
                int way = set + WAYS_OFFSET + w * WAY_BYTES;
                if (sets.getLong(way + KEY) == key) {
                    found = way;
                    address = sets.getLong(way + ADDRESS);
                    slot = sets.getLong(way + SLOT);
                    stamp = sets.getLong(way + STAMP);
                    count = sets.getLong(way + COUNT);
                    break;
                }
            }
            // Keep the plain loads above from drifting below the sequence re-check (seqlock reader side).
            VarHandle.acquireFence();
            if (sets.getLongVolatile(set) != seq) {
                continue;
            }
            if (found < 0) {
                return ABSENT;
            }
            if (address == DROPPED) {
                return STALE;
            }
            if (nowMillis - stamp >= leaseMillis) {
                hit.address = address; // what ran out, for a diagnostic (a miss's hit is not otherwise read)
                return EXPIRED;
            }
            hit.address = address;
            hit.slotOffset = slot;
            hit.stampMillis = stamp;
            hit.accesses = count;
            return found;
        }
    }

    /**
     * Marks {@code set} as holding a count for the interval end's pass. Opaque read first: the bit is set already for
     * nearly every bump (once per set and interval is the atomic's rate), and a plain read could be hoisted out of a
     * caller's loop and never see the pass clear it.
     */
    private void markCounted(int set) {
        int word = set >>> 6;
        long bit = 1L << set; // the shift takes the low six bits
        long bits = (long) COUNTED.getOpaque(countedSets, word);
        if ((bits & bit) == 0) {
            // Lossy as the counters' bumps, and for the same reason: no read-modify-write atomic on the GET path. A
            // GET marking another set of the same word at the same moment can lose this mark (its count waits for the
            // next power of two of a count in the set). An atomic OR here took 13% of the query threads' JFR samples at scale 20.
            COUNTED.setRelease(countedSets, word, bits | bit);
        }
    }

    /** At a few counts of a key an interval: the ring's one atomic is off the GET path's common case. */
    private void markHot(long key, long nowMillis, long count) {
        int slot = (int) (hotWrites.getAndIncrement() & (HOT_RING - 1));
        // Time and count first, the key last (a volatile store): a drain that sees the key sees them. A writer that
        // laps a slot being drained may pair a key with another's time; a rate estimate is all it costs.
        hot.lazySet(3 * slot + 1, nowMillis);
        hot.lazySet(3 * slot + 2, count);
        hot.set(3 * slot, key);
    }

    /**
     * Hands {@code visitor} every key that reached {@link #HOT_MARK} accesses, or a power of two above it, since the last
     * drain, with the time it did and that count (keys written over by later ones before this drain are lost); one
     * thread drains. Returns how many.
     */
    public int drainHot(HotVisitor visitor) {
        long writes = hotWrites.get();
        long from = Math.max(hotReads, writes - HOT_RING);
        int n = 0;
        for (long i = from; i < writes; i++) {
            int slot = (int) (i & (HOT_RING - 1));
            long key = hot.getAndSet(3 * slot, 0);
            if (key != 0) {
                visitor.visit(key, hot.get(3 * slot + 1), hot.get(3 * slot + 2));
                n++;
            }
        }
        hotReads = writes;
        return n;
    }

    /**
     * The access counter of {@code key}'s entry if it holds {@code address}, else -1; counts nothing. For the owner of
     * an entry it placed (a read replica's holder deciding whether it is still read).
     */
    public long accesses(long key, long address) {
        if (sets == null) {
            return -1;
        }
        int set = setOf(key);
        while (true) {
            long seq = sets.getLongVolatile(set);
            if ((seq & 1) != 0) {
                Thread.onSpinWait();
                continue;
            }
            long count = -1;
            for (int w = 0; w < WAYS; w++) {
                int way = set + WAYS_OFFSET + w * WAY_BYTES;
                if (sets.getLong(way + KEY) == key && sets.getLong(way + ADDRESS) == address) {
                    count = sets.getLong(way + COUNT);
                    break;
                }
            }
            // Seqlock reader side, as in lookup.
            VarHandle.acquireFence();
            if (sets.getLongVolatile(set) == seq) {
                return count;
            }
        }
    }

    /** Inserts or refreshes the address of {@code key}, stamped {@code nowMillis}. */
    public void insert(long key, long address, long slotOffset, long nowMillis) {
        if (sets == null) {
            return;
        }
        int set = setOf(key);
        long seq = lock(set);
        try {
            int target = -1;
            int victim = -1;
            long fewest = Long.MAX_VALUE;
            for (int w = 0; w < WAYS; w++) {
                int way = set + WAYS_OFFSET + w * WAY_BYTES;
                long k = sets.getLong(way + KEY);
                if (k == key) {
                    target = way;
                    break;
                }
                long count = (k == 0 || sets.getLong(way + ADDRESS) == DROPPED
                    || nowMillis - sets.getLong(way + STAMP) >= leaseMillis) ? -1 : sets.getLong(way + COUNT);
                if (count < fewest) {
                    fewest = count;
                    victim = way;
                }
            }
            if (target < 0) {
                target = victim;
                long evicted = sets.getLong(target + KEY);
                if (evicted != 0) {
                    Diagnostics d = diagnostics;
                    if (d != null) {
                        d.onEvict(key, evicted, fewest >= 0 ? EVICTED_LIVE
                            : sets.getLong(target + ADDRESS) == DROPPED ? EVICTED_DROPPED : EVICTED_EXPIRED);
                    }
                }
                sets.putLong(target + KEY, key);
                sets.putLong(target + COUNT, 1);
                markCounted(set / SET_BYTES);
            }
            sets.putLong(target + ADDRESS, address);
            sets.putLong(target + SLOT, slotOffset);
            sets.putLong(target + STAMP, nowMillis);
        } finally {
            unlock(set, seq);
        }
    }

    /**
     * Drops the address of {@code key} if it is still {@code staleAddress} (a concurrent refresh is kept). The way keeps
     * the key's access count: a stale address means the value was rewritten (a PUT's new record) or moved, not that
     * this machine reads it less, and the GET that found it stale refills the way at once. Dropping the count too
     * reset a reader's count of a value at every write of it, while its host's count (refreshed in place by its own
     * PUT) kept growing: the monitor then saw a value's main reader as a light one wherever the value was written
     * often, and the coordinator left it at, or moved it to, a lighter reader.
     */
    public void invalidate(long key, long staleAddress) {
        if (sets == null) {
            return;
        }
        int set = setOf(key);
        long seq = lock(set);
        try {
            for (int w = 0; w < WAYS; w++) {
                int way = set + WAYS_OFFSET + w * WAY_BYTES;
                if (sets.getLong(way + KEY) == key && sets.getLong(way + ADDRESS) == staleAddress) {
                    sets.putLong(way + ADDRESS, DROPPED);
                    Diagnostics d = diagnostics;
                    if (d != null) {
                        d.onDrop(key, staleAddress);
                    }
                }
            }
        } finally {
            unlock(set, seq);
        }
    }

    /** Drops every entry whose key or value lives on {@code machine} (crash recovery, paper section 5). */
    public void invalidateIf(EntryPredicate predicate) {
        for (int set = 0; set <= setMask; set++) {
            int base = set * SET_BYTES;
            long seq = lock(base);
            try {
                for (int w = 0; w < WAYS; w++) {
                    int way = base + WAYS_OFFSET + w * WAY_BYTES;
                    long k = sets.getLong(way + KEY);
                    if (k != 0 && predicate.test(k, sets.getLong(way + ADDRESS))) {
                        sets.putLong(way + KEY, 0);
                        sets.putLong(way + COUNT, 0);
                        Diagnostics d = diagnostics;
                        if (d != null) {
                            d.onCleared(k);
                        }
                    }
                }
            } finally {
                unlock(base, seq);
            }
        }
    }

    /** Visits every live entry with its access count (the monitor's view of remote accesses). */
    public void forEach(long nowMillis, EntryVisitor visitor) {
        for (int set = 0; set <= setMask; set++) {
            int base = set * SET_BYTES;
            for (int w = 0; w < WAYS; w++) {
                int way = base + WAYS_OFFSET + w * WAY_BYTES;
                visitIfLive(nowMillis, way, sets.getLong(way + COUNT), visitor);
            }
        }
    }

    /**
     * Visits each live entry with a nonzero count with that count, then halves every counter, in one pass (the
     * monitor's interval end, which reads and decays every count). Live entries whose count is zero are not visited:
     * their sets are not passed (see the class comment).
     */
    public void forEachThenHalve(long nowMillis, EntryVisitor visitor) {
        passCounted(nowMillis, 0, setMask + 1, visitor);
    }

    /**
     * {@link #forEachThenHalve} over the sets {@code [fromSet, toSet)} only: the monitor's interval end in slices
     * ({@code Monitor#continueEnd}), so that its instant polls run between them. Each way is visited and halved once
     * per call, so slices that cover every set once halve every counter once.
     */
    public void forEachThenHalve(long nowMillis, int fromSet, int toSet, EntryVisitor visitor) {
        if (fromSet < 0 || toSet > setCount() || fromSet > toSet) {
            throw new IllegalArgumentException("sets [" + fromSet + ", " + toSet + ") are not within [0, "
                + setCount() + ")");
        }
        passCounted(nowMillis, fromSet, toSet, visitor);
    }

    /** Sets in this cache (0 when it is disabled): the unit of {@code forEachThenHalve(now, fromSet, toSet, v)}. */
    public int setCount() {
        return setMask + 1;
    }

    /** The set {@code key}'s entry lives in, whether or not it is cached (-1 when the cache is disabled). */
    public int setIndex(long key) {
        return sets == null ? -1 : setOf(key) / SET_BYTES;
    }

    /** Sets whose bit says they may hold a count: what the next interval end's pass will visit (a diagnostic). */
    public int countedSets() {
        int n = 0;
        for (int word = 0; word < countedSets.length; word++) {
            n += Long.bitCount((long) COUNTED.getOpaque(countedSets, word));
        }
        return n;
    }

    /** Halves every access counter, so that popularity decays between monitoring intervals. */
    public void decayCounters() {
        passCounted(0, 0, setMask + 1, null);
    }

    /**
     * The halving pass over the marked sets of {@code [fromSet, toSet)}: visits their live entries (when a visitor is
     * given), halves their counts, and clears the bit of each set left with no count.
     */
    private void passCounted(long nowMillis, int fromSet, int toSet, EntryVisitor visitor) {
        for (int set = fromSet; set < toSet; set = (set | 63) + 1) {
            int word = set >>> 6;
            // This word's bits from set on; those at toSet and past it are cut off below.
            long bits = (long) COUNTED.getOpaque(countedSets, word) & (-1L << set);
            while (bits != 0) {
                int marked = (word << 6) + Long.numberOfTrailingZeros(bits);
                if (marked >= toSet) {
                    break;
                }
                bits &= bits - 1;
                if (visitThenHalve(nowMillis, marked, visitor)) {
                    long bit = 1L << marked;
                    COUNTED.getAndBitwiseAnd(countedSets, word, ~bit);
                    // A bump that landed after the halving read its count and read the bit before this clear: mark it
                    // again. (The atomic above is a full fence, so a bump visible to it is seen here; one still in
                    // its thread's store buffer is the lossy case the class comment names.)
                    if (anyCount(marked)) {
                        markCounted(marked);
                    }
                }
            }
        }
    }

    /** Visits a set's live entries and halves its counts; returns whether every count is zero now. */
    private boolean visitThenHalve(long nowMillis, int set, EntryVisitor visitor) {
        int base = set * SET_BYTES;
        long left = 0;
        for (int w = 0; w < WAYS; w++) {
            int way = base + WAYS_OFFSET + w * WAY_BYTES;
            long count = sets.getLong(way + COUNT);
            if (visitor != null && count != 0) {
                visitIfLive(nowMillis, way, count, visitor);
            }
            if (count != 0) {
                // Lossy as every counter write here: a bump racing this read and write is lost.
                sets.putLongOrdered(way + COUNT, count >>> 1);
                left |= count >>> 1;
            }
        }
        return left == 0;
    }

    private boolean anyCount(int set) {
        int base = set * SET_BYTES;
        for (int w = 0; w < WAYS; w++) {
            if (sets.getLongVolatile(base + WAYS_OFFSET + w * WAY_BYTES + COUNT) != 0) {
                return true;
            }
        }
        return false;
    }

    /** Hands {@code visitor} the way's entry with {@code count} if it is live (unexpired, with an address). */
    private void visitIfLive(long nowMillis, int way, long count, EntryVisitor visitor) {
        long k = sets.getLongVolatile(way + KEY);
        long address = sets.getLong(way + ADDRESS);
        if (k != 0 && address != DROPPED && nowMillis - sets.getLong(way + STAMP) < leaseMillis) {
            visitor.visit(k, address, sets.getLong(way + SLOT), count);
        }
    }

    private long lock(int set) {
        while (true) {
            long seq = sets.getLongVolatile(set);
            if ((seq & 1) == 0 && sets.compareAndSetLong(set, seq, seq + 1)) {
                return seq + 1;
            }
            Thread.onSpinWait();
        }
    }

    private void unlock(int set, long lockedSeq) {
        // Release: the way's new fields become visible before readers see an even sequence again.
        sets.putLongOrdered(set, lockedSeq + 1);
    }

    /**
     * Starts telling {@code d} why lookups miss and how entries leave (null stops it): a diagnostic such as the
     * benchmark's read census, which costs a volatile read on those paths while none runs.
     */
    public void observe(Diagnostics d) {
        this.diagnostics = d;
    }

    /**
     * What a cache diagnostic is told ({@link #observe}); calls come from the threads that missed, inserted or
     * dropped, some under a set's seqlock (no call back into the cache).
     */
    public interface Diagnostics {
        /**
         * A lookup of {@code key} missed: {@link #MISS_NOT_CACHED}, {@link #MISS_LEASE_RUN_OUT} ({@code address} is
         * the address whose lease ran out) or {@link #MISS_DROPPED} ({@code address} 0 for the others).
         */
        void onMiss(long key, int cause, long address);

        /** {@link #insert} of {@code key} took the way of {@code evicted}, which was {@link #EVICTED_LIVE} etc. */
        void onEvict(long key, long evicted, int state);

        /** {@link #invalidate} dropped {@code address}, {@code key}'s cached address, as stale. */
        void onDrop(long key, long address);

        /** {@link #invalidateIf} removed {@code key}'s entry (a machine was lost). */
        default void onCleared(long key) {
        }
    }

    /** Tests an entry during {@link #invalidateIf}. */
    @FunctionalInterface
    public interface EntryPredicate {
        boolean test(long key, long address);
    }

    /** Receives the keys {@link #drainHot} hands out. */
    @FunctionalInterface
    public interface HotVisitor {
        void visit(long key, long markedMillis, long markedCount);
    }

    /** Receives entries during {@link #forEach}. */
    @FunctionalInterface
    public interface EntryVisitor {
        void visit(long key, long address, long slotOffset, long accesses);
    }

    @Override
    public void close() {
        if (memory != null) {
            memory.close();
        }
    }
}
