package io.pragh.gremlin.server;

import io.pragh.server.metrics.MachineCounters;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code g.call("pragh.stats")}: one map per machine this server reads from ({@code ./pragh serve}: every machine of
 * its embedded cluster; a cluster machine: itself) with what {@link MachineCounters#toMap} reads: local and remote
 * accesses, the remote access rate (since start, and over the last 5 to 10 s; -1 when nothing was accessed then),
 * location-cache hits and misses, migrations approved, done and failed, bytes migrated, forwarded updates, keys
 * homed, value bytes hosted and the reclaim backlog. The same figures as {@code GET /metrics}, for a Gremlin client.
 *
 * <p>Example: {@code List<Map<String, Object>> machines = g.call("pragh.stats").toList();
 * // [{machine=0, localAccesses=1200, remoteReads=310, ..., cacheHits=280, cacheMisses=30, ...}, ...]}
 */
public final class StatsService extends StartService<Map<String, Object>> {
    public static final String NAME = "pragh.stats";

    private final List<MachineCounters> machines;

    public StatsService(final List<MachineCounters> machines) {
        super(NAME);
        this.machines = List.copyOf(machines);
    }

    @Override
    protected List<Map<String, Object>> answers() {
        final List<Map<String, Object>> out = new ArrayList<>(machines.size());
        for (final MachineCounters m : machines) {
            out.add(m.toMap());
        }
        return out;
    }
}
