package io.pragh.coordinator;

import org.agrona.collections.Long2LongHashMap;

/**
 * Keys the coordinator leaves in place because their values have read replicas ({@link Coordinator#keepInPlace}),
 * each remembered for a number of intervals after it was last kept: the policy keeps a key again at every interval
 * whose reports still show its replicas' readers, so a key whose replicas are no longer read is forgotten and may
 * move again, and the set stays bounded by the keys replicated in the last few intervals instead of growing forever.
 * Forgetting one too early costs time, never correctness: a migration of a value whose replicas still run waits out
 * their lease (docs/replicas.md, step 6).
 *
 * <pre>{@code
 * KeptKeys kept = new KeptKeys(4);
 * kept.keep(key, interval);        // a replica was placed or kept in this interval
 * kept.contains(key);              // true until 4 intervals pass without another keep
 * kept.forgetBefore(interval);     // at each interval's end
 * }</pre>
 */
final class KeptKeys {
    private final long intervals;
    /** Key to the interval it was last kept in. */
    private final Long2LongHashMap lastKept = new Long2LongHashMap(-1);
    private long now;

    /** @param intervals intervals a key stays kept after its last {@link #keep} (at least 1) */
    KeptKeys(long intervals) {
        if (intervals < 1) {
            throw new IllegalArgumentException("a key must stay kept at least one interval, not " + intervals);
        }
        this.intervals = intervals;
    }

    void keep(long key, long interval) {
        lastKept.put(key, Math.max(interval, lastKept.get(key)));
    }

    boolean contains(long key) {
        long last = lastKept.get(key);
        return last >= 0 && now - last < intervals;
    }

    /** The interval {@code interval} starts: forgets every key last kept {@link #intervals} or more intervals ago. */
    void forgetBefore(long interval) {
        now = interval;
        lastKept.entrySet().removeIf(e -> interval - e.getValue() >= intervals);
    }

    int size() {
        return lastKept.size();
    }
}
