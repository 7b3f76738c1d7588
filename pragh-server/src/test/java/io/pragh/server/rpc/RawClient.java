package io.pragh.server.rpc;

import io.pragh.fabric.tcp.ClusterSecret;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;

/** A hand-driven connection to a client port: frames or raw bytes as a test wants them, the handshake on request. */
public final class RawClient implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;

    public RawClient(InetSocketAddress address) throws IOException {
        socket = new Socket();
        socket.connect(address, 5_000);
        socket.setSoTimeout(10_000);
        in = new DataInputStream(socket.getInputStream());
        out = new DataOutputStream(socket.getOutputStream());
    }

    public void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Sends one length-prefixed frame. */
    public void send(byte... frame) throws IOException {
        out.writeInt(frame.length);
        out.write(frame);
        out.flush();
    }

    /** One length-prefixed frame from the server. */
    public byte[] read() throws IOException {
        byte[] b = new byte[in.readInt()];
        in.readFully(b);
        return b;
    }

    /** Reads the HELLO and answers it with a proof under {@code secret}; returns the server's answer frame. */
    public byte[] authenticate(ClusterSecret secret) throws IOException {
        byte[] hello = read();
        String notHello = ClientProtocol.checkHello(hello);
        if (notHello != null) {
            throw new AssertionError(notHello);
        }
        send(ClientProtocol.auth(secret, hello));
        return read();
    }

    /** True once the server closed the connection; false if it sent anything more first. */
    public boolean closedByServer() throws IOException {
        try {
            return in.read() < 0;
        } catch (EOFException | SocketException closed) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
