package io.pragh.server.metrics;

import io.pragh.fabric.FabricStats;

/**
 * The recent remote access rate of one machine (the share of its one-sided accesses that crossed the fabric), for a
 * gauge: a cumulative rate would hide a migration's effect behind hours of history. Readings are kept lazily when
 * the gauge is read, at most one per window, and the rate runs from the older of the two kept (at least one window
 * old) to now: the last one to two windows when scraped at least once a window, since the scrape before the last
 * when scraped less often. Several scrapers do not shorten it. NaN when nothing was accessed in it.
 *
 * <pre>{@code
 * RemoteAccessRate rate = new RemoteAccessRate(store.stats(), 5_000);
 * double recent = rate.read(System.currentTimeMillis());
 * }</pre>
 */
final class RemoteAccessRate {
    private final FabricStats stats;
    private final long windowMillis;
    private FabricStats.Snapshot older = FabricStats.Snapshot.ZERO;
    private FabricStats.Snapshot newer = FabricStats.Snapshot.ZERO;
    private long newerAt = Long.MIN_VALUE;

    RemoteAccessRate(FabricStats stats, long windowMillis) {
        this.stats = stats;
        this.windowMillis = windowMillis;
    }

    /** Scrapes are rare (seconds apart): a lock costs nothing here and keeps the two readings consistent. */
    synchronized double read(long nowMillis) {
        FabricStats.Snapshot now = stats.snapshot();
        if (newerAt == Long.MIN_VALUE || nowMillis - newerAt >= windowMillis) {
            older = newer;
            newer = now;
            newerAt = nowMillis;
        }
        FabricStats.Snapshot recent = now.minus(older);
        long total = recent.remoteOps() + recent.localOps();
        // A counter reset (a benchmark between phases) shows as negative counts: no rate until the next window.
        return total <= 0 || recent.localOps() < 0 || recent.remoteOps() < 0 ? Double.NaN
            : (double) recent.remoteOps() / total;
    }
}
