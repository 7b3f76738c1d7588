package io.pragh.bench.traversal.deploy;

import io.pragh.coordinator.Mechanism;
import io.pragh.store.ReplicaSettings;

/**
 * What one mode's cluster is made of, whichever way it runs: its machines and their region sizes, the placement,
 * and the split-migration policy its monitors and coordinator follow.
 *
 * <pre>{@code
 * ClusterSpec spec = new ClusterSpec(4, 20_000, 64L << 20, 128L << 20, 0, 2_000, 2_000, 10, Mechanism.EAGER);
 * }</pre>
 *
 * @param machines         machines of the cluster
 * @param keysPerMachine   keys each machine's key region is sized for
 * @param valueBytes       value region of each machine
 * @param cacheBytes       location cache of each machine, 0 for none
 * @param shardsPerMachine shard placement with this many shards per machine, or {@link #HASHED} for hash placement
 * @param remoteLatencyNs  emulated latency of a remote one-sided operation (the in-process fabric only)
 * @param intervalMillis   monitoring interval of split migration
 * @param minRate          accesses/s from one machine a key needs to be reported and approved; 0: none, the relative
 *                         policy (the core's default)
 * @param mechanism        coordinator mechanism
 * @param replicaBytes     value-region bytes each machine may spend on read replicas (docs/replicas.md), 0: none
 */
public record ClusterSpec(int machines, long keysPerMachine, long valueBytes, long cacheBytes, int shardsPerMachine,
                          long remoteLatencyNs, long intervalMillis, double minRate, Mechanism mechanism,
                          long replicaBytes) {
    public static final int HASHED = 0;
    /** Replica memory per machine in split-cache-replica: 64 MiB, added to its value region. */
    public static final long DEFAULT_REPLICA_BYTES = 64L << 20;

    /** A cluster without read replicas. */
    public ClusterSpec(int machines, long keysPerMachine, long valueBytes, long cacheBytes, int shardsPerMachine,
                       long remoteLatencyNs, long intervalMillis, double minRate, Mechanism mechanism) {
        this(machines, keysPerMachine, valueBytes, cacheBytes, shardsPerMachine, remoteLatencyNs, intervalMillis,
            minRate, mechanism, 0);
    }

    /** The replica settings of each machine: {@link #replicaBytes} with the default lease, or off. */
    public ReplicaSettings replicas() {
        return replicaBytes > 0 ? new ReplicaSettings(replicaBytes, ReplicaSettings.DEFAULT_LEASE_MILLIS)
            : ReplicaSettings.OFF;
    }

    public ClusterSpec {
        if (machines < 1 || keysPerMachine < 1 || valueBytes < 1 || cacheBytes < 0 || shardsPerMachine < 0
            || remoteLatencyNs < 0 || intervalMillis < 1 || !(minRate >= 0) || replicaBytes < 0) {
            throw new IllegalArgumentException("invalid cluster spec " + machines + " machines, " + keysPerMachine
                + " keys, " + valueBytes + " value bytes, " + cacheBytes + " cache bytes, " + shardsPerMachine
                + " shards per machine, interval " + intervalMillis + " ms, min rate " + minRate);
        }
    }

    /** Whether keys are placed by the shard table (the shard baseline) rather than by hash. */
    public boolean sharded() {
        return shardsPerMachine != HASHED;
    }

    /** Refuses a shard-baseline step on a cluster that places keys by hash. */
    void requireSharded() {
        if (!sharded()) {
            throw new IllegalStateException("this cluster places keys by hash, not by shard");
        }
    }
}
