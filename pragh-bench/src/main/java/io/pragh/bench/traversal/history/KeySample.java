package io.pragh.bench.traversal.history;

import io.pragh.keys.Hashing;

/**
 * Which keys a history records: those whose salted hash falls below a threshold, so that about {@code keys} of a
 * population of keys are in the sample, spread over every machine and every rank of popularity. Deciding costs a
 * hash and one comparison, with no allocation: it is asked before every GET of the traversals.
 *
 * <pre>{@code
 * KeySample sample = KeySample.of(1024, readSet.size());
 * if (sample.observes(key)) { ... }
 * }</pre>
 */
public final class KeySample {
    /** Independent of the placement's hash of a vertex and of the key region's bucket hash. */
    private static final long SALT = 0x2545F4914F6CDD1DL;

    /** A key is sampled when its hash, shifted to 63 bits, is at most this: -1 samples none, MAX_VALUE all. */
    private final long atMost;

    private KeySample(long atMost) {
        this.atMost = atMost;
    }

    /** About {@code keys} of {@code population} keys (all of them when {@code keys >= population}; none for 0). */
    public static KeySample of(long keys, long population) {
        if (keys < 0 || population < 0) {
            throw new IllegalArgumentException("a sample of " + keys + " keys of " + population + " is invalid");
        }
        if (keys >= population) {
            return all();
        }
        return new KeySample((long) Math.scalb((double) keys / population, 63) - 1);
    }

    /** Every key. */
    public static KeySample all() {
        return new KeySample(Long.MAX_VALUE);
    }

    /** Whether {@code key}'s history is recorded. */
    public boolean observes(long key) {
        return Hashing.mix(key ^ SALT) >>> 1 <= atMost;
    }

    /** The share of keys sampled. */
    public double rate() {
        return Math.scalb((double) atMost + 1, -63);
    }
}
