package io.pragh.fabric.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.pragh.fabric.Endpoint;
import io.pragh.fabric.FabricException;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.MessageHandler;
import io.pragh.fabric.OpBatch;
import io.pragh.fabric.Region;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A peer that is gone, refuses connections, never greets, or stops answering makes operations on it fail with a
 * retryable FabricException, bounded by the configured timeouts, never a hang; and a peer that comes back is reached
 * again.
 */
@Timeout(60)
class PeerFailureTest {
    /** Short enough that the tests waiting for a timeout finish quickly, long enough for real handshakes under load. */
    private static final TcpFabricOptions OPTIONS = TcpFabricOptions.defaults()
        .withConnectTimeout(Duration.ofSeconds(1)).withHandshakeTimeout(Duration.ofSeconds(2))
        .withRequestTimeout(Duration.ofSeconds(1)).withReconnectBackoff(Duration.ofMillis(100));
    /**
     * For the operations that must succeed (a first read, a handshake before the timeout a test waits for): a host
     * starved of CPU was seen to leave a thread unscheduled for 6 s, past the short timeouts above.
     */
    private static final Duration PATIENT = Duration.ofSeconds(30);
    private static final MessageHandler IGNORE = (from, msg, off, len) -> { };

    private static FabricException assertRetryable(Runnable op, String messagePart) {
        FabricException e = assertThrows(FabricException.class, op::run);
        assertTrue(e.retryable(), "retryable: " + e.getMessage());
        assertTrue(e.getMessage().contains(messagePart), e.getMessage());
        return e;
    }

    private static TcpFabricOptions patient(TcpFabricOptions o) {
        return o.withConnectTimeout(PATIENT).withHandshakeTimeout(PATIENT).withRequestTimeout(PATIENT);
    }

    @Test
    void aStoppedPeerMakesEveryKindOfOperationFailWithARetryableError() {
        MachineMemory[] memories = TestMemory.allocate(3);
        // Its failures are refused connections, not timeouts: every timeout patient.
        LoopbackCluster cluster = LoopbackCluster.start(3, LoopbackCluster.SECRET, patient(OPTIONS));
        try {
            Endpoint[] eps = cluster.attach(memories, new MessageHandler[] {IGNORE, IGNORE, IGNORE});
            UnsafeBuffer b = new UnsafeBuffer(new byte[8]);
            eps[0].read(2, Region.KEYS, 0, b, 0, 8);
            cluster.fabrics[2].close();

            assertRetryable(() -> eps[0].read(2, Region.KEYS, 0, b, 0, 8), "machine 2");
            assertRetryable(() -> eps[0].write(2, Region.KEYS, 0, b, 0, 8), "machine 2");
            assertRetryable(() -> eps[0].compareAndSwap(2, Region.KEYS, 0, 0, 1), "machine 2");
            assertRetryable(() -> eps[0].send(2, b, 0, 8), "machine 2");
            OpBatch batch = eps[0].newBatch(4);
            batch.read(1, Region.KEYS, 0, new UnsafeBuffer(new byte[8]), 0, 8);
            batch.compareAndSwap(2, Region.KEYS, 0, 0, 1);
            assertRetryable(batch::awaitAll, "batched operation 1 failed");
            assertTrue(batch.isDone(0) && batch.isDone(1));
            assertFalse(eps[0].isReachable(2));
            assertTrue(eps[0].isReachable(1), "the other peers are unaffected");
        } finally {
            cluster.close();
            TestMemory.free(memories);
        }
    }

    @Test
    void aRestartedPeerIsReachedAgainAtItsNewAddress() throws Exception {
        MachineMemory[] memories = TestMemory.allocate(2);
        MachineMemory fresh = TestMemory.allocateOne(1);
        LoopbackCluster cluster = LoopbackCluster.start(2, LoopbackCluster.SECRET, patient(OPTIONS));
        TcpFabric restarted = null;
        try {
            Endpoint[] eps = cluster.attach(memories, new MessageHandler[] {IGNORE, IGNORE});
            UnsafeBuffer b = new UnsafeBuffer(new byte[8]);
            eps[0].read(1, Region.KEYS, 0, b, 0, 8);
            cluster.fabrics[1].close();
            assertRetryable(() -> eps[0].read(1, Region.KEYS, 0, b, 0, 8), "machine 1");

            restarted = new TcpFabric(1, List.of(cluster.fabrics[0].localAddress(), LoopbackCluster.loopback(0)),
                LoopbackCluster.SECRET, patient(OPTIONS));
            restarted.attach(1, fresh, IGNORE);
            fresh.keys().putLongVolatile(0, 1234);
            cluster.fabrics[0].updateAddress(1, restarted.localAddress());
            eps[0].read(1, Region.KEYS, 0, b, 0, 8);
            assertEquals(1234, b.getLong(0));
        } finally {
            if (restarted != null) {
                restarted.close();
            }
            cluster.close();
            TestMemory.free(memories);
            TestMemory.free(fresh);
        }
    }

