package io.pragh.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.durability.SyncPolicy;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.Machine;
import io.pragh.keys.KeyLayout;
import io.pragh.values.ValueRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BulkInsertTest {
    @TempDir
    Path dir;

    private static EmbeddedCluster.Builder small() {
        return EmbeddedCluster.builder().machines(3).workersPerMachine(1).keysPerMachine(1000)
            .valueBytesPerMachine(4 << 20).cacheBytes(1 << 16).remoteLatencyNs(0);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static boolean insert(BulkInsert in, long key, byte[] value) {
        return in.insert(key, new UnsafeBuffer(value), 0, value.length);
    }

    @Test
    void insertedValuesAreReadFromEveryMachineAndUpdatedByTheProtocol() {
        try (EmbeddedCluster c = small().build()) {
            long key = KeyLayout.key(7, 0, KeyLayout.OUT);
            Machine home = c.homeOf(key);
            BulkInsert in = new BulkInsert(home.store());
            assertTrue(insert(in, key, bytes("abcdefgh")));
            in.durable().join();
            for (int m = 0; m < 3; m++) {
                assertArrayEquals(bytes("abcdefgh"), c.machine(m).get(key), "read from machine " + m);
            }
            c.machine((home.id() + 1) % 3).update(key, Mutators.APPEND, bytes("ijkl"));
            assertArrayEquals(bytes("abcdefghijkl"), c.machine(0).get(key));
            assertEquals(1, in.inserted());
        }
    }

    @Test
    void aKeyWithAValueIsLeftAsItIs() {
        try (EmbeddedCluster c = small().build()) {
            long key = KeyLayout.key(8, 0, KeyLayout.VERTEX);
            c.machine(0).put(key, bytes("written first"));
            BulkInsert in = new BulkInsert(c.homeOf(key).store());
            assertFalse(insert(in, key, bytes("loaded")));
            assertArrayEquals(bytes("written first"), c.machine(1).get(key));
            assertEquals(0, in.inserted());
        }
    }

    @Test
    void eachInsertStartsAFreshIncarnationAboveEarlierVersions() {
        try (EmbeddedCluster c = small().build()) {
            long a = KeyLayout.key(9, 0, KeyLayout.VERTEX);
            c.machine(0).put(a, bytes("a"));
            MachineStore home = c.homeOf(a).store();
            long before = home.incarnation();
            long b = KeyLayout.key(9, 0, KeyLayout.OUT);
            BulkInsert in = new BulkInsert(home);
            assertTrue(insert(in, b, bytes("b")));
            assertTrue(home.incarnation() > before, "a loaded record takes a new incarnation");
            assertEquals(ValueRecord.firstVersion(home.incarnation()),
                home.session().get(b).version(), "its version is that incarnation's first");
        }
    }

    @Test
    void aKeyHomedElsewhereIsRefused() {
        try (EmbeddedCluster c = small().build()) {
            long key = KeyLayout.key(10, 0, KeyLayout.VERTEX);
            int other = (c.home(key) + 1) % 3;
            BulkInsert in = new BulkInsert(c.machine(other).store());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> insert(in, key, bytes("x")));
            assertTrue(e.getMessage().contains("its home is machine " + c.home(key)), e.getMessage());
        }
    }

    @Test
    void aDurableClusterLogsWhatItLoadsAndGetsItBackAfterARestart() {
        long[] keys = new long[50];
        try (EmbeddedCluster c = small().durability(dir, SyncPolicy.BATCH, 0).build()) {
            BulkInsert[] in = new BulkInsert[3];
            for (int m = 0; m < 3; m++) {
                in[m] = new BulkInsert(c.machine(m).store());
            }
            for (int i = 0; i < keys.length; i++) {
                keys[i] = KeyLayout.key(100 + i, 0, KeyLayout.OUT);
                assertTrue(insert(in[c.home(keys[i])], keys[i], bytes("loaded-" + i)));
            }
            for (BulkInsert b : in) {
                b.durable().join();
            }
        }
        try (EmbeddedCluster c = small().durability(dir, SyncPolicy.BATCH, 0).build()) {
            for (int i = 0; i < keys.length; i++) {
                assertArrayEquals(bytes("loaded-" + i), c.machine(i % 3).get(keys[i]), "key " + i);
            }
            long key = keys[0];
            c.machine(1).update(key, Mutators.APPEND, bytes("+"));
            assertArrayEquals(bytes("loaded-0+"), c.machine(2).get(key), "later updates sort after the load");
        }
    }
}
