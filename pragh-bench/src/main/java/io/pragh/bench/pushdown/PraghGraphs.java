package io.pragh.bench.pushdown;

import io.pragh.fabric.inprocess.InProcessFabric;
import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.configuration2.MapConfiguration;

/**
 * The PraghGraph the pushdown comparison measures: an embedded cluster of {@value #MACHINES} machines with
 * {@value #WORKERS} workers each, a small location cache ({@value #CACHE_MIB} MiB per machine), {@value #VALUE_MIB} MiB
 * of values per machine, the in-process fabric's default emulated remote latency and no migration; its regions are
 * pre-touched, so that no measurement times a first-touch page fault.
 *
 * <pre>{@code
 * try (PraghGraph graph = PraghGraphs.open()) { workload.loadInto(graph); }
 * }</pre>
 */
public final class PraghGraphs {
    public static final int MACHINES = 4;
    public static final int WORKERS = 2;
    public static final int CACHE_MIB = 16;
    /**
     * Head room for the load rather than for the graph (whose values take a few tens of MiB in all): every addEdge
     * appends to two adjacency values, and each append leaves the old copy to be reclaimed only after the 10 s reclaim
     * lease. The copies of one adjacency of degree d add up to about 8 d^2 bytes, and the top RMAT vertex at scale 14
     * has two of degree 3,698 (OUT and IN) on one machine: over 200 MiB. At 512 MiB a 16-thread load once filled it.
     */
    public static final int VALUE_MIB = 1024;
    /** Threads that load it: its writes wait on acknowledgements, so loading is latency-bound. */
    public static final int LOAD_THREADS = 16;

    private PraghGraphs() {
    }

    public static PraghGraph open() {
        return open(Map.of());
    }

    /** The graph with more settings, such as {@link PraghGraph#WRITE_BEHIND}. */
    public static PraghGraph open(Map<String, Object> more) {
        Map<String, Object> settings = new HashMap<>(Map.<String, Object>of(
            PraghGraph.MACHINES, MACHINES,
            EmbeddedGraphStore.WORKERS, WORKERS,
            EmbeddedGraphStore.CACHE_BYTES, (long) CACHE_MIB << 20,
            EmbeddedGraphStore.VALUE_BYTES, (long) VALUE_MIB << 20,
            EmbeddedGraphStore.PRETOUCH, true));
        settings.putAll(more);
        return PraghGraph.open(new MapConfiguration(settings));
    }

    /** The settings, for reports. */
    public static String describe() {
        return String.format(Locale.ROOT, "%d machines x %d workers, location cache %d MiB/machine, values %d MiB/machine,"
                + " emulated remote latency %d ns, no migration", MACHINES, WORKERS, CACHE_MIB, VALUE_MIB,
            InProcessFabric.DEFAULT_REMOTE_LATENCY_NS);
    }
}
