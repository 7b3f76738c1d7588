package io.pragh.server.rpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import io.pragh.keys.KeyLayout;
import io.pragh.server.cli.LocalCluster;
import io.pragh.server.node.ServerNode;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client may send requests without waiting for answers: they come back in request order, a key's requests take
 * effect in the order sent (a GET sees the PUT before it), and a refused one fails only itself.
 */
// A hang bound only: beside a CPU hog a cluster test took 93 s, 1-5 s quietly (session 16).
@Timeout(300)
class PipelinedRequestsTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void nettyLogsToJdk() {
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
    }

    private static long key(int i) {
        return KeyLayout.key(i, 0, KeyLayout.VERTEX);
    }

    private static byte[] value(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    private static byte[] keyed(byte op, long key, byte[] value) {
        UnsafeBuffer u = new UnsafeBuffer(new byte[9 + value.length]);
        u.putByte(0, op);
        u.putLong(1, key);
        u.putBytes(9, value);
        return u.byteArray();
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrderAndEachKeysTakeEffectInOrder() throws Exception {
        LocalCluster local = LocalCluster.create(dir, LocalCluster.Settings.small(1));
        try (ServerNode node = ServerNode.start(local.config(), 0);
             MachineClient client = new MachineClient(local.clientAddress(0), 10_000, local.config().secret(), null)) {
            int n = 1_000;
            long[] keys = new long[n];
            byte[][] values = new byte[n][];
            for (int i = 0; i < n; i++) {
                keys[i] = key(i % 100); // ten PUTs to each key, in one pipeline
                values[i] = value(i);
            }
            client.putAll(keys, values, 0, n, 64);
            for (int k = 0; k < 100; k++) {
                assertArrayEquals(value(900 + k), client.get(key(k)), "the last PUT sent to key " + k + " wins");
            }

            // By hand: PUT, GET of the same key and a GET of another, all sent before any answer is read.
            try (RawClient raw = new RawClient(local.clientAddress(0))) {
                assertEquals(ClientProtocol.OK, raw.authenticate(local.config().secret())[0]);
                for (int round = 0; round < 50; round++) {
                    raw.send(keyed(ClientProtocol.PUT, key(500), value(round)));
                    raw.send(keyed(ClientProtocol.GET, key(500), new byte[0]));
                    raw.send(keyed(ClientProtocol.GET, key(7), new byte[0]));
                    raw.send(ClientProtocol.PING);
                    assertArrayEquals(new byte[] {ClientProtocol.OK}, raw.read(), "the PUT's answer first");
                    byte[] got = raw.read();
                    assertEquals(ClientProtocol.OK, got[0]);
                    assertEquals(round, ByteBuffer.wrap(got, 1, 8).getLong(), "the GET sees the PUT sent before it");
                    byte[] other = raw.read();
                    assertEquals(907, ByteBuffer.wrap(other, 1, 8).getLong(), "then the other key's GET");
                    assertEquals(25, raw.read().length, "then the PING's answer");
                }
            }
        }
    }

    @Test
    void aRefusedPutFailsTheCallButNotTheOthersNorTheConnection() throws Exception {
        LocalCluster local = LocalCluster.create(dir, LocalCluster.Settings.small(1));
        try (ServerNode node = ServerNode.start(local.config(), 0);
             MachineClient client = new MachineClient(local.clientAddress(0), 10_000, local.config().secret(), null)) {
            int n = 40;
            long[] keys = new long[n];
            byte[][] values = new byte[n][];
            for (int i = 0; i < n; i++) {
                keys[i] = key(i);
                // The small cluster's value region has 1 MiB chunks: a 2 MiB value cannot be stored.
                values[i] = i == 17 ? new byte[2 << 20] : value(i);
            }
            ClientException e = assertThrows(ClientException.class, () -> client.putAll(keys, values, 0, n, 8));
            assertTrue(e.getMessage().contains("larger than a value region chunk"), e.getMessage());
            for (int i = 0; i < n; i++) {
                if (i != 17) {
                    assertArrayEquals(value(i), client.get(key(i)), "key " + i);
                }
            }
            assertEquals(null, client.get(key(17)));
        }
    }

    @Test
    void aClusterWidePutAllPipelinesOnEveryHomeAtOnceAndARefusalFailsOnlyItself() throws Exception {
        LocalCluster local = LocalCluster.create(dir, LocalCluster.Settings.small(3)
            .withGremlinPortBase(LocalCluster.Settings.NO_GREMLIN));
        ServerNode[] nodes = new ServerNode[3];
        try {
            for (int i = 0; i < nodes.length; i++) {
                nodes[i] = ServerNode.start(local.config(), i);
            }
            try (ClusterClient client = local.client(10_000)) {
                int n = 3_000;
                long[] keys = new long[n];
                byte[][] values = new byte[n][];
                int[] perHome = new int[3];
                for (int i = 0; i < n; i++) {
                    keys[i] = key(i % 300); // ten PUTs to each key, spread over the three homes
                    values[i] = value(i);
                    perHome[client.home(keys[i])]++;
                }
                for (int m = 0; m < 3; m++) {
                    assertTrue(perHome[m] > 0, "the keys reach every home, " + m + " too");
                }
                client.putAll(keys, values, 16); // a window far below each home's share: many steps per machine
                for (int k = 0; k < 300; k++) {
                    assertArrayEquals(value(2_700 + k), client.get(key(k)), "the last PUT sent to key " + k + " wins");
                }

                byte[][] oneTooLarge = values.clone();
                int bad = 1_234;
                oneTooLarge[bad] = new byte[2 << 20]; // larger than the small cluster's 1 MiB chunks
                for (int i = 0; i < n; i++) {
                    if (i != bad) {
                        oneTooLarge[i] = value(-i);
                    }
                }
                ClientException e = assertThrows(ClientException.class, () -> client.putAll(keys, oneTooLarge, 16));
                assertTrue(e.getMessage().contains("larger than a value region chunk"), e.getMessage());
                for (int k = 0; k < 300; k++) {
                    int last = 2_700 + k;
                    assertArrayEquals(value(-last), client.get(key(k)), "every other PUT landed, key " + k);
                }
                client.put(key(1), value(1)); // and every connection is still usable
                assertArrayEquals(value(1), client.get(key(1)));
            }
        } finally {
            for (ServerNode node : nodes) {
                if (node != null) {
                    node.close();
                }
            }
        }
    }
}
