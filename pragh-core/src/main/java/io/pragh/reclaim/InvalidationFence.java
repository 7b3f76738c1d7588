package io.pragh.reclaim;

import java.util.concurrent.atomic.AtomicIntegerArray;
import io.pragh.keys.Hashing;

/**
 * Orders a migration's invalidation before any later update of the migrated value is acknowledged (paper footnote
 * 10). MIGRATE enters the fence for its key before its CAS and leaves after the old record's invalidation
 * completed; an update that replaced the migrated record waits for the fence before it acknowledges, so that once
 * the update is acknowledged no reader can find the pre-migration copy valid. Striped by key hash: an unrelated key
 * on the same stripe only delays an acknowledgement by one invalidation.
 */
public final class InvalidationFence {
    private static final int STRIPES = 4096;
    private final AtomicIntegerArray inFlight = new AtomicIntegerArray(STRIPES);

    private static int stripe(long key) {
        return (int) (Hashing.bucketHash(key) & (STRIPES - 1));
    }

    public void enter(long key) {
        inFlight.incrementAndGet(stripe(key));
    }

    public void exit(long key) {
        inFlight.decrementAndGet(stripe(key));
    }

    /** Spins until no migration of a key on this stripe is between its CAS and its completed invalidation. */
    public void await(long key) {
        int s = stripe(key);
        while (inFlight.get(s) != 0) {
            Thread.onSpinWait();
        }
    }
}
