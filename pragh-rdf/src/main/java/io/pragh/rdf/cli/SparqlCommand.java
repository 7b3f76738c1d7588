package io.pragh.rdf.cli;

import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.rdf.sparql.QueryCompiler;
import io.pragh.rdf.sparql.SparqlEngine;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ./pragh sparql --data FILE QUERY}: loads FILE into an embedded cluster and answers QUERY (a SPARQL string,
 * or the name of a file holding one) by exploration, printing SPARQL JSON results on standard output;
 * {@code ./pragh sparql --server host:port QUERY} asks a running server's SPARQL endpoint instead
 * ({@link SparqlClient}). A query the store does not support exits with status 2 and the construct named.
 *
 * <p>Example: {@code ./pragh sparql --data lubm-1.nt 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }'}
 */
public final class SparqlCommand {
    static final String USAGE = String.join("\n",
        "usage: ./pragh sparql --data FILE [--machines N] [--set KEY=VALUE] QUERY",
        "       ./pragh sparql --server HOST:PORT [--user USER] QUERY",
        "  QUERY                a SPARQL SELECT query, or a file holding one (e.g. q.rq)",
        "  --data FILE          the N-Triples (.nt) or Turtle (.ttl) file to load into an embedded cluster",
        "  --server HOST:PORT   ask a running server's SPARQL endpoint (./pragh serve's, port 8190 by default)",
        "  --user USER          log in to it as USER (serve --credentials), the password in $PRAGH_PASSWORD",
        "  --machines N         machines of the embedded cluster (default 4)",
        "  results: SPARQL 1.1 Query Results JSON on standard output; progress on standard error");

    private SparqlCommand() {
    }

    public static void main(final String[] args) throws Exception {
        Path data = null;
        String server = null;
        String user = null;
        String query = null;
        int machines = PraghGraph.DEFAULT_MACHINES;
        final List<String[]> settings = new ArrayList<>();
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--help", "-h" -> {
                        System.out.println(USAGE);
                        return;
                    }
                    case "--data" -> data = Path.of(RdfCommand.value(args, ++i, "--data"));
                    case "--server" -> server = RdfCommand.value(args, ++i, "--server");
                    case "--user" -> user = RdfCommand.value(args, ++i, "--user");
                    case "--machines" -> machines = Integer.parseInt(RdfCommand.value(args, ++i, "--machines"));
                    case "--set" -> settings.add(RdfCommand.setting(RdfCommand.value(args, ++i, "--set")));
                    default -> {
                        if (args[i].startsWith("--") || query != null) {
                            throw new IllegalArgumentException("unexpected argument '" + args[i] + "'");
                        }
                        query = args[i];
                    }
                }
            }
            if ((data == null) == (server == null) || query == null) {
                throw new IllegalArgumentException(query == null ? "no QUERY given"
                    : data == null ? "no --data FILE or --server HOST:PORT given"
                    : "--data and --server exclude each other: load a file here, or ask a server");
            }
        } catch (IllegalArgumentException e) {
            System.err.println("pragh sparql: " + e.getMessage() + " (./pragh sparql --help lists the options)");
            System.exit(2);
            return;
        }
        final Path asFile = Path.of(query);
        final String sparql = !query.contains("{") && Files.isRegularFile(asFile)
            ? Files.readString(asFile, StandardCharsets.UTF_8) : query;
        if (server != null) {
            System.exit(remote(server, sparql, user));
            return;
        }
        try {
            QueryCompiler.compile(sparql); // refuse a query the store cannot answer before loading anything
        } catch (IllegalArgumentException e) {
            System.err.println("pragh sparql: " + e.getMessage());
            System.exit(2);
            return;
        }
        try (EmbeddedRdf loaded = EmbeddedRdf.load(data, machines, settings, System.err)) {
            final long start = System.nanoTime();
            final var result = new SparqlEngine(loaded.rdf()).query(sparql);
            result.writeJson(System.out);
            System.err.printf("%,d rows in %.3f s%n", result.rows().size(), (System.nanoTime() - start) / 1e9);
        } catch (IllegalArgumentException e) {
            System.err.println("pragh sparql: " + e.getMessage());
            System.exit(2);
        }
    }

    /** Prints the server's answer; the exit status: 0 answered, 2 refused (the query), 1 any other failure. */
    private static int remote(final String server, final String sparql, final String user)
            throws InterruptedException {
        try {
            final SparqlClient.Answer a = SparqlClient.ask(server, sparql, user,
                System.getenv(SparqlClient.PASSWORD_VARIABLE));
            if (a.status() == 200) {
                System.out.print(a.body());
                System.out.flush();
                return 0;
            }
            System.err.println("pragh sparql: " + server + " answered " + a.status() + ": " + a.body());
            return a.status() == 400 || a.status() == 413 ? 2 : 1;
        } catch (IllegalArgumentException e) {
            System.err.println("pragh sparql: " + e.getMessage());
            return 2;
        } catch (java.io.IOException e) {
            System.err.println("pragh sparql: " + e.getMessage());
            return 1;
        }
    }
}
