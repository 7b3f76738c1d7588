package io.pragh.fabric.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.pragh.fabric.Region;

/**
 * Runs {@link FrameDecoder} over arbitrary bytes as a stream of frames and checks its promises: it either decodes a
 * frame or rejects the input with a {@link FrameException} (any other exception escapes to the caller as a bug); it
 * never consumes bytes it did not decode, nor any when it needs more or a frame is refused; and every frame it
 * accepts re-encodes through {@link FrameWriter} to exactly the bytes it consumed, so decoder and writer agree.
 * Shared by the fixed-seed test and the Jazzer fuzz test.
 */
final class FrameDecoderHarness {
    /** Small enough that a fuzzer builds complete frames, large enough for every fixed-size frame. */
    static final int MAX_FRAME = 4096;

    private FrameDecoderHarness() {
    }

    /** Returns how many frames were decoded before the input ended or was rejected. */
    static int check(byte[] input) {
        ByteBuf in = Unpooled.wrappedBuffer(input);
        ReEncoder visitor = new ReEncoder();
        int frames = 0;
        try {
            while (true) {
                int start = in.readerIndex();
                visitor.reset();
                int r = FrameDecoder.decodeOne(in, MAX_FRAME, visitor);
                if (r == FrameDecoder.NEED_MORE || r == FrameDecoder.REFUSED) {
                    require(in.readerIndex() == start, "consumed bytes without decoding a frame");
                    if (r == FrameDecoder.NEED_MORE) {
                        return frames;
                    }
                    continue; // the visitor takes the refused message on the next attempt
                }
                require(r > 0 && in.readerIndex() == start + r, "consumed " + r + " bytes but moved the reader from "
                    + start + " to " + in.readerIndex());
                ByteBuf again = visitor.reencoded;
                if (again != null) {
                    require(ByteBufUtil.equals(again, 0, in, start, r) && again.readableBytes() == r,
                        "frame at " + start + " re-encodes to different bytes: "
                            + ByteBufUtil.hexDump(in, start, r) + " vs " + ByteBufUtil.hexDump(again));
                }
                frames++;
            }
        } catch (FrameException rejected) {
            require(rejected.getMessage() != null && !rejected.getMessage().isEmpty(), "rejection without a reason");
            require(!rejected.retryable(), "a malformed frame cannot become valid by retrying");
            return frames;
        }
    }

    private static void require(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }

    /** Accepts every frame type and writes it back with {@link FrameWriter}; refuses every other MESSAGE once. */
    private static final class ReEncoder implements FrameVisitor {
        ByteBuf reencoded;
        private boolean refuseNextMessage = true;

        void reset() {
            reencoded = Unpooled.buffer();
        }

        @Override
        public String role() {
            return "fuzz harness";
        }

        @Override
        public void onHello(int machine, ByteBuf in, int nonceIndex) {
            FrameWriter.hello(reencoded, machine, Handshake.bytes(in, nonceIndex, Frame.NONCE_BYTES));
        }

        @Override
        public void onAuth(int client, int server, ByteBuf in, int nonceIndex, int macIndex) {
            FrameWriter.auth(reencoded, client, server, Handshake.bytes(in, nonceIndex, Frame.NONCE_BYTES),
                Handshake.bytes(in, macIndex, Frame.MAC_BYTES));
        }

        @Override
        public void onAuthOk(ByteBuf in, int macIndex) {
            FrameWriter.authOk(reencoded, Handshake.bytes(in, macIndex, Frame.MAC_BYTES));
        }

        @Override
        public void onClose(String reason) {
            reencoded = null; // reason bytes that are not valid UTF-8 do not survive a String round trip
        }

        @Override
        public void onRead(int id, Region region, long offset, int length) {
            require(length >= 0, "negative READ length passed on");
            FrameWriter.read(reencoded, id, region, offset, length);
        }

        @Override
        public void onWrite(int id, boolean signalled, Region region, long offset, ByteBuf in, int index, int length) {
            FrameWriter.writeHeader(reencoded, id, signalled, region, offset, length);
            reencoded.writeBytes(in, index, length);
        }

        @Override
        public void onCas(int id, Region region, long offset, long expected, long desired) {
            FrameWriter.cas(reencoded, id, region, offset, expected, desired);
        }

        @Override
        public boolean onMessage(ByteBuf in, int index, int length) {
            if (refuseNextMessage) {
                refuseNextMessage = false;
                return false;
            }
            refuseNextMessage = true;
            reencoded.writeInt(Frame.TYPE_BYTES + length).writeByte(Frame.MESSAGE).writeBytes(in, index, length);
            return true;
        }

        @Override
        public void onReadOk(int id, ByteBuf in, int index, int length) {
            FrameWriter.readOkHeader(reencoded, id, length);
            reencoded.writeBytes(in, index, length);
        }

        @Override
        public void onWriteOk(int id) {
            FrameWriter.writeOk(reencoded, id);
        }

        @Override
        public void onCasOk(int id, long witnessed) {
            FrameWriter.casOk(reencoded, id, witnessed);
        }

        @Override
        public void onError(int id, boolean retryable, String reason) {
            reencoded = null;
        }
    }
}
