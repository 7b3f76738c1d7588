package io.pragh.fabric.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.pragh.fabric.Region;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Valid frames of every type with random field values, and random damage to them, for decoder tests. */
final class FrameSamples {
    private FrameSamples() {
    }

    private static byte[] bytes(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    private static Region region(Random r) {
        return Region.of(r.nextInt(Region.values().length));
    }

    /** One valid frame of each of the twelve types. */
    static List<byte[]> oneOfEachType(Random r) {
        List<ByteBuf> frames = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            frames.add(Unpooled.buffer());
        }
        FrameWriter.hello(frames.get(0), r.nextInt(128), bytes(r, Frame.NONCE_BYTES));
        FrameWriter.auth(frames.get(1), r.nextInt(128), r.nextInt(128), bytes(r, Frame.NONCE_BYTES),
            bytes(r, Frame.MAC_BYTES));
        FrameWriter.authOk(frames.get(2), bytes(r, Frame.MAC_BYTES));
        FrameWriter.close(frames.get(3), FrameWriter.reasonBytes("closing: " + r.nextInt()));
        FrameWriter.read(frames.get(4), r.nextInt(), region(r), r.nextLong(), r.nextInt(1 << 20));
        int len = r.nextInt(64);
        FrameWriter.writeHeader(frames.get(5), r.nextInt(), r.nextBoolean(), region(r), r.nextLong(), len);
        frames.get(5).writeBytes(bytes(r, len));
        FrameWriter.cas(frames.get(6), r.nextInt(), region(r), r.nextLong(), r.nextLong(), r.nextLong());
        len = r.nextInt(64);
        frames.get(7).writeInt(1 + len).writeByte(Frame.MESSAGE).writeBytes(bytes(r, len));
        len = r.nextInt(64);
        FrameWriter.readOkHeader(frames.get(8), r.nextInt(), len);
        frames.get(8).writeBytes(bytes(r, len));
        FrameWriter.writeOk(frames.get(9), r.nextInt());
        FrameWriter.casOk(frames.get(10), r.nextInt(), r.nextLong());
        FrameWriter.error(frames.get(11), r.nextInt(), r.nextBoolean(), FrameWriter.reasonBytes("no: " + r.nextInt()));
        List<byte[]> out = new ArrayList<>();
        for (ByteBuf f : frames) {
            byte[] b = new byte[f.readableBytes()];
            f.readBytes(b);
            out.add(b);
        }
        return out;
    }

    /** A few valid frames, concatenated, then damaged in one of several ways (or not at all). */
    static byte[] damagedStream(Random r) {
        List<byte[]> kinds = oneOfEachType(r);
        ByteBuf buf = Unpooled.buffer();
        int n = 1 + r.nextInt(4);
        for (int i = 0; i < n; i++) {
            buf.writeBytes(kinds.get(r.nextInt(kinds.size())));
        }
        byte[] b = new byte[buf.readableBytes()];
        buf.readBytes(b);
        switch (r.nextInt(6)) {
            case 0 -> b[r.nextInt(b.length)] ^= (byte) (1 << r.nextInt(8));
            case 1 -> b = java.util.Arrays.copyOf(b, r.nextInt(b.length));
            case 2 -> {
                int at = r.nextInt(Math.max(1, b.length - 4));
                int delta = r.nextInt(9) - 4;
                int len = ((b[at] & 0xff) << 24 | (b[at + 1] & 0xff) << 16 | (b[at + 2] & 0xff) << 8
                    | (b[at + 3] & 0xff)) + delta;
                b[at] = (byte) (len >>> 24);
                b[at + 1] = (byte) (len >>> 16);
                b[at + 2] = (byte) (len >>> 8);
                b[at + 3] = (byte) len;
            }
            case 3 -> b[4] = (byte) r.nextInt(); // type byte of the first frame
            case 4 -> b = bytes(r, r.nextInt(64));
            default -> {
                // intact
            }
        }
        return b;
    }
}
