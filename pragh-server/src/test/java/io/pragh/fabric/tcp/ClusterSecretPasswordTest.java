package io.pragh.fabric.tcp;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** A password derived from the cluster secret: the same on every machine, unrelated across purposes and secrets. */
class ClusterSecretPasswordTest {
    private static final String SECRET = "0123456789abcdef0123456789abcdef";

    @Test
    void everyHolderDerivesTheSamePasswordAndNoOtherSecretDoes() {
        final ClusterSecret a = ClusterSecret.fromString(SECRET);
        final String password = a.derivePassword("gremlin peer login");
        assertEquals(password, ClusterSecret.fromString(SECRET).derivePassword("gremlin peer login"));
        assertEquals(64, password.length(), "hex of 32 bytes");
        assertNotEquals(password, a.derivePassword("another purpose"));
        assertNotEquals(password, ClusterSecret.fromString(SECRET + "x").derivePassword("gremlin peer login"));
        assertFalse(password.contains(SECRET));
    }
}
