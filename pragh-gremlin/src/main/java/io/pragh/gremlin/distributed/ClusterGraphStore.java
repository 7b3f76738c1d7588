package io.pragh.gremlin.distributed;

import io.pragh.LimitExceededException;
import io.pragh.PraghException;
import io.pragh.embedded.Machine;
import io.pragh.embedded.OffHeapUse;
import io.pragh.fabric.FabricException;
import io.pragh.fabric.tcp.ClusterSecret;
import io.pragh.fabric.tcp.ClusterTls;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.storage.NameDictionary;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.gremlin.structure.StoreDictionaryRecord;
import io.pragh.gremlin.structure.UpdateBatch;
import io.pragh.server.rpc.ClientException;
import io.pragh.server.rpc.ClientProtocol;
import io.pragh.server.rpc.HomeKeyScan;
import io.pragh.server.rpc.MachineClient;
import io.pragh.store.Mutators;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

/**
 * A {@link GraphStore} over one machine of a multi-process cluster: GETs go out from this machine (one-sided reads
 * over the fabric when the value lives elsewhere), updates take the store's check-and-forward path to the value's
 * host, and a scan of stored keys walks this machine's key region and pages through every other machine's home keys
 * with the client RPC's SCAN_KEYS. Work handed to {@link #callOnHome} runs on the calling thread: the routing strategy
 * has already brought a {@code V(id)} traversal to its home machine, so there its GETs are local; a traversal whose
 * start vertices have several homes runs where it was received and reads the others' over the fabric.
 *
 * <p>A degraded cluster answers at once and says so: an operation that fails because a machine it needs is down or
 * unreachable (a fabric failure the fabric calls retryable, an update not acknowledged in time) is reported as a
 * {@link MachineUnavailableException} naming every machine this one cannot reach, which Gremlin Server sends as a
 * retryable status; a scan first checks that every machine answers and otherwise fails naming those that do not,
 * rather than counting a part of the graph.
 *
 * <p>Example: {@code GraphStore store = new ClusterGraphStore(node.machine(), clientAddresses, 5_000, config.secret(), config.tls());}
 */
public final class ClusterGraphStore implements GraphStore {
    /** Keys per SCAN_KEYS page: bounds one answer to 32 KiB. */
    static final int SCAN_PAGE = 4096;

    private final Machine machine;
    private final List<InetSocketAddress> clientAddresses;
    private final MachineClient[] clients;
    private final int timeoutMillis;
    private final ClusterSecret secret;
    private final ClusterTls tls;
    private final NameDictionary names;
    private final PeerReachability peers;
    /** Machines {@code 0..computeMachines-1} home keys; memory nodes (the highest ids) home none and are not scanned. */
    private final int computeMachines;

    /** As below, naming machines in errors by their client address (an embedded test cluster has no other). */
    public ClusterGraphStore(final Machine machine, final List<InetSocketAddress> clientAddresses,
                             final int timeoutMillis, final ClusterSecret secret, final ClusterTls tls) {
        this(machine, clientAddresses, names(clientAddresses), timeoutMillis, secret, tls);
    }

    /**
     * @param clientAddresses every machine's client RPC address by id (null for a machine without one: scans that
     *                        need it fail, naming it)
     * @param fabricAddresses every machine's fabric address as {@code host:port} by id: errors name machines by it
     * @param secret          the cluster secret the client ports ask for
     * @param tls             the cluster's TLS, or null when its ports are plain TCP
     */
    public ClusterGraphStore(final Machine machine, final List<InetSocketAddress> clientAddresses,
                             final List<String> fabricAddresses, final int timeoutMillis, final ClusterSecret secret,
                             final ClusterTls tls) {
        this(machine, clientAddresses, fabricAddresses, clientAddresses.size(), timeoutMillis, secret, tls);
    }

