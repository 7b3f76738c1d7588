package io.pragh.server.rpc;

import io.pragh.fabric.tcp.ClusterSecret;
import io.pragh.fabric.tcp.ClusterTls;
import io.pragh.migration.Migrator;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A blocking connection to one machine's client port. Thread-safe (one request at a time); reconnects on the next
 * request after a broken connection. Every call is bounded: connecting by the timeout, each answer by the timeout.
 * Each connection first proves the cluster secret to the machine and checks the machine's proof in return (inside
 * mutual TLS when {@code tls} is given); a refusal is a non-retryable {@link ClientException}.
 *
 * <pre>{@code
 * try (MachineClient m = new MachineClient(new InetSocketAddress("127.0.0.1", 7500), 5_000, secret, null)) {
 *     m.put(key, bytes);
 *     byte[] v = m.get(key);
 * }
 * }</pre>
 */
public final class MachineClient implements AutoCloseable {
    /** What PING reports. */
    public record Status(int machine, int machineCount, long homeKeys, long restoredValues) {
    }

    private final InetSocketAddress address;
    /** How connection failures name the machine: "machine 2 (127.0.0.1:7401)", or the address alone. */
    private final String name;
    private final int timeoutMillis;
    private final ClusterSecret secret;
    private final ClusterTls tls;
    private Socket socket;
    private DataInputStream in;
    private DataOutputStream out;

    /**
     * @param secret the cluster's secret, proven to the machine before any request
     * @param tls    the cluster's mutual TLS, or null when its ports run without
     */
    public MachineClient(InetSocketAddress address, int timeoutMillis, ClusterSecret secret, ClusterTls tls) {
        this(address, -1, timeoutMillis, secret, tls);
    }

    /** As above, for machine {@code machine} of a cluster: connection failures name it by id and address. */
    public MachineClient(InetSocketAddress address, int machine, int timeoutMillis, ClusterSecret secret,
                         ClusterTls tls) {
        this.address = address;
        String hostPort = address.getHostString() + ":" + address.getPort();
        this.name = machine < 0 ? hostPort : "machine " + machine + " (" + hostPort + ")";
        this.timeoutMillis = timeoutMillis;
        this.secret = Objects.requireNonNull(secret, "secret");
        this.tls = tls;
    }

    public InetSocketAddress address() {
        return address;
    }

    public Status ping() {
        UnsafeBuffer b = call(new byte[] {ClientProtocol.PING}, false);
        if (b.capacity() != 24) {
            throw new ClientException("malformed PING answer of " + b.capacity() + " bytes from " + address, false);
        }
        return new Status(b.getInt(0), b.getInt(4), b.getLong(8), b.getLong(16));
    }

    public void put(long key, byte[] value) {
        call(putRequest(key, value), false);
    }

    private static byte[] putRequest(long key, byte[] value) {
        byte[] req = new byte[9 + value.length];
        UnsafeBuffer u = new UnsafeBuffer(req);
        u.putByte(0, ClientProtocol.PUT);
        u.putLong(1, key);
        u.putBytes(9, value);
        return req;
    }

    /**
     * PUTs {@code keys[from..from+count)} with their {@code values} pipelined: requests are sent without waiting for
     * answers, at most {@code window} unanswered at a time, so the round trips overlap (the machine runs them at
     * once, each key's in the order sent). Returns once all are acknowledged; when some are refused, every answer is
     * still read (the connection stays usable) and the first refusal is thrown.
     *
     * <pre>{@code
     * client.putAll(keys, values, 0, keys.length, 64);
     * }</pre>
     */
    public synchronized void putAll(long[] keys, byte[][] values, int from, int count, int window) {
        if (window < 1) {
            throw new IllegalArgumentException("window must be >= 1, got " + window);
        }
        ClientException refused = null;
        int sent = 0;
        int answered = 0;
        try {
            connect();
            while (answered < count) {
                while (sent < count && sent - answered < window) {
                    byte[] request = putRequest(keys[from + sent], values[from + sent]);
                    out.writeInt(request.length);
                    out.write(request);
                    sent++;
                }
                out.flush();
                // Read half a window before sending more, so that sending and reading alternate in large steps.
                do {
                    ClientException e = failure(frame(), ClientProtocol.PUT);
                    if (e != null && refused == null) {
                        refused = e;
                    }
                    answered++;
                } while (answered < sent && sent - answered > window / 2);
            }
        } catch (IOException e) {
            disconnect();
            throw new ClientException("PUT to " + name + " failed after " + answered + " of " + count
                + " pipelined PUTs were acknowledged: " + reason(e) + "; retry once the machine is back", true, e);
        }
        if (refused != null) {
            throw refused;
        }
    }

