package io.pragh.bench.traversal;

/**
 * The settings the traversal benchmark compares (paper section 6), by their report names.
 *
 * <pre>{@code
 * Mode m = Mode.byName("split-cache");
 * }</pre>
 */
public enum Mode {
    /** Hash partitioned, no migration. */
    ORIG("orig"),
    /** One machine with the same query threads: every access local. */
    IDEAL("ideal"),
    /** Shard-based migration (100 shards per machine, optimal plan): the coarse-grained baseline. */
    SHARD("shard"),
    /** Split live migration without a location cache. */
    SPLIT("split"),
    /** Split live migration with the location cache. */
    SPLIT_CACHE("split-cache");

    private final String reportName;

    Mode(String reportName) {
        this.reportName = reportName;
    }

    public String reportName() {
        return reportName;
    }

    public boolean migrates() {
        return this == SPLIT || this == SPLIT_CACHE || this == SHARD;
    }

    public static Mode byName(String name) {
        for (Mode m : values()) {
            if (m.reportName.equals(name)) {
                return m;
            }
        }
        throw new IllegalArgumentException("mode '" + name + "' is not one of orig, ideal, shard, split, split-cache");
    }
}
