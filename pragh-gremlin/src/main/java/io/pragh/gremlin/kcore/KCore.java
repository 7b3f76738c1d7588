package io.pragh.gremlin.kcore;

import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.view.PraghViews;
import org.apache.tinkerpop.gremlin.structure.Direction;
import org.apache.tinkerpop.gremlin.structure.Vertex;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.IntFunction;

/**
 * The k-core of the graph, or of a view, by parallel peeling (the synchronous-rounds peeling Concerto cites): edges
 * are taken undirected, without self-loops or repeats, and, on a view, only between members. The vertices are
 * grouped by home machine and each group's work (reading its adjacency, then each round removing its vertices of
 * degree below k and lowering their neighbours' degrees) runs on that home, one task per home per round. Removing
 * any vertex whose remaining degree is below k never removes a core vertex, and the rounds stop when none is left,
 * so the survivors are exactly the k-core. The result can be written as a view or as a vertex property.
 *
 * <p>Example:
 * <pre>{@code
 * KCore.Result core = new KCore(views).run(3, null);       // the 3-core of the whole graph
 * core.writeView("core3");                                  // a new view holding it
 * core.writeProperty("core");                               // core = 3 on each member vertex
 * }</pre>
 */
public final class KCore {
    private final PraghViews views;
    private final PraghGraph graph;

    public KCore(final PraghViews views) {
        this.views = views;
        this.graph = views.graph();
    }

    /** Registers {@code g.call("pragh.kcore", [...])} on the graph of {@code views} (again: the latest registration serves). */
    public static KCore register(final PraghViews views) {
        final KCore kcore = new KCore(views);
        // Registering again replaces the earlier service: the latest handle serves the calls.
        views.graph().getServiceRegistry().registerService(new KCoreService(kcore));
        return kcore;
    }

    /** The {@code k}-core of view {@code view}, or of the whole graph when {@code view} is null. */
    public Result run(final int k, final String view) {
        if (k < 1) {
            throw new IllegalArgumentException("k-core needs k >= 1; got " + k);
        }
        final long[] vids = view == null ? allVertices() : views.members(view);
        final Map<Long, Integer> index = new HashMap<>(vids.length * 2);
        for (int i = 0; i < vids.length; i++) {
            index.put(vids[i], i);
        }
        final int[][] groups = HomePartitions.of(graph, vids).groups();
        final int[][] adjacency = new int[vids.length][];
        final ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, groups.length), r -> {
            final Thread t = new Thread(r, "pragh-kcore");
            t.setDaemon(true);
            return t;
        });
        try {
            onHomes(pool, vids, groups, g -> () -> {
                for (final int i : groups[g]) {
                    adjacency[i] = neighbours(vids[i], index);
                }
                return 0;
            });
            final AtomicIntegerArray degree = new AtomicIntegerArray(vids.length);
            for (int i = 0; i < vids.length; i++) {
                degree.set(i, adjacency[i].length);
            }
            final boolean[] removed = new boolean[vids.length];
            final int[][] peeled = new int[groups.length][];
            int rounds = 0;
            while (true) {
                rounds++;
                // Phase 1: each home picks its own live vertices below k (it alone writes their removed flags).
                onHomes(pool, vids, groups, g -> () -> {
                    final int[] mine = Arrays.stream(groups[g]).filter(i -> !removed[i] && degree.get(i) < k).toArray();
                    for (final int i : mine) {
                        removed[i] = true;
                    }
                    peeled[g] = mine;
                    return mine.length;
                });
                if (Arrays.stream(peeled).allMatch(p -> p.length == 0)) {
                    break;
                }
                // Phase 2: each home lowers the degrees of its peeled vertices' neighbours (atomic: homes share them).
                onHomes(pool, vids, groups, g -> () -> {
                    for (final int i : peeled[g]) {
                        for (final int n : adjacency[i]) {
                            degree.decrementAndGet(n);
                        }
                    }
                    return 0;
                });
            }
            final List<Long> core = new ArrayList<>();
            for (int i = 0; i < vids.length; i++) {
                if (!removed[i]) {
                    core.add(vids[i]);
                }
            }
            return new Result(k, core.stream().mapToLong(Long::longValue).sorted().toArray(), rounds);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Runs one task per home group, each on its group's home machine, and waits for all (the round's barrier). */
    private void onHomes(final ExecutorService pool, final long[] vids, final int[][] groups,
                         final IntFunction<java.util.concurrent.Callable<Integer>> task) {
        final GraphStore store = graph.store();
        final List<Future<Integer>> running = new ArrayList<>(groups.length);
        for (int g = 0; g < groups.length; g++) {
            final long homeKey = GraphKeys.vertex(vids[groups[g][0]]);
            final java.util.concurrent.Callable<Integer> work = task.apply(g);
            running.add(pool.submit(() -> store.callOnHome(homeKey, work)));
        }
        try {
            for (final Future<Integer> f : running) {
                f.get();
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("k-core interrupted", e);
        } catch (final ExecutionException e) {
            throw new IllegalStateException("k-core failed on a home machine: " + e.getCause(), e.getCause());
        }
    }

    private int[] neighbours(final long vid, final Map<Long, Integer> index) {
        final Iterator<Vertex> it = graph.vertexHandle(vid).vertices(Direction.BOTH);
        int[] buf = new int[16];
        int n = 0;
        while (it.hasNext()) {
            final long other = PraghGraph.toVid(it.next().id());
            final Integer j = other == vid ? null : index.get(other);
            if (j != null) {
                if (n == buf.length) {
                    buf = Arrays.copyOf(buf, n * 2);
                }
                buf[n++] = j;
            }
        }
        return Arrays.stream(buf, 0, n).distinct().toArray();
    }

    private long[] allVertices() {
        final List<Long> vids = new ArrayList<>();
        graph.store().forEachKey(GraphKeys.VERTEX, key -> vids.add(GraphKeys.vid(key)));
        return vids.stream().mapToLong(Long::longValue).toArray();
    }

    /** The vertices of one k-core, and where to write them. */
    public final class Result {
        private final int k;
        private final long[] members;
        private final int rounds;

        Result(final int k, final long[] members, final int rounds) {
            this.k = k;
            this.members = members;
            this.rounds = rounds;
        }

        public int k() {
            return k;
        }

        /** The core's vertex ids, ascending. */
        public long[] members() {
            return members.clone();
        }

        /** Peeling rounds run (the last one removed nothing). */
        public int rounds() {
            return rounds;
        }

        /** Makes view {@code name} (created when absent) hold exactly the core. */
        public void writeView(final String name) {
            if (views.exists(name)) {
                views.drop(name);
            }
            views.create(name);
            views.add(name, members);
        }

        /** Sets vertex property {@code name} to k on every core vertex. */
        public void writeProperty(final String name) {
            for (final long vid : members) {
                graph.vertexHandle(vid).property(name, k);
            }
        }
    }
}
