package io.pragh.fabric.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.pragh.fabric.Endpoint;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.MessageHandler;
import io.pragh.fabric.Region;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Random;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a fabric port does with peers that are not well-behaved Pragh machines: garbage, strangers, oversize and
 * malformed frames get the connection closed with a reason and a log line, and the machine keeps serving everyone
 * else. A well-formed request that is wrong in itself gets an ERROR and the connection stays.
 */
@Timeout(60)
class ServerHandlerTest {
    /** The handshake bound applies to the real machines too, so it stays generous for a loaded test machine. */
    private static final TcpFabricOptions OPTIONS = TcpFabricOptions.defaults()
        .withHandshakeTimeout(Duration.ofSeconds(2)).withMaxPayloadBytes(4096);

    private LoopbackCluster cluster;
    private MachineMemory[] memories;
    private Endpoint[] endpoints;
    private LogCapture log;

    @BeforeEach
    void start() {
        log = new LogCapture();
        memories = TestMemory.allocate(2);
        cluster = LoopbackCluster.start(2, LoopbackCluster.SECRET, OPTIONS);
        MessageHandler ignore = (from, msg, off, len) -> { };
        endpoints = cluster.attach(memories, new MessageHandler[] {ignore, ignore});
    }

    @AfterEach
    void stop() {
        cluster.close();
        TestMemory.free(memories);
        log.close();
    }

    private RawPeer connectToMachine1() throws IOException {
        return new RawPeer(cluster.fabrics[1].localAddress());
    }

    /** Machine 0 can still read from machine 1: the port survived whatever the test threw at it. */
    private void assertMachine1StillServes() {
        memories[1].values().putLongVolatile(64, 0x5eed);
        UnsafeBuffer dst = new UnsafeBuffer(new byte[8]);
        endpoints[0].read(1, Region.VALUES, 64, dst, 0, 8);
        assertEquals(0x5eed, dst.getLong(0));
    }

