package io.pragh.fabric.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The frame decoder on valid, damaged and random input, with fixed seeds so every run checks the same inputs. */
class FrameDecoderTest {
    @Test
    void everyFrameTheWriterProducesDecodesBackToTheSameBytes() {
        Random r = new Random(1);
        for (int round = 0; round < 200; round++) {
            for (byte[] frame : FrameSamples.oneOfEachType(r)) {
                assertEquals(1, FrameDecoderHarness.check(frame), "one frame decoded");
            }
        }
    }

    @Test
    void damagedAndRandomStreamsAreDecodedOrRejectedWithAFrameExceptionOnly() {
        Random r = new Random(20240611);
        int decoded = 0;
        for (int i = 0; i < 20_000; i++) {
            decoded += FrameDecoderHarness.check(FrameSamples.damagedStream(r));
        }
        assertTrue(decoded > 4_000, "the inputs reach past the length check often: " + decoded);
    }

    @Test
    void framesSplitAtEveryPossibleBoundaryDecodeTheSame() {
        Random r = new Random(7);
        ByteBuf stream = Unpooled.buffer();
        List<byte[]> frames = FrameSamples.oneOfEachType(r);
        frames.forEach(stream::writeBytes);
        byte[] all = new byte[stream.readableBytes()];
        stream.readBytes(all);
        int total = 0;
        for (int split = 0; split <= all.length; split++) {
            ByteBuf cumulation = Unpooled.buffer();
            cumulation.writeBytes(all, 0, split);
            int n = decodeAll(cumulation);
            cumulation.writeBytes(all, split, all.length - split);
            n += decodeAll(cumulation);
            assertEquals(frames.size(), n, "split at " + split);
            assertEquals(0, cumulation.readableBytes());
            total += n;
        }
        assertEquals(frames.size() * (all.length + 1), total);
    }

    private static int decodeAll(ByteBuf in) {
        int n = 0;
        FrameVisitor any = new FrameVisitor() {
            @Override
            public String role() {
                return "test";
            }

            @Override
            public void onHello(int machine, ByteBuf b, int nonceIndex) {
            }

            @Override
            public void onAuth(int client, int server, ByteBuf b, int nonceIndex, int macIndex) {
            }

            @Override
            public void onAuthOk(ByteBuf b, int macIndex) {
            }

            @Override
            public void onClose(String reason) {
            }

            @Override
            public void onRead(int id, io.pragh.fabric.Region region, long offset, int length) {
            }

            @Override
            public void onWrite(int id, boolean s, io.pragh.fabric.Region region, long offset, ByteBuf b, int i,
                                int l) {
            }

            @Override
            public void onCas(int id, io.pragh.fabric.Region region, long offset, long expected, long desired) {
            }

            @Override
            public boolean onMessage(ByteBuf b, int index, int length) {
                return true;
            }

            @Override
            public void onReadOk(int id, ByteBuf b, int index, int length) {
            }

            @Override
            public void onWriteOk(int id) {
            }

            @Override
            public void onCasOk(int id, long witnessed) {
            }

            @Override
            public void onError(int id, boolean retryable, String reason) {
            }
        };
        while (FrameDecoder.decodeOne(in, FrameDecoderHarness.MAX_FRAME, any) > 0) {
            n++;
        }
        return n;
    }

    @Test
    void aFrameOutOfTurnIsRejectedByTheDefaultVisitor() {
        ByteBuf writeOk = Unpooled.buffer();
        FrameWriter.writeOk(writeOk, 3);
        FrameVisitor server = () -> "server";
        FrameException e = assertThrows(FrameException.class,
            () -> FrameDecoder.decodeOne(writeOk, FrameDecoderHarness.MAX_FRAME, server));
        assertEquals("unexpected WRITE_OK frame sent to a server", e.getMessage());
    }

    @Test
    void theFuzzSeedCorpusHoldsAValidFrameOfEveryType() throws IOException {
        Set<Byte> types = new HashSet<>();
        String dir = "FrameDecoderFuzzTestInputs/decodesOrRejectsWithAFrameException/";
        for (String seed : List.of("hello", "auth", "auth_ok", "close", "read", "write", "cas", "message",
            "read_ok", "write_ok", "cas_ok", "error", "pipelined")) {
            try (InputStream in = FrameDecoderTest.class.getResourceAsStream(dir + seed)) {
                assertTrue(in != null, "seed " + seed + " exists");
                byte[] b = in.readAllBytes();
                assertTrue(FrameDecoderHarness.check(b) >= 1, "seed " + seed + " is a valid frame");
                types.add(b[4]);
            }
        }
        assertEquals(12, types.size(), "seeds start with every frame type: " + types);
    }
}
