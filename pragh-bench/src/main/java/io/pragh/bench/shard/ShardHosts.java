package io.pragh.bench.shard;

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

    /** Record bytes asked per page of a copy: enough that a page's round trip costs little next to its bytes. */
    int PAGE_BYTES = 1 << 20;

    int machines();

    /** A page of {@code machine}'s records of {@code shard}, which it owns; see {@link LocalShards#export}. */
    ShardPage export(int machine, int shard, long cursor, int maxBytes);

    /** Loads a page on {@code machine} as local records, all or none; see {@link LocalShards#importRecords}. */
    void importPage(int machine, ShardPage page);

    /**
     * Copies every key of {@code shard} with its value and version from {@code source}, its owner, to {@code target}
     * as records local to the target, a page at a time. The shard's table entries are not touched: readers still go
     * to the source.
     */
    default Copied copy(int shard, int source, int target) {
        long keys = 0;
        long bytes = 0;
        long cursor = ShardPage.START;
        do {
            ShardPage page = export(source, shard, cursor, PAGE_BYTES);
            if (page.records() > 0) {
                importPage(target, page);
            }
            keys += page.records();
            bytes += page.valueBytes();
            cursor = page.next();
        } while (cursor != ShardPage.END);
        return new Copied(keys, bytes);
    }

    /**
     * Sets, on {@code machine}, the owner of each {@code shards[i]} to {@code owners[i]}, then drops that machine's
     * cached addresses of those shards' keys (an address is relative to the key's home, which just changed).
     */
    void assign(int machine, int[] shards, int[] owners);

    /** Removes {@code machine}'s keys of {@code shard}, which it no longer owns; returns how many it held. */
    long unload(int machine, int shard);
}
