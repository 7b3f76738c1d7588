package io.pragh.bench.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PaperCommandTest {
    @Test
    void aSmokeRunWritesEveryFiguresJsonWithItsFieldsAndANonEmptyPng(@TempDir Path dir) throws Exception {
        Path outDir = dir.resolve("paper");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = PaperCommand.run(new String[] {"--out", outDir.toString(), "--scale", "8", "--machines", "2",
            "--duration", "0.3"}, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8) + out.toString(StandardCharsets.UTF_8));

        ObjectMapper json = new ObjectMapper();
        for (String id : PaperCommand.FIGURES) {
            JsonNode fig = json.readTree(outDir.resolve(id + ".json").toFile());
            List<String> fields = new ArrayList<>();
            fig.fieldNames().forEachRemaining(fields::add);
            assertEquals(FigureFiles.FIELDS, fields, id);
            assertEquals(id, fig.get("figure").asText());
            assertTrue(fig.get("measured").size() > 0, id + " measured nothing");
            assertTrue(fig.get("paper").size() > 0, id + " has no paper numbers");
            assertTrue(fig.get("command").asText().startsWith("./pragh bench paper --out"), id);
            Path png = outDir.resolve(fig.get("png").asText());
            assertTrue(Files.size(png) > 0, id + " PNG is empty");
            assertTrue(ImageIO.read(png.toFile()).getWidth() > 0, id + " PNG is not an image");
            assertTrue(fig.get("charts").size() > 0, id);
        }
        // The floor is drawn where the figure plots the two-hop mix's remote access rate, and only there.
        double floor = json.readTree(outDir.resolve("fig10.json").toFile()).get("single_copy_floor").asDouble();
        assertTrue(floor > 0 && floor < 1, "fig10 floor " + floor);
        assertTrue(json.readTree(outDir.resolve("fig11.json").toFile()).get("single_copy_floor").isObject());
        assertTrue(json.readTree(outDir.resolve("fig13.json").toFile()).get("single_copy_floor").isNull());
        JsonNode fig10 = json.readTree(outDir.resolve("fig10.json").toFile());
        for (String mode : List.of("orig", "ideal", "shard", "split", "split-cache")) {
            assertTrue(fig10.get("measured").get("modes").get(mode).get("throughput_qps").asDouble() > 0, mode);
            assertTrue(fig10.get("paper").has(mode), mode);
        }
        // Fig. 11's first scope is Fig. 10's: its rows are Fig. 10's, not run again.
        JsonNode scopes = json.readTree(outDir.resolve("fig11.json").toFile()).get("measured").get("scopes");
        JsonNode firstScope = scopes.get(scopes.fieldNames().next());
        for (String mode : List.of("orig", "split-cache", "split-cache-replica")) {
            assertEquals(fig10.get("measured").get("modes").get(mode), firstScope.get(mode), mode);
        }
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("measured already at this scope"));
        // Beyond the paper's five: measured beside them, with no paper number.
        assertTrue(fig10.get("measured").get("modes").get("split-cache-replica").get("throughput_qps").asDouble() > 0);
        JsonNode table1 = json.readTree(outDir.resolve("table1.json").toFile());
        assertEquals(0.856, table1.get("paper").get("shard_after").get("data_migration_rate").asDouble());
        assertEquals(0.0, table1.get("measured").get("ideal").get("remote_access_rate").asDouble());
        JsonNode fig13 = json.readTree(outDir.resolve("fig13.json").toFile()).get("measured").get("values_per_second");
        assertTrue(fig13.get("1 thread").get("64").asDouble() > 0, "one thread migrated 64-byte values");
        assertTrue(fig13.get("2 threads").get("1024").asDouble() > 0, "two threads migrated 1 KiB values");
        assertEquals(2.53, json.readTree(outDir.resolve("fig16.json").toFile()).get("paper").get("split-cache")
            .get("throughput_x_orig").asDouble());
    }

    @Test
    void badFlagsAreRefusedNamingTheFlag() throws Exception {
        for (String[] args : List.of(new String[] {"--scale", "8"}, new String[] {"--out", "x", "--machines", "0"},
            new String[] {"--out", "x", "--modes", "orig"})) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int status = PaperCommand.run(args, System.out, new PrintStream(err, true, StandardCharsets.UTF_8));
            assertEquals(2, status, String.join(" ", args));
            String message = err.toString(StandardCharsets.UTF_8);
            assertTrue(message.contains(args[0].equals("--scale") ? "--out" : args[2]), message);
        }
    }
}
