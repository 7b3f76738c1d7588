package io.pragh.rdf.http;

import io.pragh.gremlin.server.ServeExtension;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.rdf.TestStores;
import org.apache.commons.configuration2.BaseConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./pragh serve} finds the SPARQL endpoint on the class path, and the endpoint answers the SPARQL 1.1
 * protocol's GET and POST forms with SPARQL JSON, and a refused query with 400 naming the construct.
 */
class SparqlEndpointTest {
    private static final String QUERY = "SELECT ?o WHERE { <http://a> <http://p> ?o }";

    @Test
    void serveFindsTheRdfExtension() {
        assertTrue(ServiceLoader.load(ServeExtension.class).stream()
            .anyMatch(p -> p.type() == RdfServeExtension.class));
    }

    @Test
    void serveAcceptsTheExtensionsSettings() {
        assertEquals("x.nt", io.pragh.gremlin.server.GraphSettings.parse(RdfServeExtension.LOAD, "x.nt"));
    }

    @Test
    void extensionStartsNothingUnlessAsked() throws Exception {
        try (GraphStore store = TestStores.embedded(1)) {
            assertNull(new RdfServeExtension().start(store, "127.0.0.1", new BaseConfiguration(), System.err));
        }
    }

    @Test
    void endpointAnswersGetAndPostAndRefusesByName(@TempDir final Path dir) throws Exception {
        final Path file = dir.resolve("t.nt");
        Files.writeString(file, "<http://a> <http://p> <http://b> .\n<http://a> <http://p> \"c\" .\n");
        final BaseConfiguration settings = new BaseConfiguration();
        settings.setProperty(RdfServeExtension.LOAD, file.toString());
        settings.setProperty(RdfServeExtension.PORT, 0);
        try (GraphStore store = TestStores.embedded(2);
             ServeExtension.Started started = new RdfServeExtension().start(store, "127.0.0.1", settings, System.err)) {
            final String url = started.describe().replaceAll("^sparql: (\\S+) .*$", "$1");
            final HttpClient http = HttpClient.newHttpClient();
            final HttpResponse<String> get = send(http, HttpRequest.newBuilder(URI.create(url + "?query="
                + URLEncoder.encode(QUERY, StandardCharsets.UTF_8))).GET());
            assertEquals(200, get.statusCode(), get.body());
            assertTrue(get.headers().firstValue("Content-Type").orElse("").startsWith("application/sparql-results+json"));
            assertTrue(get.body().contains("\"value\": \"http://b\"") || get.body().contains("\"value\" : \"http://b\""),
                get.body());
            final HttpResponse<String> post = send(http, HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("query=" + URLEncoder.encode(QUERY, StandardCharsets.UTF_8))));
            assertEquals(get.body(), post.body());
            final HttpResponse<String> direct = send(http, HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/sparql-query").POST(HttpRequest.BodyPublishers.ofString(QUERY)));
            assertEquals(get.body(), direct.body());
            final HttpResponse<String> refused = send(http, HttpRequest.newBuilder(URI.create(url + "?query="
                + URLEncoder.encode("SELECT ?o WHERE { { ?s <http://p> ?o } UNION { ?o <http://p> ?s } }",
                StandardCharsets.UTF_8))).GET());
            assertEquals(400, refused.statusCode());
            assertTrue(refused.body().startsWith("UNION is not supported"), refused.body());
        }
    }

    private static HttpResponse<String> send(final HttpClient http, final HttpRequest.Builder request)
            throws IOException, InterruptedException {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
