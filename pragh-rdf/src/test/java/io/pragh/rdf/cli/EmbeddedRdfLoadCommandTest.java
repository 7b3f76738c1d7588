package io.pragh.rdf.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
}
