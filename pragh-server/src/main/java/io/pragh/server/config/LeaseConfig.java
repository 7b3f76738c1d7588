package io.pragh.server.config;

import io.pragh.reclaim.Leases;
import java.time.Duration;

/**
 * The two leases of paper section 4.1-4.2: a cached address is not used after {@link #cache}; reclaimed memory is
 * not reused before {@link #reclaim}. The cache lease may not exceed the reclaim lease, or a cached address could
 * outlive the memory it points to.
 *
 * <pre>{@code
 * long cacheMillis = config.leases().cache().toMillis();
 * }</pre>
 */
public record LeaseConfig(Duration cache, Duration reclaim) {
    /** The core's default leases. */
    public static final LeaseConfig DEFAULT = new LeaseConfig(Duration.ofMillis(Leases.DEFAULT.cacheMillis()),
        Duration.ofMillis(Leases.DEFAULT.reclaimMillis()));

    /** The core's lease record. */
    public Leases toLeases() {
        return new Leases(cache.toMillis(), reclaim.toMillis());
    }

    static LeaseConfig read(ConfigNode n) {
        n.allow("cache", "reclaim");
        Duration cache = n.duration("cache", DEFAULT.cache, Duration.ofMillis(1), Duration.ofHours(1));
        Duration reclaim = n.duration("reclaim", DEFAULT.reclaim, Duration.ofMillis(1), Duration.ofHours(1));
        if (cache.compareTo(reclaim) > 0) {
            throw n.error("cache", "the cache lease (" + Units.format(cache) + ") exceeds the reclaim lease ("
                + Units.format(reclaim) + "): a cached address must never outlive the memory it points to");
        }
        return new LeaseConfig(cache, reclaim);
    }
}
