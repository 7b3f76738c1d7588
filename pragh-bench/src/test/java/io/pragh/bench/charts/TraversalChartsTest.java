package io.pragh.bench.charts;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.bench.traversal.Mode;
import io.pragh.bench.traversal.ModeResult;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraversalChartsTest {
    @TempDir
    Path dir;

    @Test
    void everyChartIsAReadablePngOfTheConfiguredSize() throws Exception {
        Map<Mode, ModeResult> results = new LinkedHashMap<>();
        results.put(Mode.ORIG, new ModeResult(1000, 1.0, 5.0, 9.0, 0.85, 0, 0, 0, 0, 50, 1000));
        results.put(Mode.SPLIT_CACHE, new ModeResult(9000, 0.1, 0.9, 2.0, 0.03, 40, 0.001, 4000, 2, 50, 9000));
        List<Path> files = TraversalCharts.write(dir.resolve("charts"), results);
        assertEquals(3, files.size());
        for (Path f : files) {
            assertTrue(Files.size(f) > 1000, f + " has content");
            byte[] magic = Arrays.copyOf(Files.readAllBytes(f), 8);
            assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}, magic, f + " is a PNG");
            BufferedImage image = ImageIO.read(f.toFile());
            assertEquals(800, image.getWidth());
            assertEquals(500, image.getHeight());
        }
    }
}
