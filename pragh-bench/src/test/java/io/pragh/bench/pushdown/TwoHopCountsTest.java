package io.pragh.bench.pushdown;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TwoHopCountsTest {
    private static final long[] STARTS = {5, 9, 2};

    @Test
    void equalAnswersPass() {
        assertDoesNotThrow(() -> new TwoHopCounts("a", STARTS, new long[] {1, 2, 3})
            .requireSameAs(new TwoHopCounts("b", STARTS, new long[] {1, 2, 3})));
    }

    @Test
    void aDifferentCountFailsNamingBothSystemsAndTheStartVertex() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> new TwoHopCounts("PraghGraph", STARTS, new long[] {1, 2, 3})
            .requireSameAs(new TwoHopCounts("TinkerGraph", STARTS, new long[] {1, 7, 3})));
        assertTrue(e.getMessage().contains("PraghGraph") && e.getMessage().contains("TinkerGraph"), e.getMessage());
        assertTrue(e.getMessage().contains("1 of 3") && e.getMessage().contains("x=9: 2 vs 7"), e.getMessage());
    }

    @Test
    void differentStartVerticesFailEvenWithEqualCounts() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> new TwoHopCounts("a", STARTS, new long[] {1, 2, 3})
            .requireSameAs(new TwoHopCounts("b", new long[] {5, 2, 9}, new long[] {1, 2, 3})));
        assertTrue(e.getMessage().contains("different start vertices"), e.getMessage());
    }

    @Test
    void manyDisagreementsAreSummarised() {
        long[] starts = new long[20];
        long[] other = new long[20];
        for (int i = 0; i < 20; i++) {
            starts[i] = i;
            other[i] = 1;
        }
        IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> new TwoHopCounts("a", starts, new long[20]).requireSameAs(new TwoHopCounts("b", starts, other)));
        assertTrue(e.getMessage().contains("20 of 20") && e.getMessage().contains("and 12 more"), e.getMessage());
    }

    @Test
    void aWrittenFileReadsBackEqual(@TempDir Path dir) throws IOException {
        TwoHopCounts written = new TwoHopCounts("PraghGraph", STARTS, new long[] {0, 351695, 4});
        Path file = dir.resolve("sub/counts.txt");
        written.write(file);
        TwoHopCounts read = TwoHopCounts.read("file", file);
        assertEquals(3, read.size());
        assertEquals(351695, read.count(1));
        assertDoesNotThrow(() -> written.requireSameAs(read));
    }

    @Test
    void aMalformedLineIsReportedWithItsNumber(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("counts.txt");
        Files.writeString(file, "# header\n5 1\n9 two\n", StandardCharsets.UTF_8);
        IOException e = assertThrows(IOException.class, () -> TwoHopCounts.read("file", file));
        assertTrue(e.getMessage().contains("line 3") && e.getMessage().contains("9 two"), e.getMessage());
    }
}
