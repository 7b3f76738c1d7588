package io.pragh.server.rpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import io.pragh.keys.KeyLayout;
import io.pragh.server.cli.LocalCluster;
import io.pragh.server.node.ServerNode;
import io.pragh.store.Mutators;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * UPDATES carries many updates in one frame: a machine applies every one (appends to keys homed on any machine, set,
 * delete), and refuses a malformed frame or one naming a mutator it does not know with an ERROR that names the
 * entry, applying none of it; a client splits a long batch into frames under its byte budget.
 */
// A hang bound only: beside a CPU hog a cluster test took 93 s, 1-5 s quietly (session 16).
@Timeout(300)
class BatchedUpdatesTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void nettyLogsToJdk() {
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
    }

    private static String check(byte[] req, int maxValue) {
        return ClientProtocol.check(new UnsafeBuffer(req), 0, req.length, maxValue);
    }

    private static byte[] frame(int mutator, byte[]... arguments) {
        long[] keys = new long[arguments.length];
        int[] mutators = new int[arguments.length];
        Arrays.fill(mutators, mutator);
        return UpdatesFrame.encode(keys, mutators, arguments, 0, arguments.length);
    }

    @Test
    void malformedFramesAreRefusedNamingTheirFault() {
        assertNull(check(frame(Mutators.APPEND, new byte[8], new byte[0], new byte[100]), 100));
        assertTrue(check(new byte[] {ClientProtocol.UPDATES, 0}, 100).contains("needs a count"));
        byte[] none = frame(Mutators.APPEND, new byte[1]);
        new UnsafeBuffer(none).putInt(1, 0);
        assertTrue(check(none, 100).contains("UPDATES of 0 updates"));
        byte[] big = frame(Mutators.APPEND, new byte[8], new byte[101]);
        assertTrue(check(big, 100).contains("entry 1: argument of 101 bytes exceeds the 100-byte limit"), check(big, 100));
        byte[] cut = Arrays.copyOf(frame(Mutators.APPEND, new byte[8], new byte[8]), 30);
        assertTrue(check(cut, 100).contains("entry 1 of 2 is cut short"), check(cut, 100));
        byte[] past = frame(Mutators.APPEND, new byte[8]);
        new UnsafeBuffer(past).putInt(UpdatesFrame.HEADER + 12, 50);
        assertTrue(check(past, 100).contains("runs past the frame"), check(past, 100));
        byte[] over = Arrays.copyOf(frame(Mutators.APPEND, new byte[8]), UpdatesFrame.HEADER + UpdatesFrame.ENTRY_HEADER
            + 8 + 3);
        assertTrue(check(over, 100).contains("leaves 3 bytes over"), check(over, 100));
        assertTrue(check(frame(300, new byte[1]), 100).contains("mutator 300"));
    }

    @Test
    void aMachineAppliesEveryUpdateOfAFrameAtTheKeysHomesAndRefusesUnknownMutatorsWhole() throws Exception {
        LocalCluster local = LocalCluster.create(dir, LocalCluster.Settings.small(2).withGremlinPortBase(
            LocalCluster.Settings.NO_GREMLIN).withSync("none"));
        try (ServerNode m0 = ServerNode.start(local.config(), 0);
             ServerNode m1 = ServerNode.start(local.config(), 1);
             MachineClient client = new MachineClient(local.clientAddress(0), 10_000, local.config().secret(), null)) {
            int n = 500; // keys homed on both machines, two appends each, then a SET and a DELETE
            long[] keys = new long[2 * n + 2];
            int[] mutators = new int[keys.length];
            byte[][] arguments = new byte[keys.length][];
            for (int i = 0; i < 2 * n; i++) {
                keys[i] = KeyLayout.key(i % n, 0, KeyLayout.OUT);
                mutators[i] = Mutators.APPEND;
                arguments[i] = ("a" + i + ";").getBytes(StandardCharsets.UTF_8);
            }
            keys[2 * n] = KeyLayout.key(7, 0, KeyLayout.VERTEX);
            mutators[2 * n] = Mutators.SET;
            arguments[2 * n] = "seven".getBytes(StandardCharsets.UTF_8);
            keys[2 * n + 1] = KeyLayout.key(8, 0, KeyLayout.VERTEX);
            mutators[2 * n + 1] = Mutators.DELETE;
            arguments[2 * n + 1] = new byte[0];
            client.put(keys[2 * n + 1], new byte[] {1});
            client.updateAll(keys, mutators, arguments, keys.length, 1024, 2); // 1 KiB frames: many of them
            for (int i = 0; i < n; i++) {
                assertEquals("a" + i + ";a" + (i + n) + ";", new String(client.get(keys[i]), StandardCharsets.UTF_8),
                    "both appends of key " + i);
            }
            assertTrue(m1.machine().store().keys().size() > 0, "machine 1 is home to some of the keys");
            assertArrayEquals("seven".getBytes(StandardCharsets.UTF_8), client.get(keys[2 * n]));
            assertNull(client.get(keys[2 * n + 1]));

            long untouched = KeyLayout.key(100_000, 0, KeyLayout.OUT); // no update above touched it
            ClientException refused = assertThrows(ClientException.class, () -> client.updateAll(
                new long[] {untouched, untouched}, new int[] {Mutators.APPEND, 200},
                new byte[][] {{1}, {2}}, 2, 1024, 1));
            assertTrue(refused.getMessage().contains("entry 1 names mutator 200"), refused.getMessage());
            assertNull(client.get(untouched), "a refused frame applies none of its updates");
            assertEquals(0, client.ping().machine(), "the connection stays usable");
        }
    }
}
