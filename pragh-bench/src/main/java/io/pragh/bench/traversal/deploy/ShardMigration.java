package io.pragh.bench.traversal.deploy;

import io.pragh.bench.shard.ShardPlan;

/**
 * The shard baseline's migration on a bench cluster (paper section 2.3): every access counted per shard and reader
 * for one interval, then each shard moved to its most frequent reader, with the benchmark's clients paused.
 *
 * <pre>{@code
 * ShardMigration s = cluster.shardMigration();
 * s.startTracking(); Thread.sleep(2_000); s.stopTracking();
 * ShardMigration.Moved moved = s.moveToReaders(ShardPlan.BALANCED);
 * }</pre>
 */
public interface ShardMigration {
    /** What a move did. */
    record Moved(int shards, int totalShards, long keys, long bytes) {
    }

    /** Starts counting every machine's accesses per shard, from zero. */
    void startTracking();

    /** Stops counting (the counts are kept for the plan). */
    void stopTracking();

    /**
     * Moves the shards by {@code plan} made from the counts while tracked ({@link ShardPlan#BALANCED}: the most local
     * accesses with every machine keeping its number of shards); no client may write meanwhile.
     */
    Moved moveToReaders(ShardPlan plan);
}
