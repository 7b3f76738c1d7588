package io.pragh.bench.shard;

import io.pragh.embedded.EmbeddedCluster;

/**
 * The machines of an embedded cluster as {@link ShardHosts}: each step runs directly on the machine's store through
 * its {@link LocalShards}. The machines share one shard table, so the first {@link #assign} already routes every
 * machine to the new owner; the others only drop their cached addresses.
 *
 * <pre>{@code
 * ShardMover mover = new ShardMover(new EmbeddedShardHosts(cluster, placement), placement);
 * }</pre>
 */
public final class EmbeddedShardHosts implements ShardHosts {
    private final LocalShards[] machines;

    public EmbeddedShardHosts(EmbeddedCluster cluster, ShardPlacement placement) {
        if (cluster.placement() != placement) {
            throw new IllegalArgumentException("the cluster does not use this shard placement");
        }
        machines = new LocalShards[cluster.machineCount()];
        for (int m = 0; m < machines.length; m++) {
            machines[m] = new LocalShards(cluster.machine(m).store(), placement);
        }
    }

    @Override
    public int machines() {
        return machines.length;
    }

    @Override
    public ShardPage export(int machine, int shard, long cursor, int maxBytes) {
        return machines[machine].export(shard, cursor, maxBytes);
    }

    @Override
    public void importPage(int machine, ShardPage page) {
        machines[machine].importPage(page);
    }

    @Override
    public void assign(int machine, int[] shards, int[] owners) {
        machines[machine].assign(shards, owners);
    }

    @Override
    public long unload(int machine, int shard) {
        return machines[machine].unload(shard);
    }
}
