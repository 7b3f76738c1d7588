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
    SPLIT_CACHE("split-cache"),
    /**
     * Beyond the paper: split-cache plus lease-bounded read replicas of values read from several machines
     * (docs/replicas.md), past the single-copy floor.
     */
    SPLIT_CACHE_REPLICA("split-cache-replica");

    private final String reportName;

    Mode(String reportName) {
        this.reportName = reportName;
    }

    public String reportName() {
        return reportName;
    }

    public boolean migrates() {
        return this == SPLIT || this == SPLIT_CACHE || this == SPLIT_CACHE_REPLICA || this == SHARD;
    }

    /** Whether its machines have a location cache (split-cache and split-cache-replica; ideal never uses one). */
    public boolean cached() {
        return this == SPLIT_CACHE || this == SPLIT_CACHE_REPLICA || this == IDEAL;
    }

    /** Whether it runs split migration's monitors and coordinator. */
    public boolean split() {
        return this == SPLIT || this == SPLIT_CACHE || this == SPLIT_CACHE_REPLICA;
    }

    public static Mode byName(String name) {
        for (Mode m : values()) {
            if (m.reportName.equals(name)) {
                return m;
            }
        }
        throw new IllegalArgumentException("mode '" + name + "' is not one of orig, ideal, shard, split, split-cache,"
            + " split-cache-replica");
    }
}