    @Test
    void garbageBytesCloseTheConnectionWithALogLineAndTheServerKeepsServing() throws Exception {
        try (RawPeer peer = connectToMachine1()) {
            peer.send("GET / HTTP/1.1\r\nHost: pragh\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            String reason = peer.readUntilClosed();
            assertNotNull(reason, "the server says why it closes");
            assertTrue(reason.contains("exceeds the " + Frame.HANDSHAKE_MAX_FRAME + "-byte limit"), reason);
        }
        assertTrue(log.saw("closing fabric connection with unauthenticated peer"), log.lines().toString());
        Random random = new Random(42);
        for (int i = 0; i < 20; i++) {
            byte[] junk = new byte[1 + random.nextInt(200)];
            random.nextBytes(junk);
            try (RawPeer peer = connectToMachine1()) {
                peer.send(junk);
                // Junk is either rejected at once or waits for bytes that never come until the handshake timeout.
                peer.readUntilClosed();
            }
        }
        assertMachine1StillServes();
    }

    @Test
    void aRequestBeforeTheHandshakeIsRejected() throws Exception {
        try (RawPeer peer = connectToMachine1()) {
            ByteBuf read = Unpooled.buffer();
            FrameWriter.read(read, 1, Region.VALUES, 0, 8);
            peer.send(read);
            String reason = peer.readUntilClosed();
            assertEquals("READ frame before the handshake completed", reason);
        }
        assertMachine1StillServes();
    }

    @Test
    void aPeerWithTheWrongSecretIsRefused() throws Exception {
        try (RawPeer peer = connectToMachine1()) {
            RawPeer.RawFrame answer = peer.authenticate(ClusterSecret.fromString("not-the-cluster-secret!!"), 0);
            assertEquals("refused: authentication failed: the peer does not hold the cluster secret",
                answer.closeReason());
            assertEquals(null, peer.readUntilClosed(), "nothing follows the refusal but the close");
        }
        assertTrue(log.saw("refused a fabric connection"), log.lines().toString());
        assertMachine1StillServes();
    }

    @Test
    void aPeerThatNeverCompletesTheHandshakeIsDisconnected() throws Exception {
        try (RawPeer peer = connectToMachine1()) {
            assertEquals(Frame.HELLO, peer.readFrame().type());
            assertEquals("no valid handshake within 2000 ms", peer.readUntilClosed());
        }
        assertMachine1StillServes();
    }

    @Test
    void anOversizeFrameAfterTheHandshakeIsRejectedWithTheLimit() throws Exception {
        try (RawPeer peer = connectToMachine1()) {
            assertEquals(Frame.AUTH_OK, peer.authenticate(LoopbackCluster.SECRET, 0).type());
            int limit = cluster.fabrics[1].maxFrame();
            ByteBuf header = Unpooled.buffer().writeInt(limit + 1).writeByte(Frame.WRITE);
            peer.send(header);
            assertEquals("frame of " + (limit + 1) + " bytes exceeds the " + limit + "-byte limit",
                peer.readUntilClosed());
        }
        assertMachine1StillServes();
    }

    @Test
    void malformedFramesAreRejectedNamingWhatIsWrong() throws Exception {
        assertRejected(Unpooled.buffer().writeInt(6).writeByte(Frame.READ).writeInt(1).writeByte(0),
            "READ frame body must be 17 bytes, got 5");
        assertRejected(Unpooled.buffer().writeInt(18).writeByte(Frame.READ).writeInt(1).writeByte(7).writeLong(0)
            .writeInt(8), "READ frame names unknown region 7");
        assertRejected(Unpooled.buffer().writeInt(1).writeByte(99), "unknown frame type 99");
        assertRejected(Unpooled.buffer().writeInt(20).writeByte(Frame.WRITE).writeInt(1).writeByte(1).writeByte(1)
            .writeLong(0).writeInt(100).writeByte(0), "WRITE frame says 100 data bytes but carries 1");
        assertRejected(Unpooled.buffer().writeInt(5).writeByte(Frame.WRITE_OK).writeInt(1),
            "unexpected WRITE_OK frame sent to a server");
        assertRejected(Unpooled.buffer().writeInt(0), "frame length 0 is below the minimum of 1");
        assertMachine1StillServes();
    }

    private void assertRejected(ByteBuf frame, String reason) throws Exception {
        try (RawPeer peer = connectToMachine1()) {
            assertEquals(Frame.AUTH_OK, peer.authenticate(LoopbackCluster.SECRET, 0).type());
            peer.send(frame);
            assertEquals(reason, peer.readUntilClosed());
        }
        assertTrue(log.saw(reason), log.lines().toString());
    }

    @Test
    void aWellFormedRequestOutsideTheRegionGetsAnErrorAndTheConnectionStays() throws Exception {
        memories[1].keys().putLongVolatile(8, 77);
        try (RawPeer peer = connectToMachine1()) {
            assertEquals(Frame.AUTH_OK, peer.authenticate(LoopbackCluster.SECRET, 0).type());
            ByteBuf bad = Unpooled.buffer();
            FrameWriter.read(bad, 5, Region.KEYS, TestMemory.REGION_BYTES, 8);
            FrameWriter.cas(bad, 6, Region.KEYS, 12, 0, 1);
            FrameWriter.read(bad, 7, Region.KEYS, 8, 8);
            peer.send(bad);
            RawPeer.RawFrame outside = peer.readFrame();
            assertEquals(Frame.ERROR, outside.type());
            assertEquals(5, outside.buf().getInt(0));
            assertTrue(new String(outside.body(), StandardCharsets.UTF_8).contains("is outside region 'keys-1'"));
            RawPeer.RawFrame misaligned = peer.readFrame();
            assertEquals(Frame.ERROR, misaligned.type());
            assertTrue(new String(misaligned.body(), StandardCharsets.UTF_8).contains("not 8-byte aligned"));
            RawPeer.RawFrame ok = peer.readFrame();
            assertEquals(Frame.READ_OK, ok.type());
            assertEquals(7, ok.buf().getInt(0));
            assertEquals(77, ok.buf().getLongLE(4), "regions store native (little-endian) words");
        }
    }

    @Test
    void aPeerClaimingAnotherTargetIsRefused() throws Exception {
        try (RawPeer peer = connectToMachine1()) {
            RawPeer.RawFrame hello = peer.readFrame();
            byte[] serverNonce = Handshake.bytes(hello.buf(), 8, Frame.NONCE_BYTES);
            byte[] clientNonce = Handshake.nonce();
            ByteBuf auth = Unpooled.buffer();
            FrameWriter.auth(auth, 0, 5, clientNonce,
                Handshake.FABRIC.clientProof(LoopbackCluster.SECRET, serverNonce, clientNonce, 0, 5));
            peer.send(auth);
            assertEquals("refused: this is machine 1, not machine 5", peer.readUntilClosed());
        }
    }
}
