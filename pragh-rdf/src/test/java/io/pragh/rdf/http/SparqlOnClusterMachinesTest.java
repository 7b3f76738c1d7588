package io.pragh.rdf.http;

import io.pragh.gremlin.structure.GraphStore;
import io.pragh.gremlin.distributed.InJvmCluster;
import io.pragh.rdf.JenaRows;
import io.pragh.rdf.load.RdfLoad;
import io.pragh.rdf.lubm.LubmGenerator;
import io.pragh.rdf.store.RdfStore;
import org.apache.jena.query.Dataset;
import org.apache.jena.riot.RDFDataMgr;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every machine of a multi-process cluster with a {@code sparql} section answers {@code /sparql} over the whole
 * cluster's data: LUBM-1 is loaded through machine 0, and machine 1's endpoint gives Jena's rows for every query of
 * the LUBM set (their lists live on both machines, so the answers need the other machine's values), refusing an
 * unsupported construct by name as {@code ./pragh serve}'s endpoint does. Two server machines in this JVM on the TCP
 * fabric stand for two processes.
 */
class SparqlOnClusterMachinesTest {
    private static final int MACHINES = 2;
    private static InJvmCluster cluster;
    private static int sparqlPort;
    private static Dataset jena;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void load() throws IOException {
        final Path file = Files.createTempFile("lubm-1-", ".nt");
        try {
            try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                new LubmGenerator(1, 0).write(w);
            }
            sparqlPort = InJvmCluster.freeConsecutivePorts(MACHINES);
            cluster = InJvmCluster.start(MACHINES, s -> s.withStore("64MiB", 1L << 18, "4MiB")
                .withSection("sparql", "{port: " + sparqlPort + "}"));
            try (GraphStore store = cluster.store(0)) {
                RdfLoad.into(new RdfStore(store)).load(file);
            }
            jena = RDFDataMgr.loadDataset(file.toString());
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @AfterAll
    static void close() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static String url(final int machine) {
        return "http://127.0.0.1:" + (sparqlPort + machine) + "/sparql";
    }

    private static HttpResponse<String> post(final int machine, final String query) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url(machine)))
            .header("Content-Type", "application/sparql-query")
            .POST(HttpRequest.BodyPublishers.ofString(query)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"L1", "L2", "L3", "L4", "L5", "L6", "L7"})
    void anotherMachineAnswersLubmQueriesAsJenaDoes(final String name) throws Exception {
        final String query = JenaRows.lubm(name);
        final HttpResponse<String> answer = post(1, query);
        assertEquals(200, answer.statusCode(), answer.body());
        assertEquals(JenaRows.of(query, jena), JenaRows.ofJson(answer.body()), name);
    }

    @Test
    void everyMachineServesAndSaysWhere() throws Exception {
        for (int m = 0; m < MACHINES; m++) {
            assertTrue(cluster.node(m).describe().contains("sparql " + url(m)),
                cluster.node(m).describe());
            final HttpResponse<String> count = post(m, "SELECT (COUNT(*) AS ?n) WHERE { ?x a"
                + " <http://swat.cse.lehigh.edu/onto/univ-bench.owl#Course> }");
            assertEquals(200, count.statusCode(), count.body());
            assertTrue(count.body().matches("(?s).*\"value\" *: *\"[1-9][0-9]*\".*"), count.body());
        }
    }

    @Test
    void unsupportedConstructIsRefusedByName() throws Exception {
        final HttpResponse<String> refused = post(1, "SELECT ?s WHERE { { ?s ?p ?o } UNION { ?o ?p ?s } }");
        assertEquals(400, refused.statusCode());
        assertTrue(refused.body().contains("UNION"), refused.body());
    }
}
