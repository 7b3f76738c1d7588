package io.pragh.bench.traversal.deploy;

import io.pragh.coordinator.Mechanism;

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
 */
public record ClusterSpec(int machines, long keysPerMachine, long valueBytes, long cacheBytes, int shardsPerMachine,
                          long remoteLatencyNs, long intervalMillis, double minRate, Mechanism mechanism) {
    public static final int HASHED = 0;

    public ClusterSpec {
        if (machines < 1 || keysPerMachine < 1 || valueBytes < 1 || cacheBytes < 0 || shardsPerMachine < 0
            || remoteLatencyNs < 0 || intervalMillis < 1 || !(minRate >= 0)) {
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
