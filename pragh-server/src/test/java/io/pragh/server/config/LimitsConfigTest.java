package io.pragh.server.config;

import static io.pragh.server.config.ConfigFiles.MINIMAL;
import static io.pragh.server.config.ConfigFiles.parse;
import static io.pragh.server.config.ConfigFiles.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code limits} section: the idle timeout of every port and the Gremlin port's frame limit. */
class LimitsConfigTest {
    @TempDir
    Path dir;

    @Test
    void withoutTheSectionTheDefaultsApply() {
        LimitsConfig l = parse(dir, MINIMAL).limits();
        assertEquals(Duration.ofSeconds(60), l.idleTimeout());
        assertEquals(10 << 20, l.maxFrameBytes());
    }

    @Test
    void bothKeysAreRead() {
        LimitsConfig l = parse(dir, MINIMAL + "limits: {idleTimeout: 5s, maxFrameBytes: 1MiB}\n").limits();
        assertEquals(Duration.ofSeconds(5), l.idleTimeout());
        assertEquals(1 << 20, l.maxFrameBytes());
    }

    @Test
    void badValuesAreRefusedNamingTheKey() {
        refused(dir, MINIMAL + "limits: {idleTimeout: 1500ms}\n", "limits.idleTimeout", "whole seconds");
        refused(dir, MINIMAL + "limits: {idleTimeout: 0s}\n", "limits.idleTimeout", "");
        refused(dir, MINIMAL + "limits: {maxFrameBytes: 100}\n", "limits.maxFrameBytes", "");
        refused(dir, MINIMAL + "limits: {maxFrameBytes: 4GiB}\n", "limits.maxFrameBytes", "");
        refused(dir, MINIMAL + "limits: {idle: 5s}\n", "limits.idle", "");
    }
}