    /**
     * As above, on a cluster whose machines from {@code computeMachines} on are memory nodes ({@code role: memory}):
     * they home no key and have no client port, so a scan of every key asks only the compute machines.
     */
    public ClusterGraphStore(final Machine machine, final List<InetSocketAddress> clientAddresses,
                             final List<String> fabricAddresses, final int computeMachines, final int timeoutMillis,
                             final ClusterSecret secret, final ClusterTls tls) {
        if (computeMachines < 1 || computeMachines > clientAddresses.size()) {
            throw new IllegalArgumentException("computeMachines must be in [1, " + clientAddresses.size() + "] (the"
                + " machines), got " + computeMachines);
        }
        this.computeMachines = computeMachines;
        this.machine = machine;
        this.peers = new PeerReachability(machine.id(), machine.store().endpoint(), fabricAddresses);
        this.secret = secret;
        this.tls = tls;
        this.clientAddresses = new ArrayList<>(clientAddresses);
        this.clients = new MachineClient[clientAddresses.size()];
        this.timeoutMillis = timeoutMillis;
        // Shared, never sole writer: every other machine's process adds names to the record too, so a hop over every
        // edge label must read it to see labels they added.
        this.names = NameDictionary.shared(new StoreDictionaryRecord(this));
    }

    /**
     * The store a front end of a server machine works on: over the machine {@code host} names, its peers' client
     * ports and fabric addresses from the cluster file, the machine's operation timeout, secret and TLS.
     */
    public static ClusterGraphStore of(final io.pragh.server.frontend.FrontEnd.Host host) {
        final List<InetSocketAddress> clients = new ArrayList<>();
        final List<String> fabric = new ArrayList<>();
        int compute = 0;
        for (final io.pragh.server.config.MachineConfig m : host.config().machines()) {
            compute += m.role() == io.pragh.tier.MachineRole.COMPUTE ? 1 : 0;
            // Resolved now where they resolve (a scan connects to them later).
            clients.add(m.clientPort() == io.pragh.server.config.MachineConfig.NO_CLIENT_PORT ? null
                : new InetSocketAddress(m.host(), m.clientPort()));
            fabric.add(m.host() + ":" + m.fabricPort());
        }
        return new ClusterGraphStore(host.machine(), clients, fabric, compute, (int) host.timeoutMillis(),
            host.config().secret(), host.config().tls());
    }

    @Override
    public byte[] get(final long key) {
        return degraded(() -> machine.get(key));
    }

    @Override
    public boolean contains(final long key) {
        return degraded(() -> machine.view(key) != null);
    }

    @Override
    public void getAllViews(final long[] keys, final int count, final IndexedViews visitor) {
        degraded(() -> {
            machine.session().getAll(keys, 0, count, (index, key, value) -> visitor.accept(index, value));
            return null;
        });
    }

    @Override
    public void put(final long key, final byte[] value) {
        degraded(() -> {
            machine.put(key, value);
            return null;
        });
    }

    @Override
    public void append(final long key, final byte[] bytes) {
        degraded(() -> {
            machine.update(key, Mutators.APPEND, bytes);
            return null;
        });
    }

    @Override
    public void update(final long key, final int mutatorId, final byte[] argument) {
        degraded(() -> {
            machine.update(key, mutatorId, argument);
            return null;
        });
    }

    @Override
    public void updateAll(final UpdateBatch batch) {
        degraded(() -> {
            machine.updateAll(batch.keys(), batch.mutators(), batch.arguments(), batch.size());
            return null;
        });
    }

    @Override
    public void delete(final long key) {
        degraded(() -> {
            machine.delete(key);
            return null;
        });
    }

    @Override
    public void forEachKey(final int kind, final LongConsumer action) {
        GraphKeys.checkKind(kind);
        // Every machine first: a scan that cannot visit them all fails before it starts rather than count a part.
        final List<Integer> down = peers.unreachable();
        if (!down.isEmpty()) {
            throw peers.error(down, "a scan of every vertex or edge needs every machine; no partial result is"
                + " returned");
        }
        for (int m = 0; m < computeMachines; m++) {
            long cursor = ClientProtocol.SCAN_START;
            do {
                final HomeKeyScan.Page page = m == machine.id()
                    ? HomeKeyScan.page(machine.store().keys(), kind, cursor, SCAN_PAGE)
                    : scanPage(m, kind, cursor);
                for (final long key : page.keys()) {
                    action.accept(key);
                }
                cursor = page.next();
            } while (cursor != ClientProtocol.SCAN_END);
        }
    }

