package io.pragh.server.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The cluster file's {@code gremlin} section: optional, paths relative to the file, each checked naming its key. */
class GremlinConfigTest {
    @TempDir
    Path dir;

    @Test
    void absentItRefusesIoAndAsksForNoLogin() {
        final GremlinConfig g = ConfigFiles.parse(dir, ConfigFiles.MINIMAL).gremlin();
        assertEquals(GremlinConfig.DEFAULT, g);
        assertNull(g.allowIo());
        assertNull(g.credentialsFile());
    }

    @Test
    void pathsAreRelativeToTheFile() throws IOException {
        Files.createDirectories(dir.resolve("io"));
        Files.writeString(dir.resolve("users.txt"), "alice:secret\n");
        final GremlinConfig g = ConfigFiles.parse(dir, ConfigFiles.MINIMAL
            + "gremlin: {allowIo: io, credentialsFile: users.txt}\n").gremlin();
        assertEquals(dir.resolve("io"), g.allowIo());
        assertEquals(dir.resolve("users.txt"), g.credentialsFile());
    }

    @Test
    void aMissingDirectoryOrFileOrAnUnknownKeyIsRefusedByName() throws IOException {
        ConfigFiles.refused(dir, ConfigFiles.MINIMAL + "gremlin: {allowIo: nowhere}\n", "gremlin.allowIo",
            "is not a directory");
        Files.writeString(dir.resolve("file"), "x");
        ConfigFiles.refused(dir, ConfigFiles.MINIMAL + "gremlin: {allowIo: file}\n", "gremlin.allowIo",
            "is not a directory");
        ConfigFiles.refused(dir, ConfigFiles.MINIMAL + "gremlin: {credentialsFile: none.txt}\n",
            "gremlin.credentialsFile", "cannot read");
        ConfigFiles.refused(dir, ConfigFiles.MINIMAL + "gremlin: {allowGroovy: true}\n", "gremlin.allowGroovy", "");
    }
}
