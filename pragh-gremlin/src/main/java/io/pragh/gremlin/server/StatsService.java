package io.pragh.gremlin.server;

import io.pragh.server.metrics.MachineCounters;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.tinkerpop.gremlin.structure.service.Service;
import org.apache.tinkerpop.gremlin.structure.util.CloseableIterator;

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
public final class StatsService implements Service.ServiceFactory<Object, Map<String, Object>>,
    Service<Object, Map<String, Object>> {
    public static final String NAME = "pragh.stats";

    private final List<MachineCounters> machines;

    public StatsService(final List<MachineCounters> machines) {
        this.machines = List.copyOf(machines);
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public Set<Type> getSupportedTypes() {
        return Set.of(Type.Start);
    }

    @Override
    public Service<Object, Map<String, Object>> createService(final boolean isStart, final Map params) {
        if (!isStart) {
            throw new UnsupportedOperationException(NAME + " starts a traversal: g.call(\"" + NAME + "\")");
        }
        return this;
    }

    @Override
    public Type getType() {
        return Type.Start;
    }

    @Override
    public CloseableIterator<Map<String, Object>> execute(final ServiceCallContext ctx, final Map params) {
        final List<Map<String, Object>> out = new ArrayList<>(machines.size());
        for (final MachineCounters m : machines) {
            out.add(m.toMap());
        }
        return CloseableIterator.of(out.iterator());
    }

    @Override
    public void close() {
    }
}
