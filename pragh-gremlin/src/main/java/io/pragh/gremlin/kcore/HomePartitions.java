package io.pragh.gremlin.kcore;

import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.PraghGraph;

import java.util.ArrayList;
import java.util.List;

/**
 * The vertices of one computation grouped by home machine, so each group's work runs on its home
 * ({@link io.pragh.gremlin.structure.GraphStore#callOnHome}) and reads its adjacency locally. The home is the
 * embedded cluster's placement, or a cluster machine's router; a store that says neither is one group.
 *
 * <p>Example: {@code int[][] groups = HomePartitions.of(graph, vids).groups(); // dense indices per home}
 */
final class HomePartitions {
    private final int[][] groups;

    private HomePartitions(final int[][] groups) {
        this.groups = groups;
    }

    static HomePartitions of(final PraghGraph graph, final long[] vids) {
        final int machines = Math.max(1, graph.store().machines());
        final List<List<Integer>> byHome = new ArrayList<>(machines);
        for (int m = 0; m < machines; m++) {
            byHome.add(new ArrayList<>());
        }
        for (int i = 0; i < vids.length; i++) {
            byHome.get(Math.floorMod(homeOf(graph, vids[i]), machines)).add(i);
        }
        final List<int[]> groups = new ArrayList<>();
        for (final List<Integer> g : byHome) {
            if (!g.isEmpty()) {
                groups.add(g.stream().mapToInt(Integer::intValue).toArray());
            }
        }
        return new HomePartitions(groups.toArray(new int[0][]));
    }

    private static int homeOf(final PraghGraph graph, final long vid) {
        if (graph.backingStore() instanceof EmbeddedGraphStore) {
            return ((EmbeddedGraphStore) graph.backingStore()).cluster().home(GraphKeys.vertex(vid));
        }
        return graph.router() != null ? graph.router().homeOf(vid) : 0;
    }

    /** Dense vertex indices, one array per home that holds any. */
    int[][] groups() {
        return groups;
    }
}
