package io.pragh.store;

/**
 * The settings of read replicas of contended values (docs/replicas.md): the value-region bytes a machine may spend
 * on replicas it holds, and the replica lease. A replica is used only within a lease of the request its host granted
 * (the holder renews it while it is read), so it never outlives a crash of its host by more than the lease; a writer
 * that cannot reach a replica's holder waits out the lease (plus the reclaim lease, which bounds a copy in flight)
 * before its update becomes visible. Every machine of a cluster must use the same settings.
 *
 * <pre>{@code
 * store.replication().configure(new ReplicaSettings(64L << 20, 200));   // 64 MiB of replicas, 200 ms lease
 * }</pre>
 *
 * @param bytesPerMachine value-region bytes the replicas held by one machine may take (0: replicas off)
 * @param leaseMillis     how long a granted replica may be read without a renewal; at most the cache lease
 */
public record ReplicaSettings(long bytesPerMachine, long leaseMillis) {
    /** Replicas off: no machine places or grants any. */
    public static final ReplicaSettings OFF = new ReplicaSettings(0, 0);
    public static final long DEFAULT_LEASE_MILLIS = 1_000;

    public ReplicaSettings {
        if (bytesPerMachine < 0) {
            throw new IllegalArgumentException("replica bytes per machine must be >= 0, got " + bytesPerMachine);
        }
        if (bytesPerMachine > 0 && leaseMillis <= 0) {
            throw new IllegalArgumentException("replica lease must be > 0 ms when replicas are on, got " + leaseMillis);
        }
    }

    public boolean enabled() {
        return bytesPerMachine > 0;
    }
}
