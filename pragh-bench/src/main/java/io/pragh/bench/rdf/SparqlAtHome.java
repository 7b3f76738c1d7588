package io.pragh.bench.rdf;

import io.pragh.bench.traversal.deploy.BenchCluster;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.apache.jena.graph.Node;
import org.apache.jena.query.ResultSet;
import org.apache.jena.riot.ResultSetMgr;
import org.apache.jena.riot.resultset.ResultSetLang;

/**
 * The RDF benchmark's queries over the TCP fabric: each is POSTed to the {@code /sparql} endpoint of its start
 * vertex's home machine (machine I answers on {@code firstPort + I}), where the server's SPARQL front end explores
 * it, its first GETs local, as Wukong's proxy sends a query to its start vertex's server. The rows are counted from
 * the SPARQL JSON answer; any other status than 200 fails the query with the endpoint's reason.
 *
 * <p>Example: {@code LubmMix.of(rdf, seed, new SparqlAtHome(cluster, sparqlPort));}
 */
final class SparqlAtHome implements LubmMix.AtHome {
    private final BenchCluster cluster;
    private final int firstPort;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    SparqlAtHome(final BenchCluster cluster, final int firstPort) {
        this.cluster = cluster;
        this.firstPort = firstPort;
    }

    @Override
    public int rows(final int c, final long homeKey, final String template, final String form, final Node start) {
        // The template's text with the vertex in place: the server parses what a client sends.
        return rows(homeKey, template.replace("?" + LubmMix.START, form));
    }

    int rows(final long homeKey, final String query) {
        final int home = cluster.home(homeKey);
        final HttpResponse<byte[]> answer;
        try {
            answer = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + (firstPort + home) + "/sparql"))
                .header("Content-Type", "application/sparql-query").POST(HttpRequest.BodyPublishers.ofString(query))
                .build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new IllegalStateException("machine " + home + "'s /sparql did not answer: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while machine " + home + " answered a query", e);
        }
        if (answer.statusCode() != 200) {
            throw new IllegalStateException("machine " + home + "'s /sparql answered " + answer.statusCode() + ": "
                + new String(answer.body(), java.nio.charset.StandardCharsets.UTF_8));
        }
        final ResultSet rows = ResultSetMgr.read(new ByteArrayInputStream(answer.body()), ResultSetLang.RS_JSON);
        int n = 0;
        while (rows.hasNext()) {
            rows.next();
            n++;
        }
        return n;
    }
}