    /** This machine's home keys of {@code kind}: no other machine is asked. */
    @Override
    public void forEachHomeKey(final int kind, final LongConsumer action) {
        GraphKeys.checkKind(kind);
        long cursor = ClientProtocol.SCAN_START;
        do {
            final HomeKeyScan.Page page = HomeKeyScan.page(machine.store().keys(), kind, cursor, SCAN_PAGE);
            for (final long key : page.keys()) {
                action.accept(key);
            }
            cursor = page.next();
        } while (cursor != ClientProtocol.SCAN_END);
    }

    /** One page of machine {@code m}'s home keys; a machine lost during the scan fails it, named. */
    private HomeKeyScan.Page scanPage(final int m, final int kind, final long cursor) {
        try {
            return client(m).scanKeys(kind, cursor, SCAN_PAGE);
        } catch (ClientException e) {
            if (!e.retryable()) {
                throw e;
            }
            throw peers.error(List.of(m), "its client port " + clientAddresses.get(m).getHostString() + ":"
                + clientAddresses.get(m).getPort() + " did not answer a scan of every vertex or edge; no partial"
                + " result is returned");
        }
    }

    /**
     * Runs a store operation; a failure that a machine being down explains (retryable fabric failures, updates not
     * acknowledged in time) becomes a {@link MachineUnavailableException} naming the machines this one cannot reach
     * now, or, when it reaches them all again, saying what failed and to retry.
     */
    private <T> T degraded(final Supplier<T> operation) {
        try {
            return operation.get();
        } catch (LimitExceededException e) {
            throw e;
        } catch (FabricException e) {
            if (!e.retryable()) {
                throw e;
            }
            throw unavailable(e);
        } catch (PraghException e) {
            throw unavailable(e);
        }
    }

    private MachineUnavailableException unavailable(final PraghException e) {
        final List<Integer> down = peers.unreachable();
        if (down.isEmpty()) {
            return new MachineUnavailableException(e.getMessage() + "; a machine it needed may have been down for a"
                + " moment: retry");
        }
        // A fabric failure names the machine and address itself, which the error already does.
        return peers.error(down, e instanceof FabricException ? "" : e.getMessage());
    }

    private static List<String> names(final List<InetSocketAddress> addresses) {
        final List<String> out = new ArrayList<>();
        for (final InetSocketAddress a : addresses) {
            out.add(a == null ? "no client port" : a.getHostString() + ":" + a.getPort());
        }
        return out;
    }

    private synchronized MachineClient client(final int m) {
        if (clients[m] == null) {
            final InetSocketAddress a = clientAddresses.get(m);
            if (a == null) {
                throw new IllegalStateException("machine " + m + " has no clientPort in the cluster file: a scan of"
                    + " every vertex or edge needs every machine's client port");
            }
            clients[m] = new MachineClient(a, m, timeoutMillis, secret, tls);
        }
        return clients[m];
    }

    @Override
    public <T> T callOnHome(final long key, final Callable<T> work) {
        return callHere(work, "machine " + machine.id());
    }

    /** Runs {@code work} on the calling thread; a checked failure is a PraghException naming {@code where}. */
    static <T> T callHere(final Callable<T> work, final String where) {
        try {
            return work.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new PraghException("work on " + where + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public NameDictionary names() {
        return names;
    }

    /** This process's machine only: the others are other processes. */
    @Override
    public OffHeapUse offHeapUse() {
        return machine.offHeapUse();
    }

    @Override
    public List<io.pragh.store.MachineStore> localMachines() {
        return List.of(machine.store());
    }

    @Override
    public int machines() {
        return machine.store().machineCount();
    }

    /** Closes the scan connections; the machine belongs to its server and stays up. */
    @Override
    public synchronized void close() {
        for (int m = 0; m < clients.length; m++) {
            if (clients[m] != null) {
                clients[m].close();
                clients[m] = null;
            }
        }
    }
}
