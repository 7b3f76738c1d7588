package io.pragh.server.metrics;

import io.pragh.embedded.Machine;
import io.pragh.fabric.FabricStats;
import io.pragh.migration.Migrator;
import io.pragh.store.MachineStore;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads what one machine already counts, for the metrics and for {@code g.call("pragh.stats")}: its fabric's local
 * and remote accesses, its location cache's hits and misses, its migrator's values and bytes moved here, its
 * forwarded updates, its regions' use and its reclaim backlog, plus the control plane's {@link MigrationCounts}.
 * Nothing is counted here: every figure is a counter the hot path keeps anyway ({@code LongAdder}s summed on read),
 * or a single-writer field of a background thread read plainly (the migrator's and reclaimer's; a read may lag a
 * moment behind its writer, which a metric tolerates).
 *
 * <pre>{@code
 * MachineCounters c = new MachineCounters(machine, MigrationCounts.NONE);
 * Map<String, Object> stats = c.toMap();   // {machine=0, localAccesses=..., remoteReads=..., ...}
 * }</pre>
 */
public final class MachineCounters {
    /** The remote access rate gauge covers the last one to two of these. */
    public static final long RATE_WINDOW_MILLIS = 5_000;

    private final Machine machine;
    private final MachineStore store;
    private final MigrationCounts migrations;
    private final RemoteAccessRate recentRate;

    public MachineCounters(Machine machine, MigrationCounts migrations) {
        this.machine = machine;
        this.store = machine.store();
        this.migrations = migrations;
        this.recentRate = new RemoteAccessRate(store.stats(), RATE_WINDOW_MILLIS);
    }

    public int machineId() {
        return machine.id();
    }

    public FabricStats.Snapshot fabric() {
        return store.stats().snapshot();
    }

    /** Remote share of the one-sided accesses of the last one to two rate windows; NaN when there were none. */
    public double recentRemoteAccessRate() {
        return recentRate.read(System.currentTimeMillis());
    }

    public long cacheHits() {
        return store.cache().hits();
    }

    public long cacheMisses() {
        return store.cache().misses();
    }

    private Migrator migrator() {
        return machine.migrationThread().migrator();
    }

    /** Values this machine's MIGRATEs moved here. */
    public long migrationsDone() {
        return migrator().migrated();
    }

    public long migratedBytes() {
        return migrator().bytesMoved();
    }

    /** MIGRATE rounds that lost a CAS to a concurrent update and went again. */
    public long migrationConflicts() {
        return migrator().conflicts();
    }

    public long migrationsApproved() {
        return migrations.approved();
    }

    public long migrationsFailed() {
        return migrations.failed();
    }

    public long forwardedPuts() {
        return store.forwardedUpdates();
    }

    /** Bytes of this machine's value region that read replicas of values hosted elsewhere take (docs/replicas.md). */
    public long replicaBytes() {
        return store.replication().replicas().bytes();
    }

    public long replicasHeld() {
        return store.replication().replicas().count();
    }

    /** Replicas of values hosted here that updates invalidated on their holders. */
    public long replicasInvalidated() {
        return store.replication().registry().invalidated();
    }

    /** Bytes of live value records here: values homed here and values migrated here (size-class rounded). */
    public long valueBytesHosted() {
        return store.values().liveBytes();
    }

    public long valueRegionCapacityBytes() {
        return store.values().region().capacity();
    }

    /** Off-heap bytes this machine's regions reserve (resident only where touched; no JVM pool reports them). */
    public long offHeapReservedBytes() {
        return machine.offHeapUse().reservedBytes();
    }

    /** Off-heap bytes keys, values and superseded values waiting for reclaim use on this machine. */
    public long offHeapUsedBytes() {
        return machine.offHeapUse().usedBytes();
    }

    /** Keys homed on this machine (its key region's entries). */
    public long keysHomed() {
        return store.keys().size();
    }

    public long keyRegionSlots() {
        return store.keys().slotCapacity();
    }

    /** Bytes of superseded records waiting for their reclaim lease before they are freed. */
    public long reclaimBacklogBytes() {
        return store.reclaimer().pendingBytes();
    }

    public long reclaimedRecords() {
        return store.reclaimer().freed();
    }

    /** Every figure by name: the answer of {@code g.call("pragh.stats")}, one map per machine. */
    public Map<String, Object> toMap() {
        FabricStats.Snapshot f = fabric();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("machine", machine.id());
        m.put("localAccesses", f.localOps());
        m.put("remoteReads", f.remoteReads());
        m.put("remoteWrites", f.remoteWrites());
        m.put("remoteAtomics", f.remoteAtomics());
        m.put("remoteAccessRate", f.remoteAccessRate());
        double recent = recentRemoteAccessRate();
        m.put("recentRemoteAccessRate", Double.isNaN(recent) ? -1.0 : recent);
        m.put("messages", f.messages());
        m.put("cacheHits", cacheHits());
        m.put("cacheMisses", cacheMisses());
        m.put("migrationsApproved", migrationsApproved());
        m.put("migrationsDone", migrationsDone());
        m.put("migrationsFailed", migrationsFailed());
        m.put("migratedBytes", migratedBytes());
        m.put("forwardedPuts", forwardedPuts());
        m.put("keysHomed", keysHomed());
        m.put("keyRegionSlots", keyRegionSlots());
        m.put("valueBytesHosted", valueBytesHosted());
        m.put("replicaBytes", replicaBytes());
        m.put("replicasHeld", replicasHeld());
        m.put("replicasInvalidated", replicasInvalidated());
        m.put("valueRegionBytes", valueRegionCapacityBytes());
        m.put("reclaimBacklogBytes", reclaimBacklogBytes());
        m.put("offHeapReservedBytes", offHeapReservedBytes());
        m.put("offHeapUsedBytes", offHeapUsedBytes());
        return m;
    }
}
