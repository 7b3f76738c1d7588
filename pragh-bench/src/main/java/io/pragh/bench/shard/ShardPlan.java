package io.pragh.bench.shard;

/**
 * Which plan the shard baseline moves by ({@link ShardAccessCounts#plan(ShardPlan)}).
 *
 * <p>Example: {@code int[] plan = counts.plan(ShardPlan.BALANCED);}
 */
public enum ShardPlan {
    /** The paper's: the most local accesses with every machine keeping its number of shards. */
    BALANCED,
    /** Every shard to its most frequent reader, however many shards that gathers on one machine. */
    UNBOUNDED;

    /**
     * The plan named {@code name} ({@code balanced} or {@code unbounded}), the value of the benchmarks'
     * {@code --shard-plan}; anything else is refused, naming the flag and the value.
     */
    public static ShardPlan parse(String name) {
        for (ShardPlan p : values()) {
            if (p.name().equalsIgnoreCase(name)) {
                return p;
            }
        }
        throw new IllegalArgumentException("--shard-plan " + name + " is invalid: must be balanced or unbounded");
    }
}
