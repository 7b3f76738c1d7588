package io.pragh.bench.rdf;

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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RdfBenchCommandTest {
    @Test
    void aTinyRunReportsEveryModeWithSaneFieldsAndTheChartsBesideThePaper(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("rdf.json");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = RdfBenchCommand.run(new String[] {"--universities", "1", "--machines", "4", "--warmup", "0.5",
            "--interval", "1", "--duration", "1", "--threads", "4", "--json", json.toString(), "--charts",
            dir.toString(), "--data-dir", dir.resolve("data").toString()},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));

        JsonNode report = new ObjectMapper().readTree(json.toFile());
        List<String> modes = new ArrayList<>();
        report.get("modes").fieldNames().forEachRemaining(modes::add);
        assertEquals(List.of("orig", "ideal", "shard", "split", "split-cache"), modes);
        for (String mode : modes) {
            JsonNode m = report.get("modes").get(mode);
            double remote = m.get("remote_access_rate").asDouble();
            assertTrue(remote >= 0 && remote <= 1, mode + " remote rate " + remote);
            assertTrue(m.get("throughput_qps").asDouble() > 0, mode + " ran no query");
            double migrated = m.get("migrated_key_fraction").asDouble();
            assertTrue(migrated >= 0 && migrated <= 1, mode + " migrated fraction " + migrated);
        }
        // One machine: every access is local.
        assertEquals(0.0, report.get("modes").get("ideal").get("remote_access_rate").asDouble());
        assertEquals(0.0, report.get("modes").get("orig").get("migrated_key_fraction").asDouble());
        // Four machines hash the terms: a mix of explorations reads across them.
        assertTrue(report.get("modes").get("orig").get("remote_access_rate").asDouble() > 0);
        assertEquals(2.53, report.get("paper_fig16").get("split-cache").get("throughput_x_orig").asDouble());
        assertEquals(6, report.get("config").get("query_classes").size());
        assertTrue(Files.size(dir.resolve("rdf-throughput.png")) > 0);
        assertTrue(Files.size(dir.resolve("rdf-remote-access-rate.png")) > 0);
        // Every mode's cluster got the one parse of the file, and the file stays for the next run.
        String printed = out.toString(StandardCharsets.UTF_8);
        assertEquals(1, printed.split("parsed lubm-1-seed-42.nt once", -1).length - 1, printed);
        assertTrue(Files.size(dir.resolve("data/lubm-1-seed-42.nt")) > 0);
    }

    @Test
    void aSecondRunReadsTheKeptDataSetInsteadOfGeneratingIt(@TempDir Path dir) throws Exception {
        String[] args = {"--universities", "1", "--machines", "2", "--modes", "orig", "--warmup", "0.1",
            "--interval", "0.2", "--duration", "0.2", "--threads", "2", "--json", dir.resolve("rdf.json").toString(),
            "--charts", dir.toString(), "--data-dir", dir.resolve("data").toString()};
        ByteArrayOutputStream first = new ByteArrayOutputStream();
        assertEquals(0, RdfBenchCommand.run(args, new PrintStream(first, true, StandardCharsets.UTF_8), System.err));
        assertTrue(first.toString(StandardCharsets.UTF_8).contains("generated into"), first.toString());
        ByteArrayOutputStream second = new ByteArrayOutputStream();
        assertEquals(0, RdfBenchCommand.run(args, new PrintStream(second, true, StandardCharsets.UTF_8), System.err));
        String printed = second.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("read from"), printed);
        // The same triples either way: the kept file's line count is the generator's count.
        assertEquals(first.toString(StandardCharsets.UTF_8).replaceAll("(?s).*LUBM-1: (\\d+) triples.*", "$1"),
            printed.replaceAll("(?s).*LUBM-1: (\\d+) triples.*", "$1"));
    }

    @Test
    void badFlagsAreRefusedNamingTheFlag() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = RdfBenchCommand.run(new String[] {"--universities", "0"}, System.out,
            new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, status);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--universities"), err.toString());
        ByteArrayOutputStream plan = new ByteArrayOutputStream();
        assertEquals(2, RdfBenchCommand.run(new String[] {"--shard-plan", "optimal"}, System.out,
            new PrintStream(plan, true, StandardCharsets.UTF_8)));
        assertTrue(plan.toString(StandardCharsets.UTF_8).contains("--shard-plan optimal is invalid"), plan.toString());
    }
}
