package io.pragh.store;

import io.pragh.values.ValueRecord;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The incarnations a home gives the keys it inserts: each insert (and each restore) starts a fresh incarnation above
 * every one this home has started or seen, so a key re-inserted after a DELETE, a restart or a restore sorts after
 * everything logged of its earlier lives.
 *
 * <pre>{@code
 * incarnations.observe(loggedVersion);         // recovery, before the store serves
 * long version = incarnations.nextFirstVersion();
 * }</pre>
 */
final class Incarnations {
    private final AtomicLong newest = new AtomicLong();

    /** The first version of a key inserted now at this home: a fresh incarnation. */
    long nextFirstVersion() {
        return ValueRecord.firstVersion(newest.incrementAndGet());
    }

    /** Keeps new incarnations above {@code version}'s. */
    void observe(long version) {
        newest.accumulateAndGet(ValueRecord.incarnationOf(version), Math::max);
    }

    /** The newest incarnation started or seen. */
    long newest() {
        return newest.get();
    }
}