    /** The refusal an answer carries, or null for OK. */
    private ClientException failure(byte[] answer, byte op) {
        byte status = answer[0];
        if (status == ClientProtocol.OK) {
            return null;
        }
        if (status == ClientProtocol.RETRY || status == ClientProtocol.ERROR) {
            return new ClientException(ClientProtocol.name(op) + " on " + address + ": "
                + new String(answer, 1, answer.length - 1, StandardCharsets.UTF_8), status == ClientProtocol.RETRY);
        }
        return new ClientException("unknown answer status " + status + " from " + address, false);
    }

    /** The key's value, or null when it has none. */
    public byte[] get(long key) {
        UnsafeBuffer b = call(keyed(ClientProtocol.GET, key), true);
        return b == null ? null : b.byteArray();
    }

    public void delete(long key) {
        call(keyed(ClientProtocol.DELETE, key), false);
    }

    /** Appends {@code dst} to the out-adjacency of {@code src} under {@code label}. */
    public void addEdge(long src, int label, long dst) {
        UnsafeBuffer u = vertexLabel(ClientProtocol.ADD_EDGE, src, label);
        u.putLong(13, dst);
        call(u.byteArray(), false);
    }

    /** Distinct vertices exactly {@code hops} out of {@code start}, ascending, computed on this machine. */
    public long[] kHop(long start, int label, int hops, int fanout) {
        UnsafeBuffer u = vertexLabel(ClientProtocol.K_HOP, start, label);
        u.putInt(13, hops);
        u.putInt(17, fanout);
        UnsafeBuffer b = call(u.byteArray(), false);
        int n = b.getInt(0);
        if (b.capacity() != 4 + 8L * n) {
            throw new ClientException("K_HOP answer of " + b.capacity() + " bytes does not hold " + n + " ids", false);
        }
        long[] vids = new long[n];
        for (int i = 0; i < n; i++) {
            vids[i] = b.getLong(4 + 8 * i);
        }
        return vids;
    }

