package io.pragh.server.rpc;

import io.pragh.fabric.tcp.ClusterSecret;
import io.pragh.fabric.tcp.ClusterTls;
import io.pragh.migration.Migrator;
import java.net.InetSocketAddress;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A blocking client of one machine's client port: the protocol's operations as methods, and an extension's
 * operations as requests it builds ({@link #extension}). The connection below ({@code MachineConnection}) is
 * thread-safe (one request at a time) and reconnects on the next request after a broken connection; every call is
 * bounded: connecting by the timeout, each answer by the timeout. Each connection first proves the cluster secret to
 * the machine and checks the machine's proof in return (inside mutual TLS when {@code tls} is given); a refusal is a
 * non-retryable {@link ClientException}.
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
    private final MachineConnection connection;

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
        this.connection = new MachineConnection(address, machine < 0 ? hostPort : "machine " + machine + " ("
            + hostPort + ")", timeoutMillis, secret, tls);
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
    public void putAll(long[] keys, byte[][] values, int from, int count, int window) {
        connection.pipeline("PUT", i -> putRequest(keys[from + i], values[from + i]), count, window);
    }

    /**
     * The values of {@code keys[0..count)} (null where a key has none), the GETs pipelined as {@link #putAll}'s PUTs,
     * at most {@code window} unanswered at a time.
     */
    public byte[][] getAll(long[] keys, int count, int window) {
        byte[][] values = new byte[count][];
        connection.pipeline("GET", i -> keyed(ClientProtocol.GET, keys[i]), count, window,
            (i, body) -> values[i] = body);
        return values;
    }

    /**
     * Runs {@code count} updates (a key, a {@code io.pragh.store.Mutators} id and its argument each; APPEND for a
     * bulk load) on the machine, which forwards each to its value's host: UPDATES frames of at most
     * {@code frameBytes} (an update larger than that goes alone), pipelined {@code window} frames at a time. Returns
     * once all are acknowledged, or throws the first refusal once every frame is answered.
     *
     * <pre>{@code
     * client.updateAll(keys, mutators, arguments, n, 256 << 10, 4);
     * }</pre>
     */
    public void updateAll(long[] keys, int[] mutators, byte[][] arguments, int count, int frameBytes, int window) {
        java.util.List<int[]> frames = new java.util.ArrayList<>();
        for (int from = 0; from < count; ) {
            int n = 1;
            long bytes = UpdatesFrame.length(arguments, from, 1);
            while (from + n < count && n < UpdatesFrame.MAX_UPDATES
                && bytes + UpdatesFrame.ENTRY_HEADER + arguments[from + n].length <= frameBytes) {
                bytes += UpdatesFrame.ENTRY_HEADER + arguments[from + n].length;
                n++;
            }
            frames.add(new int[] {from, n});
            from += n;
        }
        connection.pipeline("UPDATES", f -> UpdatesFrame.encode(keys, mutators, arguments, frames.get(f)[0],
            frames.get(f)[1]), frames.size(), window);
    }

    /** A pipelined run of {@code count} PUTs for a caller that steps it with the connection's lock held. */
    MachineConnection.Run putRun(java.util.function.IntToLongFunction key, java.util.function.IntFunction<byte[]> value,
                                 int count, int window) {
        return connection.new Run("PUT", i -> putRequest(key.applyAsLong(i), value.apply(i)), count, window);
    }

    MachineConnection connection() {
        return connection;
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

    /**
     * The machine holding the value of each of {@code keys[from .. from + count)} now, or -1 for a key with no value
     * (HOSTS; at most {@link ClientProtocol#MAX_BATCH_KEYS} keys). Any machine answers for any key; the key's home
     * answers from its own key region, others with one bucket read at the home.
     */
    public int[] hosts(long[] keys, int from, int count) {
        UnsafeBuffer u = new UnsafeBuffer(new byte[5 + 8 * count]);
        u.putByte(0, ClientProtocol.HOSTS);
        u.putInt(1, count);
        for (int i = 0; i < count; i++) {
            u.putLong(5 + 8 * i, keys[from + i]);
        }
        UnsafeBuffer b = sized(call(u.byteArray(), false), 4 * count, "HOSTS");
        int[] out = new int[count];
        for (int i = 0; i < count; i++) {
            out[i] = b.getInt(4 * i);
        }
        return out;
    }

    /**
     * Hands moves of {@code keys[i]} to machine {@code targets[i]} ({@code i} in {@code from .. from + count)) to
     * this machine, which must be the coordinator (PLACE; at most {@link ClientProtocol#MAX_BATCH_KEYS}): each is
     * recorded as an approval and its target told to MIGRATE it; returns how many were sent. The MIGRATEs are not
     * awaited: {@link #hosts} tells when the values arrived.
     */
    public int place(long[] keys, int[] targets, int from, int count) {
        UnsafeBuffer u = new UnsafeBuffer(new byte[5 + 12 * count]);
        u.putByte(0, ClientProtocol.PLACE);
        u.putInt(1, count);
        for (int i = 0; i < count; i++) {
            u.putLong(5 + 12 * i, keys[from + i]);
            u.putInt(13 + 12 * i, targets[from + i]);
        }
        return sized(call(u.byteArray(), false), 4, "PLACE").getInt(0);
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
        return connection.call(name, request, false, 0);
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
        return connection.call(ClientProtocol.name(request[0]), request, absentOk, waitMillis);
    }

    @Override
    public void close() {
        connection.close();
    }
}
