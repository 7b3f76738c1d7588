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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./pragh bench rdf --fabric tcp} on LUBM-1: each mode runs on server processes (two JVMs, one for ideal),
 * loaded through a client port, its queries answered by the start vertex's home's {@code /sparql}; the report says
 * so, one machine reads only locally, two read remotely in orig. Checks what the run means, never how fast it is.
 */
@Timeout(400)
class RdfBenchOverTcpTest {
    @Test
    void modesRunOnServerProcessesAnsweringSparqlAtTheStartVertexsHome(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("rdf.json");
        Path clusters = dir.resolve("clusters");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = RdfBenchCommand.run(new String[] {"--fabric", "tcp", "--cluster-dir", clusters.toString(),
            "--universities", "1", "--machines", "2", "--modes", "orig,ideal,split-cache", "--warmup", "1",
            "--interval", "1", "--duration", "2", "--threads", "2", "--json", json.toString(), "--charts",
            dir.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        String log = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, log);

        JsonNode report = new ObjectMapper().readTree(json.toFile());
        assertEquals("tcp", report.get("config").get("fabric").asText());
        assertTrue(report.get("config").get("remote_latency_ns").isNull(), "no emulated latency is claimed over tcp");
        for (String mode : new String[] {"orig", "ideal", "split-cache"}) {
            JsonNode m = report.get("modes").get(mode);
            assertTrue(m.get("queries").asLong() > 0, mode + " ran no query:\n" + log);
            double remote = m.get("remote_access_rate").asDouble();
            assertTrue(remote >= 0 && remote <= 1, mode + " remote rate " + remote);
            assertTrue(Files.readString(clusters.resolve(mode).resolve("machine-0.log")).contains("sparql http://"),
                mode + ": machine 0 serves /sparql");
        }
        assertEquals(0.0, report.get("modes").get("ideal").get("remote_access_rate").asDouble(), log);
        assertTrue(report.get("modes").get("orig").get("remote_access_rate").asDouble() > 0, log);
    }

    @Test
    void theInProcessFabricsLatencyFlagIsRefusedOverTcp() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = RdfBenchCommand.run(new String[] {"--fabric", "tcp", "--remote-latency-ns", "5"}, System.out,
            new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, status);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--remote-latency-ns applies to --fabric inprocess"),
            err.toString(StandardCharsets.UTF_8));
    }
}
