package io.pragh.bench.extension;

import io.pragh.bench.shard.ShardPage;
import io.pragh.bench.shard.ShardRecords;
import io.pragh.server.rpc.ClientException;
import io.pragh.server.rpc.MachineClient;
import java.util.Arrays;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The bench extension's operations ({@link BenchProtocol}) sent over a {@link MachineClient}'s connection: the
 * machine must run the extension ({@code extensions: [bench]}), else every call fails with a non-retryable
 * {@link ClientException} saying which extensions it runs. Thread-safe as the connection is; closing is the
 * connection's business.
 *
 * <pre>{@code
 * BenchClient bench = new BenchClient(machineClient);
 * bench.addEdgeCapped(1, 0, 2, 100);
 * long n = bench.kHopCount(1, 0, 2, 100, true);
 * }</pre>
 */
public final class BenchClient {
    private final MachineClient machine;

    public BenchClient(MachineClient machine) {
        this.machine = machine;
    }

    public MachineClient machine() {
        return machine;
    }

    /** Appends {@code dst} to the out-adjacency of {@code src} under {@code label}, keeping at most {@code cap}. */
    public void addEdgeCapped(long src, int label, long dst, int cap) {
        UnsafeBuffer u = vertexLabel(BenchProtocol.ADD_EDGE_CAPPED, src, label, 25);
        u.putLong(13, dst);
        u.putInt(21, cap);
        call(u);
    }

    /**
     * How many distinct vertices are exactly {@code hops} out of {@code start}, computed on this machine: one GET at
     * a time (the paper's engine) or, {@code batched}, a hop's GETs as one batch.
     */
    public long kHopCount(long start, int label, int hops, int fanout, boolean batched) {
        UnsafeBuffer u = vertexLabel(BenchProtocol.K_HOP_COUNT, start, label, 22);
        u.putInt(13, hops);
        u.putInt(17, fanout);
        u.putByte(21, (byte) (batched ? 1 : 0));
        UnsafeBuffer b = call(u);
        if (b.capacity() != Long.BYTES) {
            throw malformed("K_HOP_COUNT", b.capacity() + " bytes");
        }
        return b.getLong(0);
    }

    /** Starts (zeroing this machine's per-shard counts) or stops counting the accesses this machine makes by shard. */
    public void trackShards(boolean on) {
        call(new UnsafeBuffer(new byte[] {BenchProtocol.SHARD_TRACK, (byte) (on ? 1 : 0)}));
    }

    /** This machine's access count of each shard since tracking last started. */
    public long[] shardCounts() {
        UnsafeBuffer b = call(new UnsafeBuffer(new byte[] {BenchProtocol.SHARD_COUNTS}));
        int n = b.capacity() >= 4 ? b.getInt(0) : -1;
        if (n < 0 || b.capacity() != 4 + 8L * n) {
            throw malformed("SHARD_COUNTS", b.capacity() + " bytes");
        }
        long[] counts = new long[n];
        for (int s = 0; s < n; s++) {
            counts[s] = b.getLong(4 + 8 * s);
        }
        return counts;
    }

    /**
     * One page of this machine's records of {@code shard} (it must own the shard) from {@code cursor}
     * ({@link ShardPage#START} first, then each page's {@code next} until it is {@link ShardPage#END}), at most
     * {@code maxBytes} of records unless one record alone is larger.
     */
    public ShardPage exportShard(int shard, long cursor, int maxBytes) {
        UnsafeBuffer u = new UnsafeBuffer(new byte[17]);
        u.putByte(0, BenchProtocol.SHARD_EXPORT);
        u.putInt(1, shard);
        u.putLong(5, cursor);
        u.putInt(13, maxBytes);
        UnsafeBuffer b = call(u);
        String problem = b.capacity() < 8 ? "no cursor" : ShardRecords.check(b, 8, b.capacity() - 8, Integer.MAX_VALUE);
        if (problem != null) {
            throw malformed("SHARD_EXPORT", problem);
        }
        return new ShardPage(b.getLong(0), Arrays.copyOfRange(b.byteArray(), 8, b.capacity()));
    }

    /** Loads a page exported from another machine as records local to this one (all of them, or none). */
    public void importShard(ShardPage page) {
        byte[] req = new byte[1 + page.body().length];
        req[0] = BenchProtocol.SHARD_IMPORT;
        System.arraycopy(page.body(), 0, req, 1, page.body().length);
        call(new UnsafeBuffer(req));
    }

    /** Sets this machine's owner of {@code shard} and drops its cached addresses of the shard's keys. */
    public void assignShard(int shard, int owner) {
        assignShards(new int[] {shard}, new int[] {owner});
    }

    /** {@link #assignShard} for many shards in one request and one walk of the machine's cache. */
    public void assignShards(int[] shards, int[] owners) {
        if (shards.length != owners.length || shards.length == 0) {
            throw new IllegalArgumentException(shards.length + " shards and " + owners.length + " owners (need as"
                + " many of each, at least one)");
        }
        UnsafeBuffer u = new UnsafeBuffer(new byte[1 + 8 * shards.length]);
        u.putByte(0, BenchProtocol.SHARD_ASSIGN);
        for (int i = 0; i < shards.length; i++) {
            u.putInt(1 + 8 * i, shards[i]);
            u.putInt(5 + 8 * i, owners[i]);
        }
        call(u);
    }

    /** Removes this machine's keys of a shard it no longer owns; returns how many. */
    public long unloadShard(int shard) {
        UnsafeBuffer u = new UnsafeBuffer(new byte[5]);
        u.putByte(0, BenchProtocol.SHARD_UNLOAD);
        u.putInt(1, shard);
        UnsafeBuffer b = call(u);
        if (b.capacity() != 8) {
            throw malformed("SHARD_UNLOAD", b.capacity() + " bytes");
        }
        return b.getLong(0);
    }

    /** A request of {@code bytes} that starts with a vertex and a label; the caller fills bytes 13 on. */
    private static UnsafeBuffer vertexLabel(byte op, long vid, int label, int bytes) {
        UnsafeBuffer u = new UnsafeBuffer(new byte[bytes]);
        u.putByte(0, op);
        u.putLong(1, vid);
        u.putInt(9, label);
        return u;
    }

    private UnsafeBuffer call(UnsafeBuffer request) {
        return machine.extension(BenchProtocol.name(request.getByte(0)), request.byteArray());
    }

    private ClientException malformed(String op, String what) {
        return new ClientException("malformed " + op + " answer from " + machine.address() + ": " + what, false);
    }
}
