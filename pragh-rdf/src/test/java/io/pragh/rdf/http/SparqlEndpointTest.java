package io.pragh.rdf.http;

import io.pragh.gremlin.server.ServeExtension;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.rdf.TestStores;
import io.pragh.rdf.lubm.LubmGenerator;
import io.pragh.rdf.sparql.SparqlEngine;
import io.pragh.rdf.store.RdfStore;
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
import java.util.Base64;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./pragh serve} finds the SPARQL endpoint on the class path, and the endpoint answers the SPARQL 1.1
 * protocol's GET and POST forms with SPARQL JSON (a LUBM query as the engine answers it in process), a refused query
 * with 400 naming the construct, an oversize query with 413 naming the limit, and asks for the Gremlin port's logins
 * when {@code serve} has them.
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
        try (GraphStore store = TestStores.embedded(2);
             ServeExtension.Started started = new RdfServeExtension().start(store, "127.0.0.1",
                 Endpoints.settings(Endpoints.triples(dir)), System.err)) {
            final String url = url(started);
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

    @Test
    void lubmQueryOverHttpIsTheEmbeddedAnswer(@TempDir final Path dir) throws Exception {
        final Path file = dir.resolve("lubm-1.nt");
        try (java.io.Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            new LubmGenerator(1, 0).write(w);
        }
        final String l4;
        try (java.io.InputStream in = getClass().getResourceAsStream("/io/pragh/rdf/lubm/L4.rq")) {
            l4 = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        try (GraphStore store = TestStores.embedded(2);
             ServeExtension.Started started = new RdfServeExtension().start(store, "127.0.0.1",
                 Endpoints.settings(file), System.err)) {
            final java.io.ByteArrayOutputStream embedded = new java.io.ByteArrayOutputStream();
            new SparqlEngine(new RdfStore(store)).query(l4).writeJson(embedded);
            final HttpResponse<String> http = send(HttpClient.newHttpClient(), HttpRequest.newBuilder(
                URI.create(url(started))).header("Content-Type", "application/sparql-query")
                .POST(HttpRequest.BodyPublishers.ofString(l4)));
            assertEquals(200, http.statusCode(), http.body());
            assertTrue(http.body().contains("\"bindings\""), http.body());
            assertEquals(embedded.toString(StandardCharsets.UTF_8), http.body());
        }
    }

    @Test
    void oversizeQueryIsRefusedNamingTheLimit(@TempDir final Path dir) throws Exception {
        final BaseConfiguration settings = Endpoints.settings(Endpoints.triples(dir));
        settings.setProperty(RdfServeExtension.MAX_QUERY_BYTES, 100);
        final String big = "SELECT ?o WHERE { <http://a> <http://p> ?o } # " + "x".repeat(200);
        try (GraphStore store = TestStores.embedded(1);
             ServeExtension.Started started = new RdfServeExtension().start(store, "127.0.0.1", settings, System.err)) {
            final HttpClient http = HttpClient.newHttpClient();
            final HttpResponse<String> post = send(http, HttpRequest.newBuilder(URI.create(url(started)))
                .header("Content-Type", "application/sparql-query").POST(HttpRequest.BodyPublishers.ofString(big)));
            assertEquals(413, post.statusCode(), post.body());
            assertTrue(post.body().contains("limit of 100 bytes (pragh.rdf.maxQueryBytes)"), post.body());
            final HttpResponse<String> get = send(http, HttpRequest.newBuilder(URI.create(url(started) + "?query="
                + URLEncoder.encode(big, StandardCharsets.UTF_8))).GET());
            assertEquals(413, get.statusCode(), get.body());
            final HttpResponse<String> small = send(http, HttpRequest.newBuilder(URI.create(url(started) + "?query="
                + URLEncoder.encode("SELECT ?o WHERE { <http://a> <http://p> ?o }", StandardCharsets.UTF_8))).GET());
            assertEquals(200, small.statusCode(), small.body());
        }
    }

    @Test
    void withServesCredentialsTheEndpointAsksForALogin(@TempDir final Path dir) throws Exception {
        final Path users = dir.resolve("users.txt");
        Files.writeString(users, "ann:s3cret\n");
        final BaseConfiguration settings = Endpoints.settings(Endpoints.triples(dir));
        settings.setProperty(ServeExtension.CREDENTIALS, users.toString());
        final String get = "?query=" + URLEncoder.encode(QUERY, StandardCharsets.UTF_8);
        try (GraphStore store = TestStores.embedded(1);
             ServeExtension.Started started = new RdfServeExtension().start(store, "127.0.0.1", settings, System.err)) {
            final HttpClient http = HttpClient.newHttpClient();
            assertEquals(401, send(http, HttpRequest.newBuilder(URI.create(url(started) + get)).GET()).statusCode());
            assertEquals(401, send(http, HttpRequest.newBuilder(URI.create(url(started) + get))
                .header("Authorization", basic("ann:wrong")).GET()).statusCode());
            final HttpResponse<String> in = send(http, HttpRequest.newBuilder(URI.create(url(started) + get))
                .header("Authorization", basic("ann:s3cret")).GET());
            assertEquals(200, in.statusCode(), in.body());
        }
    }

    private static String basic(final String userPassword) {
        return "Basic " + Base64.getEncoder().encodeToString(userPassword.getBytes(StandardCharsets.UTF_8));
    }

    private static String url(final ServeExtension.Started started) {
        return Endpoints.url(started);
    }

    private static HttpResponse<String> send(final HttpClient http, final HttpRequest.Builder request)
            throws IOException, InterruptedException {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
