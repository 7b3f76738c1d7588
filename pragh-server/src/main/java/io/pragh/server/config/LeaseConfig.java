package io.pragh.server.config;

import io.pragh.reclaim.Leases;
import java.time.Duration;

/**
 * The two leases of paper section 4.1-4.2 (see {@link Leases}): a cached address is not used after {@link #cache};
 * an invalidated record's memory is not reused before {@link #reclaim}, which is also the longest a reader may take to
 * copy a record. The reclaim lease may be shorter than the cache lease: an address names its record's allocation by a
 * generation, so a cached address that outlived its memory fails its check instead of reading reused bytes.
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
        return new LeaseConfig(cache, reclaim);
    }
}
