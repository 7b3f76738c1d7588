package io.pragh.gremlin.server;

import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.RequestOptions;
import org.apache.tinkerpop.gremlin.driver.exception.ResponseException;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.Vertex;
import org.apache.tinkerpop.gremlin.util.function.Lambda;
import org.apache.tinkerpop.gremlin.util.ser.Serializers;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import static org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource.traversal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JavaDriverEndToEndTest {
    @Test
    void twoHopCountsOverTheWireMatchTheClientsOwnCount() throws Exception {
        for (final Serializers serializer : new Serializers[] {Serializers.GRAPHBINARY_V1, Serializers.GRAPHSON_V3}) {
            try (ServedGraph served = new ServedGraph()) {
                final Cluster cluster = Cluster.build("127.0.0.1").port(served.port).serializer(serializer).create();
                try {
                    final GraphTraversalSource g = traversal().with(DriverRemoteConnection.using(cluster, "g"));
                    final RandomGraph graph = new RandomGraph(42, 40, 160);
                    final Map<Long, Vertex> vertices = new HashMap<>();
                    for (long v = 0; v < graph.vertices; v++) {
                        // ints, as many clients send small numbers: the server must store them as long ids
                        vertices.put(v, g.addV("node").property(org.apache.tinkerpop.gremlin.structure.T.id, (int) v).next());
                    }
                    for (final long[] e : graph.edges) {
                        g.V(vertices.get(e[0]).id()).addE(RandomGraph.label(e[2])).to(__V(vertices.get(e[1]).id())).iterate();
                    }
                    assertEquals(graph.edges.size(), (long) g.E().count().next());
                    for (int round = 0; round < 3; round++) {
                        for (long v = 0; v < graph.vertices; v++) {
                            assertEquals(graph.twoHopWalks(v), (long) g.V(v).out().out().count().next(), "two-hop walks from " + v + " via " + serializer);
                        }
                        Thread.sleep(250); // let the control plane end an interval and migrate
                    }
                    assertTrue(((io.pragh.gremlin.structure.EmbeddedGraphStore) served.graph.store()).cluster()
                        .migrationControl() != null, "the served graph runs the migration control plane");
                } finally {
                    cluster.close();
                }
            }
        }
    }

    private static org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversal<Object, Vertex> __V(final Object id) {
        return org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.__.V(id);
    }

    @Test
    void groovyScriptsAndLambdasAreRefusedAndTheServerStaysUp() throws Exception {
        try (ServedGraph served = new ServedGraph()) {
            final Cluster cluster = Cluster.build("127.0.0.1").port(served.port).create();
            try {
                final Client client = cluster.connect();
                final ExecutionException groovy = assertThrows(ExecutionException.class,
                    () -> client.submit("g.V().count()").all().get());
                assertTrue(groovy.getCause() instanceof ResponseException);
                assertTrue(groovy.getCause().getMessage().contains("refused by this server"), groovy.getCause().getMessage());

                final GraphTraversalSource g = traversal().with(DriverRemoteConnection.using(cluster, "g"));
                g.addV("person").property("name", "marko").iterate();
                final Exception lambda = assertThrows(Exception.class,
                    () -> g.V().map(Lambda.function("it.get()")).toList());
                final String message = rootMessage(lambda);
                assertTrue(message.contains("lambdas are refused"), message);

                // the server is still up, and a gremlin-lang script is admitted
                assertEquals(1L, (long) g.V().count().next());
                final long viaLang = client.submit("g.V().count()", RequestOptions.build().language("gremlin-lang").create())
                    .one().getLong();
                assertEquals(1L, viaLang);
            } finally {
                cluster.close();
            }
        }
    }

    @Test
    void allowGroovyAdmitsGroovyScripts() throws Exception {
        final ServeOptions options = new ServeOptions();
        options.allowGroovy = true;
        try (ServedGraph served = new ServedGraph(options)) {
            final Cluster cluster = Cluster.build("127.0.0.1").port(served.port).create();
            try {
                assertEquals(9L, cluster.connect().submit("[1, 2, 3].sum() * 1L + 3").one().getLong());
            } finally {
                cluster.close();
            }
        }
    }

    private static String rootMessage(final Throwable t) {
        Throwable c = t;
        final StringBuilder all = new StringBuilder();
        while (c != null) {
            all.append(c.getMessage()).append(" | ");
            c = c.getCause() == c ? null : c.getCause();
        }
        return all.toString();
    }
}