    @Test
    void aPortWithNobodyListeningFailsRetryablyAndIsNotHammered() throws Exception {
        int closedPort;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = probe.getLocalPort();
        }
        MachineMemory memory = TestMemory.allocateOne(0);
        try (TcpFabric fabric = new TcpFabric(0, List.of(LoopbackCluster.loopback(0),
            LoopbackCluster.loopback(closedPort)), LoopbackCluster.SECRET,
            OPTIONS.withReconnectBackoff(Duration.ofSeconds(30)))) {
            Endpoint ep = fabric.attach(0, memory, IGNORE);
            UnsafeBuffer b = new UnsafeBuffer(new byte[8]);
            assertRetryable(() -> ep.read(1, Region.KEYS, 0, b, 0, 8), "is unreachable");
            assertRetryable(() -> ep.read(1, Region.KEYS, 0, b, 0, 8), "next attempt in");
        } finally {
            TestMemory.free(memory);
        }
    }

    @Test
    void aPeerWhoseConnectionAttemptHangsFailsAfterTheConnectTimeout() throws Exception {
        // A listener that never accepts, with its backlog filled: the kernel drops further SYNs, so a connection
        // attempt neither succeeds nor is refused, as with a host that vanished from the network.
        try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            List<Socket> fillers = new ArrayList<>();
            try {
                for (int i = 0; i < 4; i++) {
                    Socket s = new Socket();
                    try {
                        s.connect(full.getLocalSocketAddress(), 200);
                        fillers.add(s);
                    } catch (IOException backlogFull) {
                        s.close();
                        break;
                    }
                }
                MachineMemory memory = TestMemory.allocateOne(0);
                try (TcpFabric fabric = new TcpFabric(0, List.of(LoopbackCluster.loopback(0),
                    LoopbackCluster.loopback(full.getLocalPort())), LoopbackCluster.SECRET, OPTIONS)) {
                    Endpoint ep = fabric.attach(0, memory, IGNORE);
                    FabricException e = assertRetryable(() -> ep.compareAndSwap(1, Region.KEYS, 0, 0, 1),
                        "machine 1");
                    assertTrue(e.getMessage().contains("timed out after 1000 ms"), e.getMessage());
                } finally {
                    TestMemory.free(memory);
                }
            } finally {
                for (Socket s : fillers) {
                    s.close();
                }
            }
        }
    }

    /** What a fake machine 1 does with the one connection machine 0 opens to it. */
    private interface FakePeer {
        void serve(Socket connection) throws IOException;
    }

    /**
     * Runs {@code check} on machine 0's endpoint (with {@code options}) while machine 1 is played by {@code peer} on
     * a loopback port.
     */
    private static void againstAFakePeer(TcpFabricOptions options, FakePeer peer, Consumer<Endpoint> check)
        throws IOException {
        try (ServerSocket listener = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            Thread server = new Thread(() -> {
                try (Socket s = listener.accept()) {
                    peer.serve(s);
                } catch (IOException ignored) {
                    // machine 0 hung up, as it should
                }
            });
            server.setDaemon(true);
            server.start();
            MachineMemory memory = TestMemory.allocateOne(0);
            try (TcpFabric fabric = new TcpFabric(0, List.of(LoopbackCluster.loopback(0),
                LoopbackCluster.loopback(listener.getLocalPort())), LoopbackCluster.SECRET, options)) {
                check.accept(fabric.attach(0, memory, IGNORE));
            } finally {
                TestMemory.free(memory);
            }
        }
    }

    @Test
    void aPeerThatNeverGreetsFailsTheHandshakeRetryably() throws Exception {
        // Holds the connection open without a word until the client gives up.
        againstAFakePeer(OPTIONS, s -> s.getInputStream().read(), ep -> assertRetryable(
            () -> ep.compareAndSwap(1, Region.KEYS, 0, 0, 1), "did not complete the handshake within 2000 ms"));
    }

    @Test
    void aPeerThatStopsAnsweringIsDisconnectedAfterTheRequestTimeout() throws Exception {
        UnsafeBuffer b = new UnsafeBuffer(new byte[8]);
        // The handshake must pass before the request timeout this test waits for: it gets a patient bound.
        againstAFakePeer(OPTIONS.withHandshakeTimeout(PATIENT), s -> serveHandshakeThenIgnoreEverything(s, 1),
            ep -> assertRetryable(() -> ep.read(1, Region.VALUES, 0, b, 0, 8), "did not answer within 1000 ms"));
    }

    @Test
    void aPeerPresumedDeadFailsOperationsInFlightAndLaterAtOnceUntilItRejoins() throws Exception {
        CountDownLatch requested = new CountDownLatch(1);
        try (ServerSocket listener = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            Thread server = new Thread(() -> {
                try (Socket s = listener.accept()) {
                    serveHandshakeThenIgnoreEverything(s, 1, requested);
                } catch (IOException ignored) {
                    // machine 0 hung up, as it should
                }
            });
            server.setDaemon(true);
            server.start();
            MachineMemory memory = TestMemory.allocateOne(0);
            // A request timeout far beyond the test's own: only the presumption can end the read in flight.
            TcpFabricOptions patient = OPTIONS.withRequestTimeout(Duration.ofSeconds(60));
            try (TcpFabric fabric = new TcpFabric(0, List.of(LoopbackCluster.loopback(0),
                LoopbackCluster.loopback(listener.getLocalPort())), LoopbackCluster.SECRET, patient)) {
                Endpoint ep = fabric.attach(0, memory, IGNORE);
                UnsafeBuffer b = new UnsafeBuffer(new byte[8]);
                Thread marker = new Thread(() -> {
                    try {
                        requested.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    fabric.presumeDead(1, "is presumed dead: its ZooKeeper session ended");
                });
                marker.start();
                // Sent, then held by the hung peer until machine 0 presumes it dead.
                assertRetryable(() -> ep.read(1, Region.VALUES, 0, b, 0, 8), "presumed dead");
                marker.join();
                FabricException later = assertRetryable(() -> ep.compareAndSwap(1, Region.KEYS, 0, 0, 1),
                    "machine 1 at ");
                assertTrue(later.getMessage().endsWith("is presumed dead: its ZooKeeper session ended"),
                    later.getMessage());
                assertFalse(ep.isReachable(1));
                fabric.peerRejoined(1);
                // Tried again: the fake peer accepts no second connection, so the handshake times out instead.
                assertRetryable(() -> ep.read(1, Region.VALUES, 0, b, 0, 8), "handshake");
            } finally {
                TestMemory.free(memory);
            }
        }
    }

    private static void serveHandshakeThenIgnoreEverything(Socket s, int self) throws IOException {
        serveHandshakeThenIgnoreEverything(s, self, new CountDownLatch(1));
    }

    /**
     * A peer that proves the secret like a real machine, then swallows every request (a hung process), counting
     * {@code requested} down at the first byte of the first.
     */
    private static void serveHandshakeThenIgnoreEverything(Socket s, int self, CountDownLatch requested)
        throws IOException {
        DataInputStream in = new DataInputStream(s.getInputStream());
        OutputStream out = s.getOutputStream();
        byte[] serverNonce = Handshake.nonce();
        ByteBuf hello = Unpooled.buffer();
        FrameWriter.hello(hello, self, serverNonce);
        out.write(hello.array(), hello.readerIndex(), hello.readableBytes());
        int length = in.readInt();
        byte[] auth = new byte[length];
        in.readFully(auth);
        ByteBuf a = Unpooled.wrappedBuffer(auth);
        int client = a.getUnsignedShort(1 + 6);
        byte[] clientNonce = Handshake.bytes(a, 1 + 10, Frame.NONCE_BYTES);
        ByteBuf ok = Unpooled.buffer();
        FrameWriter.authOk(ok,
            Handshake.FABRIC.serverProof(LoopbackCluster.SECRET, serverNonce, clientNonce, client, self));
        out.write(ok.array(), ok.readerIndex(), ok.readableBytes());
        if (in.read() >= 0) {
            requested.countDown();
        }
        while (in.read() >= 0) {
            // swallow every request
        }
    }
}
