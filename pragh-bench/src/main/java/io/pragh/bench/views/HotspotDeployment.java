package io.pragh.bench.views;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.Machine;
import io.pragh.gremlin.distributed.ClientPortGraphStore;
import io.pragh.gremlin.events.ViewEvents;
import io.pragh.gremlin.hotspot.ViewHotspots;
import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.server.cli.FreePorts;
import io.pragh.server.cli.LocalCluster;
import io.pragh.server.rpc.ClientProtocol;
import io.pragh.server.rpc.MachineClient;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource.traversal;

/**
 * Where {@code bench hotspot} runs its cases: an embedded cluster in this process ({@link #embedded}), or one server
 * process per machine on 127.0.0.1 ({@link #overProcesses}). Both give the road grid, readers per machine, and the
 * hotspot round as its users run it: the embedding API in one process, {@code g.call("pragh.hotspot", [...])} on the
 * coordinator's Gremlin port across processes.
 *
 * <p>Example: {@code try (HotspotDeployment d = HotspotDeployment.embedded(4, 100, 100)) { d.watch("m3", 1_000); }}
 */
abstract class HotspotDeployment implements AutoCloseable {
    /** GETs through one machine, for one reader thread. */
    interface Reader extends AutoCloseable {
        void get(long key);

        @Override
        void close();
    }

    /** The road grid, loaded. */
    abstract RoadNetwork roads();

    /** Moves the values of {@code keys} to machine {@code machine} (the spread case's starting point). */
    abstract void placeAll(long[] keys, int machine);

    abstract void watch(String view, double readsPerSecond);

    abstract int[] membersByHost(String view);

    /** One hotspot round; the watched view's report ({@code HotspotReport.toMap()}). */
    abstract Map<String, Object> round();

    abstract Reader reader(int machine);

    /** Waits for this process's counted reads to be handled, when they are handled here. */
    abstract void flush() throws InterruptedException;

    /** Events a full lane dropped, or null when they are counted in other processes. */
    abstract Object eventsDropped();

    static HotspotDeployment embedded(final int machines, final int width, final int height) {
        return new Embedded(machines, width, height);
    }

    static HotspotDeployment overProcesses(final int machines, final int width, final int height,
                                           final PrintStream log) {
        return new Processes(machines, width, height, log);
    }

    private static final class Embedded extends HotspotDeployment {
        private final PraghGraph graph;
        private final RoadNetwork roads;
        private final EmbeddedCluster cluster;
        private final ViewEvents events;
        private final ViewHotspots hotspots;

        Embedded(final int machines, final int width, final int height) {
            final BaseConfiguration conf = new BaseConfiguration();
            conf.setProperty(PraghGraph.MACHINES, machines);
            graph = PraghGraph.open(conf);
            roads = RoadNetwork.build(graph, width, height);
            cluster = ((EmbeddedGraphStore) graph.store()).cluster();
            events = ViewEvents.of(roads.views);
            hotspots = ViewHotspots.of(events);
        }

        @Override
        RoadNetwork roads() {
            return roads;
        }

        @Override
        void placeAll(final long[] keys, final int machine) {
            for (final long key : keys) {
                cluster.machine(machine).migrate(key);
            }
        }

        @Override
        void watch(final String view, final double readsPerSecond) {
            hotspots.watch(view, readsPerSecond);
        }

        @Override
        int[] membersByHost(final String view) {
            return hotspots.membersByHost(view);
        }

        @Override
        Map<String, Object> round() {
            return hotspots.runRound().get(0).toMap();
        }

        @Override
        Reader reader(final int machine) {
            final Machine from = cluster.machine(machine);
            return new Reader() {
                @Override
                public void get(final long key) {
                    from.get(key);
                }

                @Override
                public void close() {
                }
            };
        }

        @Override
        void flush() throws InterruptedException {
            events.flush(60_000);
        }

        @Override
        Object eventsDropped() {
            return events.dropped();
        }

        @Override
        public void close() {
            hotspots.close();
            events.close();
            graph.close();
        }
    }

    /**
     * Server processes started as {@code ./pragh cluster start} starts them ({@link LocalCluster}), each with its
     * Gremlin port and {@code extensions: [views]}, no ZooKeeper (machine 0 coordinates), {@code policy.trigger:
     * manual} (only the hotspot rounds move values), logs without forcing. The grid is loaded from this process over
     * machine 0's client port; the servers stop when this process exits, however it exits.
     */
    private static final class Processes extends HotspotDeployment {
        private static final int TIMEOUT_MILLIS = 30_000;
        private static final long START_MILLIS = 180_000;

