package io.pragh.bench.traversal.deploy;

import io.pragh.bench.extension.BenchClient;
import io.pragh.keys.KeyLayout;
import io.pragh.server.rpc.MachineClient;
import java.util.function.IntFunction;
import java.util.function.LongToIntFunction;

/**
 * A query thread's way into a cluster of server processes: one client connection per machine, opened on first use;
 * every call goes to the key's home over the client RPC, where the bench extension runs it.
 *
 * <pre>{@code
 * QueryPath path = new RpcQueryPath(machines, cluster::home, cluster::client);
 * long reached = path.kHop(start, label, 2, 100, false);
 * }</pre>
 */
final class RpcQueryPath implements QueryPath {
    private final BenchClient[] clients;
    private final LongToIntFunction homes;
    private final IntFunction<MachineClient> connect;

    RpcQueryPath(int machines, LongToIntFunction homes, IntFunction<MachineClient> connect) {
        this.clients = new BenchClient[machines];
        this.homes = homes;
        this.connect = connect;
    }

    private BenchClient at(long key) {
        int home = homes.applyAsInt(key);
        if (clients[home] == null) {
            clients[home] = new BenchClient(connect.apply(home));
        }
        return clients[home];
    }

    @Override
    public long kHop(long start, int label, int hops, int fanout, boolean batched) {
        return at(KeyLayout.key(start, label, KeyLayout.OUT)).kHopCount(start, label, hops, fanout, batched);
    }

    @Override
    public void insertEdge(long src, int label, long dst, int cap) {
        at(KeyLayout.key(src, label, KeyLayout.OUT)).addEdgeCapped(src, label, dst, cap);
    }

    @Override
    public void put(long key, byte[] value) {
        at(key).machine().put(key, value);
    }

    @Override
    public void close() {
        for (BenchClient c : clients) {
            if (c != null) {
                c.machine().close();
            }
        }
    }
}
