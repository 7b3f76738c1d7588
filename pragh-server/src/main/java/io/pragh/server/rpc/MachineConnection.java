package io.pragh.server.rpc;

import io.pragh.fabric.tcp.ClusterSecret;
import io.pragh.fabric.tcp.ClusterTls;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntFunction;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The client side of one machine's client port, below any operation: the socket, the cluster-secret handshake of
 * {@link ClientProtocol} (inside mutual TLS when {@code tls} is given), and frames out and answers back, one request
 * at a time or pipelined. Thread-safe (one caller at a time); reconnects on the next request after a broken
 * connection. Every call is bounded: connecting by the timeout, each answer by the timeout. A broken connection is a
 * retryable {@link ClientException}, a refusal a non-retryable one.
 *
 * <pre>{@code
 * MachineConnection c = new MachineConnection(address, "machine 2 (127.0.0.1:7501)", 5_000, secret, null);
 * UnsafeBuffer body = c.call("PING", new byte[] {ClientProtocol.PING}, false, 0);
 * }</pre>
 */
final class MachineConnection implements AutoCloseable {
    private final InetSocketAddress address;
    /** How connection failures name the machine: "machine 2 (127.0.0.1:7401)", or the address alone. */
    private final String name;
    private final int timeoutMillis;
    private final ClusterSecret secret;
    private final ClusterTls tls;
    /** One caller at a time: held for a whole call, pipelined run or close. */
    private final ReentrantLock lock = new ReentrantLock();
    private Socket socket;
    private DataInputStream in;
    private DataOutputStream out;

    MachineConnection(InetSocketAddress address, String name, int timeoutMillis, ClusterSecret secret,
                      ClusterTls tls) {
        this.address = address;
        this.name = name;
        this.timeoutMillis = timeoutMillis;
        this.secret = Objects.requireNonNull(secret, "secret");
        this.tls = tls;
    }

    InetSocketAddress address() {
        return address;
    }

    /**
     * Sends one request and returns the body of an OK answer (null for ABSENT when {@code absentOk}), waiting
     * {@code waitMillis} past the timeout for a request that waits by design; {@code op} names it in errors.
     */
    UnsafeBuffer call(String op, byte[] request, boolean absentOk, long waitMillis) {
        lock.lock();
        try {
            return callLocked(op, request, absentOk, waitMillis);
        } finally {
            lock.unlock();
        }
    }

