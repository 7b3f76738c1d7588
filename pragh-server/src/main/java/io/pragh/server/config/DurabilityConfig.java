package io.pragh.server.config;

import io.pragh.durability.SyncPolicy;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How each machine keeps its write-ahead log and snapshots (in its own directory below the data directory): when
 * the log forces records to disk before their updates are acknowledged, and how often a snapshot bounds the log.
 *
 * <pre>{@code
 * Durability d = Durability.open(config.dataDirectory(id), config.durability().sync(),
 *     config.durability().snapshotInterval().toMillis(), store);
 * }</pre>
 *
 * @param sync             none (written to the OS), batch (group commit, the default) or always (fsync per record)
 * @param snapshotInterval how often a background snapshot is written; 0s for never
 */
public record DurabilityConfig(SyncPolicy sync, Duration snapshotInterval) {
    public static final DurabilityConfig DEFAULT = new DurabilityConfig(SyncPolicy.BATCH, Duration.ofSeconds(60));

    private static final Map<String, SyncPolicy> POLICIES = new LinkedHashMap<>();

    static {
        POLICIES.put("none", SyncPolicy.NONE);
        POLICIES.put("batch", SyncPolicy.BATCH);
        POLICIES.put("always", SyncPolicy.ALWAYS);
    }

    static DurabilityConfig read(ConfigNode n) {
        n.allow("sync", "snapshotInterval");
        SyncPolicy sync = n.choice("sync", DEFAULT.sync, POLICIES);
        Duration every = n.duration("snapshotInterval", DEFAULT.snapshotInterval, Duration.ZERO, Duration.ofDays(1));
        return new DurabilityConfig(sync, every);
    }
}
