package io.pragh.server.config;

import io.pragh.store.ReplicaSettings;
import java.time.Duration;

/**
 * Read replicas of contended values (docs/replicas.md), the cluster file's {@code replicas} section: the value-region
 * bytes each machine may spend on replicas it holds (0, the default: off) and their lease. When on, the coordinator
 * offers replicas after each interval's decisions ({@code ReplicaPolicy}) and every machine places, grants, renews
 * and invalidates them over the fabric. The lease is at most the cache lease (checked when the machine starts).
 *
 * <pre>{@code
 * replicas: {bytesPerMachine: 64MiB, lease: 1s}
 * ReplicaSettings s = config.replicas().toSettings();
 * }</pre>
 *
 * @param bytesPerMachine value-region bytes the replicas one machine holds may take; 0 for none
 * @param lease           how long a granted replica may be read without a renewal
 */
public record ReplicaConfig(long bytesPerMachine, Duration lease) {
    public static final ReplicaConfig OFF = new ReplicaConfig(0,
        Duration.ofMillis(ReplicaSettings.DEFAULT_LEASE_MILLIS));

    /** The core's settings: {@link ReplicaSettings#OFF} when no bytes are given. */
    public ReplicaSettings toSettings() {
        return bytesPerMachine == 0 ? ReplicaSettings.OFF : new ReplicaSettings(bytesPerMachine, lease.toMillis());
    }

    static ReplicaConfig read(ConfigNode n) {
        n.allow("bytesPerMachine", "lease");
        long bytes = n.bytes("bytesPerMachine", OFF.bytesPerMachine, 0, Long.MAX_VALUE / 2);
        Duration lease = n.duration("lease", OFF.lease, Duration.ofMillis(1), Duration.ofHours(1));
        return new ReplicaConfig(bytes, lease);
    }
}
