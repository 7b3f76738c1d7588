package io.pragh.server.config;

import static io.pragh.server.config.ConfigFiles.MINIMAL;
import static io.pragh.server.config.ConfigFiles.parse;
import static io.pragh.server.config.ConfigFiles.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code sparql} section: machine I's endpoint on {@code port + I}, 0 or no section opens none. */
class SparqlConfigTest {
    @TempDir
    Path dir;

    @Test
    void withoutTheSectionNoEndpointOpensAndServesDefaultsApply() {
        assertEquals(SparqlConfig.DEFAULT, parse(dir, MINIMAL).sparql());
        assertEquals(0, parse(dir, MINIMAL).sparql().port(1));
    }

    @Test
    void machineIServesOnPortPlusIWithinItsLimits() {
        SparqlConfig s = parse(dir, MINIMAL + "sparql: {port: 8190, maxQueryBytes: 1024, timeout: 2s}\n").sparql();
        assertEquals(8190, s.port(0));
        assertEquals(8191, s.port(1));
        assertEquals(1024, s.maxQueryBytes());
        assertEquals(Duration.ofSeconds(2), s.timeout());
    }

    @Test
    void badValuesAreRefusedNamingTheKey() {
        refused(dir, MINIMAL + "sparql: {port: 65535}\n", "sparql.port", "leaves no room for 2 machines");
        refused(dir, MINIMAL + "sparql: {maxQueryBytes: 0}\n", "sparql.maxQueryBytes", "");
        refused(dir, MINIMAL + "sparql: {timeout: 5}\n", "sparql.timeout", "");
        refused(dir, MINIMAL + "sparql: {prot: 8190}\n", "sparql.prot", "");
    }

    @Test
    void portOnAnotherPortOfItsMachineIsRefusedNamingBoth() {
        // machine 0's SPARQL port 8182 + 0 is its own Gremlin port
        refused(dir, MINIMAL + "sparql: {port: 8182}\n", "sparql.port",
            "machine 0 would listen on 127.0.0.1:8182 (port + 0), which is already machines[0].gremlinPort");
        refused(dir, MINIMAL.replace("gremlinPort: 8183}", "gremlinPort: 8183, clientPort: 7600}")
            + "sparql: {port: 7599}\n", "sparql.port", "127.0.0.1:7600 (port + 1), which is already"
            + " machines[1].clientPort");
        refused(dir, MINIMAL + "metrics: {port: 9400}\nsparql: {port: 9400}\n", "sparql.port",
            "machine 0 would listen on 127.0.0.1:9400 (port + 0), which is already metrics.port");
    }
}
