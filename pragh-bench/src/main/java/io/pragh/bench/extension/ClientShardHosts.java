package io.pragh.bench.extension;

import io.pragh.bench.shard.ShardHosts;
import io.pragh.bench.shard.ShardPage;
import java.util.List;

/**
 * Server processes running the bench extension as {@link ShardHosts}, each reached through its client port: a copy
 * pages the shard out of the source (SHARD_EXPORT) and into the target (SHARD_IMPORT) through this process; assign
 * and unload are one request each. A server bounds an export page by its largest value too, so a page always fits
 * an import request. With it the shard baseline's {@code ShardMover} moves shards between processes exactly as
 * within one.
 *
 * <pre>{@code
 * ShardPlacement table = new ShardPlacement(machines, shardsPerMachine);   // the servers' initial table, kept by the mover
 * ShardMover mover = new ShardMover(new ClientShardHosts(clients), table);
 * int moved = mover.apply(counts.plan());
 * }</pre>
 */
public final class ClientShardHosts implements ShardHosts {
    private final List<BenchClient> machines;

    /** @param machines one client per machine, indexed by machine id; not closed here */
    public ClientShardHosts(List<BenchClient> machines) {
        this.machines = List.copyOf(machines);
    }

    @Override
    public int machines() {
        return machines.size();
    }

    @Override
    public ShardPage export(int machine, int shard, long cursor, int maxBytes) {
        return machines.get(machine).exportShard(shard, cursor, maxBytes);
    }

    @Override
    public void importPage(int machine, ShardPage page) {
        machines.get(machine).importShard(page);
    }

    @Override
    public void assign(int machine, int[] shards, int[] owners) {
        machines.get(machine).assignShards(shards, owners);
    }

    @Override
    public long unload(int machine, int shard) {
        return machines.get(machine).unloadShard(shard);
    }
}