    private UnsafeBuffer callLocked(String op, byte[] request, boolean absentOk, long waitMillis) {
        byte[] answer;
        try {
            connect();
            send(request);
            out.flush();
            if (waitMillis > 0) {
                socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, timeoutMillis + waitMillis));
            }
            try {
                answer = frame();
            } finally {
                if (waitMillis > 0 && socket != null) {
                    socket.setSoTimeout(timeoutMillis);
                }
            }
        } catch (IOException e) {
            disconnect();
            throw new ClientException(op + " to " + name + " failed: " + reason(e)
                + "; retry once the machine is back", true, e);
        }
        byte status = answer[0];
        switch (status) {
            case ClientProtocol.OK:
                return new UnsafeBuffer(java.util.Arrays.copyOfRange(answer, 1, answer.length));
            case ClientProtocol.ABSENT:
                if (absentOk) {
                    return null;
                }
                throw new ClientException("unexpected ABSENT answer to " + op, false);
            case ClientProtocol.RETRY:
            case ClientProtocol.ERROR:
                throw refusal(op, answer);
            default:
                disconnect();
                throw new ClientException("unknown answer status " + status + " from " + address, false);
        }
    }

    /**
     * Sends {@code count} requests of {@code op} built by {@code request(i)} without waiting for answers, at most
     * {@code window} unanswered at a time, so the round trips overlap. Every answer is read even when some are
     * refused (the connection stays usable); the first refusal is thrown once all are in.
     */
    void pipeline(String op, IntFunction<byte[]> request, int count, int window) {
        lock.lock();
        try {
            Run run = new Run(op, request, count, window);
            while (!run.done()) {
                run.send();
                run.read();
            }
            run.throwIfFailed();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The lock a caller holds while it steps a {@link Run} of this connection itself: taken in machine order by a
     * cluster client that steps one run per machine at once, so two such clients cannot deadlock.
     */
    ReentrantLock lock() {
        return lock;
    }

    /**
     * One pipelined run of requests on this connection, stepped by its caller with the connection's {@link #lock}
     * held: {@link #send} what the window allows, then {@link #read} answers down to half a window, until
     * {@link #done}. {@link #pipeline} steps one run to its end; {@code ClusterClient} steps one run per machine in
     * turn, so that every machine has requests in flight at once rather than one machine after another.
     */
    final class Run {
        private final String op;
        private final IntFunction<byte[]> request;
        private final int count;
        private final int window;
        private int sent;
        private int answered;
        private ClientException failure;
        private boolean broken;

        Run(String op, IntFunction<byte[]> request, int count, int window) {
            if (window < 1) {
                throw new IllegalArgumentException("window must be >= 1, got " + window);
            }
            this.op = op;
            this.request = request;
            this.count = count;
            this.window = window;
        }

        /** Every answer is in, or the connection broke (the rest are then not sent). */
        boolean done() {
            return answered == count || broken;
        }

        /** Sends requests while fewer than a window are unanswered, then flushes. */
        void send() {
            if (done()) {
                return;
            }
            try {
                connect();
                while (sent < count && sent - answered < window) {
                    MachineConnection.this.send(request.apply(sent));
                    sent++;
                }
                out.flush();
            } catch (IOException e) {
                broke(e);
            }
        }

        /**
         * Reads answers until at most half a window is unanswered (all of them once every request is sent), so that
         * sending and reading alternate in large steps.
         */
        void read() {
            try {
                while (!broken && answered < sent && (sent == count || sent - answered > window / 2)) {
                    byte[] answer = frame();
                    if (answer[0] != ClientProtocol.OK && failure == null) {
                        failure = refusal(op, answer);
                    }
                    answered++;
                }
            } catch (IOException e) {
                broke(e);
            }
        }

        /** The first refusal, or the broken connection (retryable): thrown once the run is done. */
        void throwIfFailed() {
            if (failure != null) {
                throw failure;
            }
        }

        private void broke(IOException e) {
            disconnect();
            broken = true;
            failure = new ClientException(op + " to " + name + " failed after " + answered + " of " + count
                + " pipelined " + op + "s were acknowledged: " + reason(e) + "; retry once the machine is back", true,
                e);
        }
    }

    /** The refusal a RETRY or ERROR answer carries; any other status than OK is a protocol fault. */
    private ClientException refusal(String op, byte[] answer) {
        byte status = answer[0];
        if (status == ClientProtocol.RETRY || status == ClientProtocol.ERROR) {
            return new ClientException(op + " on " + address + ": "
                + new String(answer, 1, answer.length - 1, StandardCharsets.UTF_8), status == ClientProtocol.RETRY);
        }
        return new ClientException("unknown answer status " + status + " from " + address, false);
    }

    private void send(byte[] request) throws IOException {
        out.writeInt(request.length);
        out.write(request);
    }

    /** What went wrong with the connection, in words rather than a Java class name. */
    private String reason(IOException e) {
        if (e instanceof EOFException) {
            return "the machine closed the connection";
        }
        if (e instanceof java.net.ConnectException) {
            return "connection refused";
        }
        if (e instanceof java.net.SocketTimeoutException) {
            return "no answer within " + timeoutMillis + " ms";
        }
        return e.getMessage() == null ? "connection failed" : e.getMessage();
    }

    private void connect() throws IOException {
        if (socket != null) {
            return;
        }
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.connect(address, timeoutMillis);
            s.setSoTimeout(timeoutMillis);
            if (tls != null) {
                s = tls.wrap(s, address);
            }
            in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
            out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
            authenticate();
            socket = s;
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /** The handshake of {@link ClientProtocol}: prove the secret, then check the machine's proof. */
    private void authenticate() throws IOException {
        byte[] hello = frame();
        String notHello = ClientProtocol.checkHello(hello);
        if (notHello != null) {
            throw new ClientException(address + " is not a Pragh client port: it sent " + notHello, false);
        }
        int machine = ClientProtocol.helloMachine(hello);
        byte[] auth = ClientProtocol.auth(secret, hello);
        send(auth);
        out.flush();
        byte[] answer;
        try {
            answer = frame();
        } catch (EOFException e) {
            // A refusal comes as an ERROR answer; a close without one is a machine that died, restarted or gave up
            // waiting for this handshake, which a later attempt may pass.
            throw new ClientException("machine " + machine + " at " + address + " closed the connection during the"
                + " handshake", true, e);
        }
        if (answer[0] == ClientProtocol.ERROR) {
            throw new ClientException("machine " + machine + " at " + address + " refused this client: "
                + new String(answer, 1, answer.length - 1, StandardCharsets.UTF_8), false);
        }
        if (!ClientProtocol.serverProved(secret, hello, auth, answer)) {
            throw new ClientException(address + " did not prove it holds the cluster secret", false);
        }
    }

    /** One length-prefixed frame from the machine. */
    private byte[] frame() throws IOException {
        int len = in.readInt();
        if (len < 1 || len > (1 << 30)) {
            throw new IOException("answer of " + len + " bytes");
        }
        byte[] b = new byte[len];
        in.readFully(b);
        return b;
    }

    private void disconnect() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // Already broken; the caller gets the original failure.
            }
            socket = null;
        }
    }

    @Override
    public void close() {
        lock.lock();
        try {
            disconnect();
        } finally {
            lock.unlock();
        }
    }
}
