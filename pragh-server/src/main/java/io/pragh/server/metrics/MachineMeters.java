package io.pragh.server.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.function.ToDoubleFunction;

/**
 * One machine's meters, each tagged {@code machine}: function counters and gauges over {@link MachineCounters}, so a
 * meter is read only when scraped and the store's paths do no extra work. The names (Prometheus adds {@code _total}
 * to counters and the unit to names with one) and their meaning are listed in {@code docs/operations.md}.
 *
 * <pre>{@code
 * PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
 * MachineMeters.bind(registry, new MachineCounters(machine, MigrationCounts.NONE));
 * }</pre>
 */
public final class MachineMeters {
    private MachineMeters() {
    }

    /**
     * Registers every meter of {@code c}'s machine in {@code registry}. Micrometer holds {@code c} weakly: the caller
     * keeps it referenced for as long as the meters should report.
     */
    public static void bind(MeterRegistry registry, MachineCounters c) {
        Tags machine = Tags.of("machine", Integer.toString(c.machineId()));
        counter(registry, "pragh.accesses", "One-sided accesses of GETs, updates and migrations: local ones served"
            + " from this machine's memory (key slots, cached addresses, value copies), remote ones over the fabric",
            machine.and("where", "local"), c, x -> x.fabric().localOps());
        counter(registry, "pragh.accesses", null, machine.and("where", "remote"), c, x -> x.fabric().remoteOps());
        counter(registry, "pragh.remote.operations", "Remote one-sided operations by kind", machine.and("op", "read"),
            c, x -> x.fabric().remoteReads());
        counter(registry, "pragh.remote.operations", null, machine.and("op", "write"), c,
            x -> x.fabric().remoteWrites());
        counter(registry, "pragh.remote.operations", null, machine.and("op", "atomic"), c,
            x -> x.fabric().remoteAtomics());
        counter(registry, "pragh.remote.read.bytes", "Bytes read from other machines' memory", machine, c,
            x -> x.fabric().remoteReadBytes());
        counter(registry, "pragh.messages", "Two-sided messages sent (forwarded updates, reports, decisions)",
            machine, c, x -> x.fabric().messages());
        Gauge.builder("pragh.remote.access.rate", c, MachineCounters::recentRemoteAccessRate)
            .description("Remote share of this machine's one-sided accesses over the last 5 to 10 s when scraped at"
                + " least every 5 s (NaN when idle)")
            .tags(machine).register(registry);
        counter(registry, "pragh.location.cache.lookups", "Location cache lookups of remote keys' addresses",
            machine.and("result", "hit"), c, MachineCounters::cacheHits);
        counter(registry, "pragh.location.cache.lookups", null, machine.and("result", "miss"), c,
            MachineCounters::cacheMisses);
        counter(registry, "pragh.migrations.approved", "Migrations this machine approved while it coordinated",
            machine, c, MachineCounters::migrationsApproved);
        counter(registry, "pragh.migrations.done", "Values MIGRATE moved to this machine", machine, c,
            MachineCounters::migrationsDone);
        counter(registry, "pragh.migrations.failed", "MIGRATEs on this machine that ended with an error", machine, c,
            MachineCounters::migrationsFailed);
        counter(registry, "pragh.migrations.conflicts", "MIGRATE rounds that lost to a concurrent update and retried",
            machine, c, MachineCounters::migrationConflicts);
        counter(registry, "pragh.migrated.bytes", "Bytes of values MIGRATE moved to this machine", machine, c,
            MachineCounters::migratedBytes);
        counter(registry, "pragh.forwarded.puts", "Updates forwarded to the machine hosting a migrated value",
            machine, c, MachineCounters::forwardedPuts);
        gauge(registry, "pragh.values.hosted.bytes", "Bytes of live value records on this machine (homed or"
            + " migrated here)", machine, c, MachineCounters::valueBytesHosted);
        gauge(registry, "pragh.replicas.bytes", "Bytes of read replicas this machine holds of values hosted elsewhere"
            + " (bounded per machine)", machine, c, MachineCounters::replicaBytes);
        gauge(registry, "pragh.replicas.held", "Read replicas this machine holds", machine, c,
            MachineCounters::replicasHeld);
        counter(registry, "pragh.replicas.invalidated", "Replicas of values hosted here that updates invalidated",
            machine, c, MachineCounters::replicasInvalidated);
        gauge(registry, "pragh.value.region.bytes", "Size of this machine's value region", machine, c,
            MachineCounters::valueRegionCapacityBytes);
        gauge(registry, "pragh.offheap.reserved.bytes", "Off-heap bytes this machine's regions reserve (keys, values,"
            + " reclaim rings, location cache); resident only where touched", machine, c,
            MachineCounters::offHeapReservedBytes);
        gauge(registry, "pragh.offheap.used.bytes", "Off-heap bytes keys, value records and superseded values waiting"
            + " for reclaim use", machine, c, MachineCounters::offHeapUsedBytes);
        gauge(registry, "pragh.keys.homed", "Keys homed on this machine", machine, c, MachineCounters::keysHomed);
        gauge(registry, "pragh.key.region.slots", "Key slots this machine's key region holds at most", machine, c,
            MachineCounters::keyRegionSlots);
        gauge(registry, "pragh.reclaim.backlog.bytes", "Bytes of superseded values waiting for their reclaim lease",
            machine, c, MachineCounters::reclaimBacklogBytes);
        counter(registry, "pragh.reclaimed.records", "Superseded value records freed", machine, c,
            MachineCounters::reclaimedRecords);
    }

    private static void counter(MeterRegistry registry, String name, String description, Tags tags,
                                MachineCounters c, ToDoubleFunction<MachineCounters> read) {
        FunctionCounter.Builder<MachineCounters> b = FunctionCounter.builder(name, c, read).tags(tags);
        if (description != null) {
            b.description(description);
        }
        b.register(registry);
    }

    private static void gauge(MeterRegistry registry, String name, String description, Tags tags, MachineCounters c,
                              ToDoubleFunction<MachineCounters> read) {
        Gauge.builder(name, c, read).description(description).tags(tags).register(registry);
    }
}
