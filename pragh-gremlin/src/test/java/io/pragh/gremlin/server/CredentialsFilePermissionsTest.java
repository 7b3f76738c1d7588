package io.pragh.gremlin.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The credentials store {@code --credentials} builds holds password hashes: only its owner may read it. */
class CredentialsFilePermissionsTest {
    @TempDir
    Path dir;

    @Test
    void theStoreOfPasswordHashesIsReadableByItsOwnerOnly() throws Exception {
        final Path users = Files.writeString(dir.resolve("users.txt"), "alice:secret\n");
        final Path properties = Path.of(CredentialsFile.toCredentialsDb(users.toFile()));
        final Properties p = new Properties();
        try (var in = Files.newInputStream(properties)) {
            p.load(in);
        }
        final Path store = Path.of(p.getProperty("gremlin.tinkergraph.graphLocation"));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(store)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(store.getParent())));
    }
}
