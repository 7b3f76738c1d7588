package io.pragh.tier;

/**
 * Bytes of values by tier and by where they live, as one machine's last census saw them (the tier's metrics).
 * Local bytes are records in the machine's own value region; far bytes are values the machine homes that live on a
 * memory node.
 *
 * <pre>{@code
 * TierBytes b = tiering.bytes(0);
 * double farShare = (double) b.far() / b.total();
 * }</pre>
 */
public record TierBytes(long localHot, long localWarm, long localCold, long farHot, long farWarm, long farCold) {
    public static final TierBytes NONE = new TierBytes(0, 0, 0, 0, 0, 0);

    public long local() {
        return localHot + localWarm + localCold;
    }

    public long far() {
        return farHot + farWarm + farCold;
    }

    public long total() {
        return local() + far();
    }

    /** Bytes of one tier, local and far together. */
    public long of(Tier tier) {
        return local(tier) + far(tier);
    }

    /** Local bytes of one tier. */
    public long local(Tier tier) {
        return switch (tier) {
            case HOT -> localHot;
            case WARM -> localWarm;
            case COLD -> localCold;
        };
    }

    /** Far bytes of one tier. */
    public long far(Tier tier) {
        return switch (tier) {
            case HOT -> farHot;
            case WARM -> farWarm;
            case COLD -> farCold;
        };
    }

    public TierBytes plus(TierBytes o) {
        return new TierBytes(localHot + o.localHot, localWarm + o.localWarm, localCold + o.localCold,
            farHot + o.farHot, farWarm + o.farWarm, farCold + o.farCold);
    }
}
