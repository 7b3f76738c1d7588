package io.pragh.bench.extension;

import io.pragh.graph.KHopTraversal;
import io.pragh.keys.KeyLayout;
import io.pragh.server.extension.ClientOperations;
import io.pragh.server.extension.ServerExtension;
import java.util.concurrent.CompletableFuture;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One server machine's side of the bench extension's operations ({@link BenchProtocol}): capped edge inserts through
 * the client protocol's update path, counting traversals on the machine's workers, and the shard baseline's steps
 * ({@link ShardOperations}).
 *
 * <pre>{@code
 * ClientOperations ops = new BenchOperations(host);
 * CompletableFuture<byte[]> body = ops.serve(request, length);
 * }</pre>
 */
final class BenchOperations implements ClientOperations {
    private static final byte[] EMPTY = new byte[0];

    private final ServerExtension.Host host;
    private final int maxValueBytes;
    /**
     * One traversal per worker thread and reading mode for K_HOP_COUNT: its frontier sets are reused, so a
     * traversal request allocates only its answer. Each binds the session of the worker that first runs it.
     */
    private final ThreadLocal<KHopTraversal> oneAtATime;
    private final ThreadLocal<KHopTraversal> batched;
    private final ShardOperations shards;

    BenchOperations(ServerExtension.Host host) {
        this.host = host;
        this.maxValueBytes = host.machine().store().config().maxValueBytes();
        this.oneAtATime = ThreadLocal.withInitial(() -> new KHopTraversal(host.machine().session(), false));
        this.batched = ThreadLocal.withInitial(() -> new KHopTraversal(host.machine().session(), true));
        this.shards = new ShardOperations(host.machine());
    }

    @Override
    public CompletableFuture<byte[]> serve(DirectBuffer b, int length) {
        String problem = BenchProtocol.check(b, length, maxValueBytes);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return switch (b.getByte(0)) {
            case BenchProtocol.ADD_EDGE_CAPPED -> host.update(KeyLayout.key(b.getLong(1), b.getInt(9), KeyLayout.OUT),
                CappedAppend.ID, CappedAppend.argument(b.getLong(13), b.getInt(21))).thenApply(v -> EMPTY);
            case BenchProtocol.K_HOP_COUNT -> kHopCount(b.getLong(1), b.getInt(9), b.getInt(13), b.getInt(17),
                b.getByte(21) == 1);
            case BenchProtocol.SHARD_TRACK -> CompletableFuture.completedFuture(shards.track(b.getByte(1) == 1));
            case BenchProtocol.SHARD_COUNTS -> CompletableFuture.completedFuture(shards.counts());
            case BenchProtocol.SHARD_EXPORT -> shards.export(b.getInt(1), b.getLong(5), b.getInt(13));
            case BenchProtocol.SHARD_IMPORT -> shards.importRecords(b, 1, length - 1);
            case BenchProtocol.SHARD_ASSIGN -> shards.assign(b, 1, length);
            case BenchProtocol.SHARD_UNLOAD -> shards.unload(b.getInt(1));
            default -> throw new IllegalArgumentException(BenchProtocol.name(b.getByte(0)) + " is not an operation of"
                + " the bench extension");
        };
    }

    /** The size of a k-hop set, computed by this worker's own traversal (no traversal allocated per request). */
    private CompletableFuture<byte[]> kHopCount(long start, int label, int hops, int fanout, boolean inBatches) {
        return host.machine().submit(() -> {
            KHopTraversal t = (inBatches ? batched : oneAtATime).get();
            byte[] body = new byte[Long.BYTES];
            new UnsafeBuffer(body).putLong(0, t.run(start, label, hops, fanout).size());
            return body;
        });
    }
}
