package io.pragh.fabric.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;

/** A hand-driven connection to a fabric port: sends whatever bytes a test wants and reads raw frames back. */
final class RawPeer implements AutoCloseable {
    /** One frame as received: its type and body. */
    record RawFrame(byte type, byte[] body) {
        ByteBuf buf() {
            return Unpooled.wrappedBuffer(body);
        }

        /** The reason text of a CLOSE frame. */
        String closeReason() {
            if (type != Frame.CLOSE) {
                throw new AssertionError("expected a CLOSE frame, got " + Frame.typeName(type));
            }
            int len = ((body[0] & 0xff) << 8) | (body[1] & 0xff);
            return new String(body, 2, len, StandardCharsets.UTF_8);
        }
    }

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    RawPeer(InetSocketAddress address) throws IOException {
        socket = new Socket();
        socket.connect(address, 5_000);
        socket.setSoTimeout(10_000);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    void send(ByteBuf frame) throws IOException {
        byte[] b = new byte[frame.readableBytes()];
        frame.readBytes(b);
        frame.release();
        send(b);
    }

    RawFrame readFrame() throws IOException {
        int length = in.readInt();
        byte type = in.readByte();
        byte[] body = new byte[length - 1];
        in.readFully(body);
        return new RawFrame(type, body);
    }

    /** Reads frames until the server closes the connection; returns the reason of its CLOSE frame, if any. */
    String readUntilClosed() throws IOException {
        String reason = null;
        while (true) {
            RawFrame f;
            try {
                f = readFrame();
            } catch (EOFException | SocketException closed) {
                return reason;
            }
            if (f.type() == Frame.CLOSE) {
                reason = f.closeReason();
            }
        }
    }

    /** Reads HELLO and answers with a proof under {@code secret}, claiming to be machine {@code self}. */
    RawFrame authenticate(ClusterSecret secret, int self) throws IOException {
        RawFrame hello = readFrame();
        if (hello.type() != Frame.HELLO) {
            throw new AssertionError("expected HELLO, got " + Frame.typeName(hello.type()));
        }
        ByteBuf h = hello.buf();
        int server = h.getUnsignedShort(6);
        byte[] serverNonce = Handshake.bytes(h, 8, Frame.NONCE_BYTES);
        byte[] clientNonce = Handshake.nonce();
        ByteBuf auth = Unpooled.buffer();
        FrameWriter.auth(auth, self, server, clientNonce,
            Handshake.FABRIC.clientProof(secret, serverNonce, clientNonce, self, server));
        send(auth);
        return readFrame();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
