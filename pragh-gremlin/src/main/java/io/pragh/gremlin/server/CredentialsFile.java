package io.pragh.gremlin.server;

import org.apache.tinkerpop.gremlin.groovy.jsr223.dsl.credential.CredentialTraversalSource;
import org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerGraph;

import java.io.File;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;

/**
 * Turns a {@code user:password} file into what SimpleAuthenticator reads: a credentials graph (passwords stored as
 * bcrypt hashes by TinkerPop's credential DSL) written to a private temporary directory, and the properties file
 * that opens it. The temporary files are deleted when the JVM exits.
 *
 * <p>Example: {@code String db = CredentialsFile.toCredentialsDb(new File("users.txt"));}
 */
final class CredentialsFile {
    private CredentialsFile() {
    }

    /** The path of a graph properties file for SimpleAuthenticator's {@code credentialsDb}. */
    static String toCredentialsDb(final File file) throws IOException {
        if (!file.isFile()) {
            throw new IOException("credentials file " + file + " does not exist");
        }
        final TinkerGraph graph = TinkerGraph.open();
        final CredentialTraversalSource credentials = graph.traversal(CredentialTraversalSource.class);
        final List<String> lines = Files.readAllLines(file.toPath(), StandardCharsets.UTF_8);
        int users = 0;
        for (int i = 0; i < lines.size(); i++) {
            final String line = lines.get(i).trim();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            final int colon = line.indexOf(':');
            if (colon <= 0 || colon == line.length() - 1) {
                throw new IOException(file + " line " + (i + 1) + ": expected 'user:password'");
            }
            credentials.user(line.substring(0, colon), line.substring(colon + 1)).iterate();
            users++;
        }
        if (users == 0) {
            throw new IOException(file + " names no user: nobody could log in");
        }
        final File dir = Files.createTempDirectory("pragh-credentials").toFile();
        dir.deleteOnExit();
        final File data = new File(dir, "credentials.kryo");
        data.deleteOnExit();
        graph.io(org.apache.tinkerpop.gremlin.structure.io.IoCore.gryo()).writeGraph(data.getAbsolutePath());
        io.pragh.server.config.PrivateFiles.restrict(data.toPath()); // the password hashes
        final File properties = new File(dir, "credentials.properties");
        properties.deleteOnExit();
        try (Writer w = Files.newBufferedWriter(properties.toPath(), StandardCharsets.UTF_8)) {
            w.write("gremlin.graph=" + TinkerGraph.class.getName() + "\n");
            w.write("gremlin.tinkergraph.graphLocation=" + data.getAbsolutePath().replace("\\", "/") + "\n");
            w.write("gremlin.tinkergraph.graphFormat=gryo\n");
        }
        return properties.getAbsolutePath();
    }
}
