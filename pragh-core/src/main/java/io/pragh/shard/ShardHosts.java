package io.pragh.shard;

/**
 * The machines a {@link ShardMover} moves shards between, whatever they are: the machines of one process
 * ({@link EmbeddedShardHosts}) or server processes reached over their client ports. Each step names the machine it
 * runs on, so one move sequence (copy, assign everywhere, grace period, unload) serves both.
 *
 * <pre>{@code
 * ShardHosts hosts = new EmbeddedShardHosts(cluster, placement);
 * ShardHosts.Copied c = hosts.copy(shard, placement.owner(shard), target);
 * for (int m = 0; m < hosts.machines(); m++) {
 *     hosts.assign(m, new int[] {shard}, new int[] {target});
 * }
 * hosts.unload(source, shard);
 * }</pre>
 */
public interface ShardHosts {
    /** What one shard's copy carried. */
    record Copied(long keys, long bytes) {
    }

    int machines();

    /**
     * Copies every key of {@code shard} with its value and version from {@code source}, its owner, to {@code target}
     * as records local to the target. The shard's table entries are not touched: readers still go to the source.
     */
    Copied copy(int shard, int source, int target);

    /**
     * Sets, on {@code machine}, the owner of each {@code shards[i]} to {@code owners[i]}, then drops that machine's
     * cached addresses of those shards' keys (an address is relative to the key's home, which just changed).
     */
    void assign(int machine, int[] shards, int[] owners);

    /** Removes {@code machine}'s keys of {@code shard}, which it no longer owns; returns how many it held. */
    long unload(int machine, int shard);
}
