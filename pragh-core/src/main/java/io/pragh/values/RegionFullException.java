package io.pragh.values;

import io.pragh.PraghException;

/**
 * A value region stayed full for the whole back-pressure wait while superseded records in it were still waiting
 * for their reclaim lease: the write was refused before it took effect, and the same write may succeed once the
 * reclaimer has freed them. A region full of live records is a hard limit instead
 * ({@link io.pragh.LimitExceededException}).
 *
 * <pre>{@code
 * try { machine.put(key, bytes); } catch (RegionFullException e) { retryLater(e.awaitingReclaimBytes()); }
 * }</pre>
 */
public final class RegionFullException extends PraghException {
    private static final long serialVersionUID = 1L;
    private final String region;
    private final long capacityBytes;
    private final long liveBytes;
    private final long awaitingReclaimBytes;

    public RegionFullException(String region, long capacityBytes, long liveBytes, long awaitingReclaimBytes,
                               long requestedBytes, long waitedMillis) {
        super(region + " region is full: " + capacityBytes + " bytes, of which " + awaitingReclaimBytes
            + " hold superseded records awaiting reclaim and " + Math.max(0, liveBytes - awaitingReclaimBytes)
            + " live ones; waited " + waitedMillis + " ms for the reclaimer, still cannot allocate " + requestedBytes
            + " more (retryable: the reclaimer frees superseded records once their reclaim lease has passed)");
        this.region = region;
        this.capacityBytes = capacityBytes;
        this.liveBytes = liveBytes;
        this.awaitingReclaimBytes = awaitingReclaimBytes;
    }

    /** The region's name ("value"). */
    public String region() {
        return region;
    }

    public long capacityBytes() {
        return capacityBytes;
    }

    /** Bytes allocated when the write gave up, superseded records included. */
    public long liveBytes() {
        return liveBytes;
    }

    /** Bytes of superseded records the reclaimer holds until their lease has passed. */
    public long awaitingReclaimBytes() {
        return awaitingReclaimBytes;
    }

    /** Always true: freeing superseded records needs only time. */
    public boolean retryable() {
        return true;
    }
}
