package io.pragh.rdf.cli;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * {@code ./pragh sparql --server host:port QUERY}: sends the query to a running server's SPARQL endpoint (the SPARQL
 * 1.1 protocol, {@code POST /sparql} with an {@code application/sparql-query} body) and gives back its answer: the
 * SPARQL JSON of a 200, or the endpoint's reason for anything else, with the status.
 *
 * <p>Example: {@code SparqlClient.Answer a = SparqlClient.ask("127.0.0.1:8190", "SELECT ...", null, null);}
 */
final class SparqlClient {
    /** An endpoint's answer: its status and body (JSON for 200, the reason as text otherwise). */
    record Answer(int status, String body) {
    }

    private SparqlClient() {
    }

    /** The environment variable {@code --user}'s password is read from: never a flag, which {@code ps} would show. */
    static final String PASSWORD_VARIABLE = "PRAGH_PASSWORD";

    /**
     * Asks the endpoint at {@code server} ({@code host:port}, or a whole {@code http://...} URL), logged in as
     * {@code user} with {@code password} when {@code user} is not null (HTTP Basic, as {@code serve --credentials}
     * asks).
     */
    static Answer ask(final String server, final String sparql, final String user, final String password)
            throws IOException, InterruptedException {
        final URI uri = uri(server);
        final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        final HttpRequest.Builder builder = HttpRequest.newBuilder(uri)
            .header("Content-Type", "application/sparql-query").header("Accept", "application/sparql-results+json")
            .POST(HttpRequest.BodyPublishers.ofString(sparql, StandardCharsets.UTF_8));
        if (user != null) {
            if (password == null) {
                throw new IllegalArgumentException("--user " + user + ": set the password in " + PASSWORD_VARIABLE);
            }
            builder.header("Authorization", "Basic " + java.util.Base64.getEncoder().encodeToString(
                (user + ":" + password).getBytes(StandardCharsets.UTF_8)));
        }
        final HttpRequest request = builder.build();
        try {
            final HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return new Answer(r.statusCode(), r.statusCode() == 401
                ? "the endpoint asks for a login (serve --credentials): --user USER, the password in " + PASSWORD_VARIABLE
                : r.body());
        } catch (java.net.ConnectException e) {
            throw new IOException("no SPARQL endpoint answers at " + uri + " (is './pragh serve --set"
                + " pragh.rdf.sparqlPort=PORT' running there?)", e);
        }
    }

    static URI uri(final String server) {
        if (server.startsWith("http://") || server.startsWith("https://")) {
            return URI.create(server);
        }
        final int colon = server.lastIndexOf(':');
        if (colon <= 0 || colon == server.length() - 1) {
            throw new IllegalArgumentException("--server " + server + ": expected host:port (e.g. 127.0.0.1:8190)");
        }
        return URI.create("http://" + server + "/sparql");
    }
}
