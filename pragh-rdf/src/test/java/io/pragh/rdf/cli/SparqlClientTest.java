package io.pragh.rdf.cli;

import io.pragh.gremlin.server.ServeExtension;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.rdf.TestStores;
import io.pragh.rdf.http.Endpoints;
import io.pragh.rdf.http.RdfServeExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./pragh sparql --server host:port} asks a running endpoint: the rows of a supported query, the endpoint's
 * 400 naming the construct of a refused one, and a clear error for a malformed {@code --server}.
 */
class SparqlClientTest {
    @Test
    void askGetsTheServersRowsAndItsRefusal(@TempDir final Path dir) throws Exception {
        try (GraphStore store = TestStores.embedded(1);
             ServeExtension.Started started = new RdfServeExtension().start(store, "127.0.0.1",
                 Endpoints.settings(Endpoints.triples(dir)), System.err)) {
            final String hostPort = Endpoints.url(started).replaceAll("^http://(\\S+)/sparql$", "$1");
            final SparqlClient.Answer rows = SparqlClient.ask(hostPort, "SELECT ?o WHERE { <http://a> <http://p> ?o }", null,
                null);
            assertEquals(200, rows.status(), rows.body());
            assertTrue(rows.body().contains("http://b"), rows.body());
            final SparqlClient.Answer refused = SparqlClient.ask(hostPort,
                "SELECT ?o WHERE { <http://a> <http://p> ?o } ORDER BY ?o", null, null);
            assertEquals(400, refused.status(), refused.body());
            assertTrue(refused.body().contains("ORDER BY"), refused.body());
        }
    }

    @Test
    void userLogsInWithThePasswordGiven(@TempDir final Path dir) throws Exception {
        final Path users = dir.resolve("users.txt");
        java.nio.file.Files.writeString(users, "ann:s3cret\n");
        final var settings = Endpoints.settings(Endpoints.triples(dir));
        settings.setProperty(ServeExtension.CREDENTIALS, users.toString());
        final String query = "SELECT ?o WHERE { <http://a> <http://p> ?o }";
        try (GraphStore store = TestStores.embedded(1);
             ServeExtension.Started started = new RdfServeExtension().start(store, "127.0.0.1", settings, System.err)) {
            final String url = Endpoints.url(started);
            final SparqlClient.Answer anonymous = SparqlClient.ask(url, query, null, null);
            assertEquals(401, anonymous.status());
            assertTrue(anonymous.body().contains("--user USER"), anonymous.body());
            assertEquals(200, SparqlClient.ask(url, query, "ann", "s3cret").status());
            assertThrows(IllegalArgumentException.class, () -> SparqlClient.ask(url, query, "ann", null));
        }
    }

    @Test
    void malformedServerIsNamed() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> SparqlClient.uri("localhost"));
        assertTrue(e.getMessage().contains("--server localhost"), e.getMessage());
    }
}