    /**
     * One page of this machine's home keys of {@code kind} from {@code cursor} ({@link ClientProtocol#SCAN_START}
     * first, then each page's {@code next} until it is {@link ClientProtocol#SCAN_END}).
     */
    public HomeKeyScan.Page scanKeys(int kind, long cursor, int max) {
        UnsafeBuffer u = new UnsafeBuffer(new byte[17]);
        u.putByte(0, ClientProtocol.SCAN_KEYS);
        u.putInt(1, kind);
        u.putLong(5, cursor);
        u.putInt(13, max);
        UnsafeBuffer b = call(u.byteArray(), false);
        int n = b.capacity() >= 12 ? b.getInt(8) : -1;
        if (n < 0 || n > max || b.capacity() != 12 + 8L * n) {
            throw new ClientException("malformed SCAN_KEYS answer of " + b.capacity() + " bytes from " + address, false);
        }
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = b.getLong(12 + 8 * i);
        }
        return new HomeKeyScan.Page(b.getLong(0), keys);
    }

    /** MIGRATEs the key's value to this machine. */
    public Migrator.Outcome migrate(long key) {
        UnsafeBuffer b = call(keyed(ClientProtocol.MIGRATE, key), false);
        int ordinal = b.getByte(0);
        Migrator.Outcome[] all = Migrator.Outcome.values();
        if (b.capacity() != 1 || ordinal < 0 || ordinal >= all.length) {
            throw new ClientException("malformed MIGRATE answer", false);
        }
        return all[ordinal];
    }

    // The machine's figures and the manual phases of the migration policy (ClientProtocol ops 11-14).

    /** The machine's access counts and migration figures since it started. */
    public MachineStats stats() {
        return MachineStats.decode(sized(call(new byte[] {ClientProtocol.STATS}, false), MachineStats.BYTES, "STATS"),
            0);
    }

    /** Starts a fresh monitoring interval on this machine (its policy's trigger must be manual). */
    public void startMonitoring() {
        call(new byte[] {ClientProtocol.MONITOR_START}, false);
    }

    /** Ends this machine's monitoring interval; its periodic report goes to the coordinator. */
    public void endInterval() {
        call(new byte[] {ClientProtocol.END_INTERVAL}, false);
    }

    /**
     * On the coordinator: decides once it holds every live machine's periodic report since its last decision, or
     * after {@code timeoutMillis} with what it holds, and carries the decisions out. Approved MIGRATEs are sent to
     * their targets, not awaited: they are all done once the targets' {@link MachineStats#migrationsRequested} grew by
     * the approvals and each target's {@link MachineStats#migrationsDone} equals its requested count (a target counts
     * a MIGRATE only when the decision reaches it).
     */
    public Decided decide(long timeoutMillis) {
        UnsafeBuffer b = sized(call(keyed(ClientProtocol.DECIDE, timeoutMillis), false, timeoutMillis), Decided.BYTES,
            "DECIDE");
        return new Decided(b.getInt(0), b.getInt(4), b.getInt(8));
    }

    /**
     * One request of a server extension's operation (its code from {@link ClientProtocol#FIRST_EXTENSION_OP} to
     * {@link ClientProtocol#LAST_EXTENSION_OP} first): the body of the OK answer. {@code name} names the operation
     * in errors. A server that does not run the extension answers ERROR, thrown as a non-retryable
     * {@link ClientException} that says which extensions it runs.
     */
    public UnsafeBuffer extension(String name, byte[] request) {
        if (request.length == 0 || !ClientProtocol.isExtension(request[0])) {
            throw new IllegalArgumentException(name + ": an extension's request starts with a code from "
                + ClientProtocol.FIRST_EXTENSION_OP + " to " + ClientProtocol.LAST_EXTENSION_OP);
        }
        return call(name, request, false, 0);
    }

    private UnsafeBuffer sized(UnsafeBuffer answer, int bytes, String op) {
        if (answer.capacity() != bytes) {
            throw new ClientException("malformed " + op + " answer of " + answer.capacity() + " bytes from " + address
                + " (expected " + bytes + ")", false);
        }
        return answer;
    }

    /** A 21-byte request that starts with a vertex and a label (ADD_EDGE, K_HOP); the caller fills bytes 13..20. */
    private static UnsafeBuffer vertexLabel(byte op, long vid, int label) {
        UnsafeBuffer u = new UnsafeBuffer(new byte[21]);
        u.putByte(0, op);
        u.putLong(1, vid);
        u.putInt(9, label);
        return u;
    }

    private static byte[] keyed(byte op, long key) {
        byte[] req = new byte[9];
        UnsafeBuffer u = new UnsafeBuffer(req);
        u.putByte(0, op);
        u.putLong(1, key);
        return req;
    }

    private UnsafeBuffer call(byte[] request, boolean absentOk) {
        return call(request, absentOk, 0);
    }

    private UnsafeBuffer call(byte[] request, boolean absentOk, long waitMillis) {
        return call(ClientProtocol.name(request[0]), request, absentOk, waitMillis);
    }

    /**
     * Sends one request and returns the body of an OK answer (null for ABSENT when {@code absentOk}), waiting
     * {@code waitMillis} past the timeout for a request that waits by design.
     */
    private synchronized UnsafeBuffer call(String op, byte[] request, boolean absentOk, long waitMillis) {
        byte[] answer;
        try {
            connect();
            out.writeInt(request.length);
            out.write(request);
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
                throw new ClientException(op + " on " + address + ": "
                    + new String(answer, 1, answer.length - 1, StandardCharsets.UTF_8), status == ClientProtocol.RETRY);
            default:
                disconnect();
                throw new ClientException("unknown answer status " + status + " from " + address, false);
        }
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
        out.writeInt(auth.length);
        out.write(auth);
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
    public synchronized void close() {
        disconnect();
    }
}
