package io.pragh.server.config;

import static io.pragh.server.config.ConfigFiles.MINIMAL;
import static io.pragh.server.config.ConfigFiles.parse;
import static io.pragh.server.config.ConfigFiles.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code metrics} section: machine I's port is {@code port + I}, 0 or no section opens none. */
class MetricsConfigTest {
    @TempDir
    Path dir;

    @Test
    void withoutTheSectionNoMetricsPortOpensAndSlowQueriesAreLoggedPastOneSecond() {
        MetricsConfig m = parse(dir, MINIMAL).metrics();
        assertEquals(0, m.port(0));
        assertEquals(0, m.port(1));
        assertEquals(Duration.ofSeconds(1), m.slowQuery());
    }

    @Test
    void machineIServesOnPortPlusI() {
        MetricsConfig m = parse(dir, MINIMAL + "metrics: {port: 9400, slowQuery: 250ms}\n").metrics();
        assertEquals(9400, m.port(0));
        assertEquals(9401, m.port(1));
        assertEquals(Duration.ofMillis(250), m.slowQuery());
        assertEquals(0, parse(dir, MINIMAL + "metrics: {port: 0}\n").metrics().port(1));
    }

    @Test
    void badValuesAreRefusedNamingTheKey() {
        refused(dir, MINIMAL + "metrics: {port: 65535}\n", "metrics.port", "leaves no room for 2 machines");
        refused(dir, MINIMAL + "metrics: {port: -1}\n", "metrics.port", "");
        refused(dir, MINIMAL + "metrics: {prot: 9400}\n", "metrics.prot", "");
        refused(dir, MINIMAL + "metrics: {slowQuery: 5}\n", "metrics.slowQuery", "");
    }
}
