package io.pragh.gremlin.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.structure.TestGraphs;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.commons.configuration2.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileLoadTest {
    @TempDir
    Path dir;

    private static Configuration unsized() {
        final Configuration conf = TestGraphs.configuration();
        conf.clearProperty(EmbeddedGraphStore.KEYS);
        conf.clearProperty(EmbeddedGraphStore.VALUE_BYTES);
        return conf;
    }

    @Test
    void anEdgeListOpensAGraphSizedFromItsDataAndLoadsIt() throws IOException {
        final StringBuilder text = new StringBuilder("# a ring with chords\n");
        for (int v = 0; v < 5_000; v++) {
            text.append(v).append(' ').append((v + 1) % 5_000).append('\n');
            text.append(v).append('\t').append((v * 7) % 5_000).append(" chord\n");
        }
        final File file = Files.writeString(dir.resolve("ring.txt"), text).toFile();
        final ByteArrayOutputStream progress = new ByteArrayOutputStream();
        final Configuration conf = unsized();
        final FileLoad.Loaded loaded = FileLoad.open(conf, file, null,
            new PrintStream(progress, true, StandardCharsets.UTF_8));
        try (PraghGraph graph = loaded.graph()) {
            assertEquals(10_000, loaded.edges());
            assertEquals(5_000, loaded.vertices());
            assertEquals(10_000L, graph.traversal().E().count().next());
            assertEquals(java.util.List.of(14L), graph.traversal().V(2L).out("chord").id().toList());
            assertTrue(conf.getLong(EmbeddedGraphStore.KEYS) > 0 && conf.getLong(EmbeddedGraphStore.VALUE_BYTES) > 0,
                "sized from the data");
            final String bars = progress.toString(StandardCharsets.UTF_8);
            assertTrue(bars.contains("reading ring.txt") && bars.contains("writing ring.txt") && bars.contains("100%"),
                bars);
        }
    }

    @Test
    void aBadLineStopsTheLoadBeforeAnyGraphIsOpened() throws IOException {
        final File file = Files.writeString(dir.resolve("bad.txt"), "1 2\n3 4\n5 6 7 8\n").toFile();
        final IOException e = assertThrows(IOException.class, () -> FileLoad.open(unsized(), file, null,
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
        assertTrue(e.getMessage().contains("bad.txt line 3") && e.getMessage().contains("'5 6 7 8'"), e.getMessage());
    }

    @Test
    void theFormatComesFromTheExtensionUnlessNamed() {
        assertEquals(FileLoad.Format.GRAPHSON, FileLoad.Format.of(new File("g.json"), null));
        assertEquals(FileLoad.Format.GRAPHML, FileLoad.Format.of(new File("g.xml"), null));
        assertEquals(FileLoad.Format.EDGELIST, FileLoad.Format.of(new File("g.tsv"), null));
        assertEquals(FileLoad.Format.EDGELIST, FileLoad.Format.of(new File("g.json"), "edge-list"));
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> FileLoad.Format.of(new File("g.txt"), "csv"));
        assertTrue(e.getMessage().contains("--format csv"), e.getMessage());
    }
}
