package io.pragh.rdf.cli;

import io.pragh.rdf.store.RdfKeys;
import io.pragh.rdf.store.TermSegments;
import io.pragh.store.ValueView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./pragh rdf load FILE} into an embedded cluster says what it loaded and what the loaded store takes: off-heap
 * bytes in use per triple (what sizes the largest LUBM a host holds) and the heap's peak.
 */
class EmbeddedRdfLoadCommandTest {
    @Test
    void embeddedLoadReportsTheMemoryATripleTakes(@TempDir final Path dir) throws Exception {
        final Path file = dir.resolve("lubm-1.nt");
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertEquals(0, RdfCommand.run(new String[] {"lubm", "--universities", "1", "--out", file.toString()},
            quiet, quiet));
        assertEquals(0, RdfCommand.run(new String[] {"load", file.toString(), "--machines", "2"},
            new PrintStream(out, true, StandardCharsets.UTF_8), quiet));
        final String printed = out.toString(StandardCharsets.UTF_8);
        final Matcher m = Pattern.compile("memory: off-heap ([0-9,]+) MiB used .* reserved: ([0-9]+) bytes used a"
            + " triple; JVM heap peak [0-9,]+ MiB").matcher(printed);
        assertTrue(m.find(), printed);
        final long perTriple = Long.parseLong(m.group(2));
        // each triple is at least its two 8-byte list entries; the keys and terms add more, never a kilobyte
        assertTrue(perTriple >= 16 && perTriple < 1024, printed);
        assertTrue(Files.size(file) > 0);
    }

    @Test
    void segmentEntriesFlagSetsTheSegmentOfTheLoadedLists(@TempDir final Path dir) throws Exception {
        final Path file = dir.resolve("ten.nt");
        final StringBuilder nt = new StringBuilder();
        for (int i = 0; i < 10; i++) {
            nt.append("<http://x/s").append(i).append("> <http://x/p> <http://x/o> .\n");
        }
        Files.writeString(file, nt);
        final PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        try (EmbeddedRdf e = EmbeddedRdf.load(file, 1, List.of(), 3, quiet)) {
            // (o, p, IN) holds the ten subjects: three sealed segments of 3 and a tail of 1.
            final long key = RdfKeys.in(e.rdf().terms().ids(new String[] {"<http://x/o>"}, 1)[0],
                e.rdf().predicate("<http://x/p>"));
            final ValueView tail = new ValueView().over(e.store.get(key));
            assertEquals(3, TermSegments.heads(tail));
            assertEquals(10, TermSegments.total(tail));
        }
    }

    @Test
    void segmentEntriesOutsideItsRangeIsRefusedNamingTheFlag(@TempDir final Path dir) throws Exception {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        for (String bad : new String[] {"0", "x", Long.toString(RdfCommand.MAX_SEGMENT_FLAG + 1L)}) {
            assertEquals(2, RdfCommand.run(new String[] {"load", dir.resolve("f.nt").toString(), "--segment-entries",
                bad}, quiet, new PrintStream(err, true, StandardCharsets.UTF_8)));
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("--segment-entries " + bad), err.toString());
        }
    }
}
