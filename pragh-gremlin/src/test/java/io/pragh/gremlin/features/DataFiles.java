package io.pragh.gremlin.features;

import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.io.IoCore;
import org.apache.tinkerpop.gremlin.tinkergraph.structure.TinkerFactory;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;

/** The modern graph written as the feature suite's data files, into one temporary directory per test run. */
final class DataFiles {
    private static File dir;

    private DataFiles() {
    }

    static synchronized String path(final String pathFromGremlin) {
        try {
            if (dir == null) {
                dir = Files.createTempDirectory("pragh-feature-data").toFile();
                dir.deleteOnExit();
                final Graph modern = TinkerFactory.createModern();
                write(modern, "tinkerpop-modern.kryo", IoCore.gryo());
                write(modern, "tinkerpop-modern.json", IoCore.graphson());
                write(modern, "tinkerpop-modern.xml", IoCore.graphml());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        final File file = new File(dir, new File(pathFromGremlin).getName());
        return file.getAbsolutePath();
    }

    @SuppressWarnings({"rawtypes", "deprecation"})
    private static void write(final Graph graph, final String name, final org.apache.tinkerpop.gremlin.structure.io.Io.Builder io) throws IOException {
        final File file = new File(DataFiles.dir, name);
        file.deleteOnExit();
        graph.io(io).writeGraph(file.getAbsolutePath());
    }
}