        private final Path dir;
        private final LocalCluster cluster;
        private final MachineClient coordinator;
        private final PraghGraph graph;
        private final RoadNetwork roads;
        private final Cluster gremlin;
        private final GraphTraversalSource g;

        Processes(final int machines, final int width, final int height, final PrintStream log) {
            try {
                dir = Files.createTempDirectory("pragh-bench-hotspot-");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            final int gremlinBase = FreePorts.run(machines, new int[0]);
            cluster = LocalCluster.create(dir, LocalCluster.Settings.defaults(machines).withGremlinPortBase(gremlinBase)
                .withZooKeeper(LocalCluster.Settings.NO_MEMBERSHIP).withSync("none").withRequestTimeout("10s")
                .withJvmArgs(List.of("-Xmx512m")).withSection("extensions", "[views]")
                .withSection("policy", "{trigger: manual}"));
            log.printf("starting %d server processes in %s%n", machines, dir);
            try {
                cluster.startAll(true, START_MILLIS);
                coordinator = client(0);
                final BaseConfiguration conf = new BaseConfiguration();
                conf.setProperty(PraghGraph.MACHINES, machines);
                graph = PraghGraph.open(conf, new ClientPortGraphStore(client(0)));
                roads = RoadNetwork.build(graph, width, height);
                gremlin = Cluster.build("127.0.0.1").port(gremlinBase).create();
                g = traversal().with(DriverRemoteConnection.using(gremlin, "g"));
            } catch (RuntimeException | Error e) {
                log.println("the hotspot cluster failed; its server logs are kept in " + dir);
                cluster.stopAll();
                throw e;
            }
        }

        private MachineClient client(final int machine) {
            return new MachineClient(cluster.clientAddress(machine), TIMEOUT_MILLIS, cluster.config().secret(),
                cluster.config().tls());
        }

        @Override
        RoadNetwork roads() {
            return roads;
        }

        @Override
        void placeAll(final long[] keys, final int machine) {
            final int[] targets = new int[keys.length];
            Arrays.fill(targets, machine);
            for (int from = 0; from < keys.length; from += ClientProtocol.MAX_BATCH_KEYS) {
                coordinator.place(keys, targets, from, Math.min(ClientProtocol.MAX_BATCH_KEYS, keys.length - from));
            }
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (true) {
                int there = 0;
                for (int from = 0; from < keys.length; from += ClientProtocol.MAX_BATCH_KEYS) {
                    for (final int h : coordinator.hosts(keys, from,
                        Math.min(ClientProtocol.MAX_BATCH_KEYS, keys.length - from))) {
                        there += h == machine ? 1 : 0;
                    }
                }
                if (there == keys.length) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(there + " of " + keys.length + " values reached machine "
                        + machine + " in 120 s");
                }
                try {
                    Thread.sleep(20); // the MIGRATEs run on the target: nothing here to wake on
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while values moved", e);
                }
            }
        }

        private List<Object> hotspot(final Map<String, Object> params) {
            return g.call("pragh.hotspot", params).toList();
        }

        @Override
        void watch(final String view, final double readsPerSecond) {
            hotspot(Map.of("op", "watch", "view", view, "readsPerSecond", readsPerSecond));
        }

        @Override
        @SuppressWarnings("unchecked")
        int[] membersByHost(final String view) {
            for (final Object o : hotspot(Map.of("op", "status"))) {
                final Map<String, Object> m = (Map<String, Object>) o;
                if (view.equals(m.get("view"))) {
                    return ((List<Number>) m.get("membersByMachine")).stream().mapToInt(Number::intValue).toArray();
                }
            }
            throw new IllegalStateException("view '" + view + "' is not watched");
        }

        @Override
        @SuppressWarnings("unchecked")
        Map<String, Object> round() {
            return (Map<String, Object>) hotspot(Map.of("op", "round")).get(0);
        }

        @Override
        Reader reader(final int machine) {
            final MachineClient c = client(machine);
            return new Reader() {
                @Override
                public void get(final long key) {
                    c.get(key);
                }

                @Override
                public void close() {
                    c.close();
                }
            };
        }

        @Override
        void flush() {
            // The reads are counted in the servers' processes; a round has their lanes hand over every read made
            // before it (ViewHotspots.takeFlushed).
        }

        @Override
        Object eventsDropped() {
            return null;
        }

        @Override
        public void close() {
            try {
                gremlin.close();
                graph.close();
                coordinator.close();
            } finally {
                cluster.stopAll();
                try (Stream<Path> files = Files.walk(dir)) {
                    files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                } catch (IOException e) {
                    // A temporary directory left behind: nothing depends on it.
                }
            }
        }
    }
}
