package io.pragh.monitor;

import io.pragh.keys.Hashing;
import java.util.function.LongPredicate;
import org.agrona.collections.Long2LongHashMap;

/**
 * Per-key access counters for the keys a monitor must count itself (local accesses on the coordinator's request, or
 * every remote access on a machine without a location cache). Striped maps under striped locks: recording never
 * allocates once a key has its entry, and threads of one machine rarely meet on a stripe. Each entry packs the
 * count with the host the value was last seen on.
 *
 * <pre>{@code
 * AccessTable t = new AccessTable();
 * t.record(key, host);
 * t.drain((key, host, count) -> ...);   // visit and halve
 * }</pre>
 */
final class AccessTable {
    private static final int STRIPES = 64;
    private static final int HOST_SHIFT = 56;
    private static final long COUNT_MASK = (1L << HOST_SHIFT) - 1;
    private static final long MISSING = -1;

    /** Receives the entries of {@link #decay}. */
    @FunctionalInterface
    interface Visitor {
        void visit(long key, int host, long count);
    }

    private final Long2LongHashMap[] stripes = new Long2LongHashMap[STRIPES];

    AccessTable() {
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Long2LongHashMap(MISSING);
        }
    }

    private Long2LongHashMap stripe(long key) {
        return stripes[(int) (Hashing.mix(key) >>> 58)];
    }

    void record(long key, int host) {
        Long2LongHashMap m = stripe(key);
        synchronized (m) {
            long v = m.get(key);
            long count = v == MISSING ? 0 : v & COUNT_MASK;
            m.put(key, ((long) host << HOST_SHIFT) | Math.min(COUNT_MASK, count + 1));
        }
    }

    /** Adds a key with no accesses yet (so that it is reported even if never accessed). */
    void ensure(long key, int host) {
        Long2LongHashMap m = stripe(key);
        synchronized (m) {
            if (m.get(key) == MISSING) {
                m.put(key, (long) host << HOST_SHIFT);
            }
        }
    }

    void remove(long key) {
        Long2LongHashMap m = stripe(key);
        synchronized (m) {
            m.remove(key);
        }
    }

    long count(long key) {
        Long2LongHashMap m = stripe(key);
        synchronized (m) {
            long v = m.get(key);
            return v == MISSING ? 0 : v & COUNT_MASK;
        }
    }

    /** Visits every entry without changing it. */
    void forEach(Visitor visitor) {
        for (Long2LongHashMap m : stripes) {
            synchronized (m) {
                m.forEachLong((k, v) -> visitor.visit(k, (int) (v >>> HOST_SHIFT), v & COUNT_MASK));
            }
        }
    }

    /**
     * Halves every count (as the location cache's counters are halved), dropping entries that reach zero unless
     * {@code keep} says they are tracked.
     */
    void decay(LongPredicate keep) {
        for (Long2LongHashMap m : stripes) {
            synchronized (m) {
                Long2LongHashMap.EntryIterator it = m.entrySet().iterator();
                while (it.hasNext()) {
                    it.next();
                    long v = it.getLongValue();
                    long count = (v & COUNT_MASK) >>> 1;
                    if (count == 0 && !keep.test(it.getLongKey())) {
                        it.remove();
                    } else {
                        it.setValue((v & ~COUNT_MASK) | count);
                    }
                }
            }
        }
    }
}
