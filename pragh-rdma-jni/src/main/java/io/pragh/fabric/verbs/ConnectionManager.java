package io.pragh.fabric.verbs;

import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.RdmaCm;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaConnParam;
import com.ibm.disni.verbs.RdmaEventChannel;
import io.pragh.fabric.FabricException;
import io.pragh.fabric.verbs.Transport.Acceptor;
import io.pragh.fabric.verbs.Transport.Connection;
import io.pragh.fabric.verbs.Transport.QueuePairSpec;
import io.pragh.rdma.jni.NativeBuffer;
import io.pragh.rdma.jni.PraghVerbs;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connection side of a {@link NativeTransport}: rdma_cm ids, connection setup (address and route resolution,
 * request, accept, establishment) and teardown, all on one thread that also receives the rdma_cm events, since
 * DiSNI's id bookkeeping is not thread-safe. Queue pairs come from the transport, which owns the device's protection
 * domain and completion queues.
 *
 * <pre>{@code
 * ConnectionManager cm = new ConnectionManager(transport, address, config, channel, listener);
 * cm.listen(acceptor);
 * Connection c = cm.connect(peer, header, spec, qp -> { }).join();
 * }</pre>
 */
final class ConnectionManager implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionManager.class);
    private static final int BACKLOG = 128;
    private static final int EVENT_WAIT_MS = 10;
    private static final byte RETRIES = 7; // 7 = retry forever for RNR; the maximum for transport retries

    /** A connection: its rdma_cm id, queue pair, and the header its initiator sent. */
    static final class NativeConnection implements Connection {
        final RdmaCmId id;
        final IbvQP qp;
        final long qpHandle;
        final byte[] header;
        boolean gone;

        NativeConnection(RdmaCmId id, IbvQP qp, byte[] header) {
            this.id = id;
            this.qp = qp;
            this.qpHandle = NativeTransport.objectId(qp);
            this.header = header.clone();
        }

        @Override
        public long qp() {
            return qpHandle;
        }

        @Override
        public byte[] header() {
            return header.clone();
        }
    }

    /** An outgoing connection being set up. */
    private record Outgoing(InetSocketAddress peer, byte[] header, QueuePairSpec spec, Consumer<Connection> onQueuePair,
                            CompletableFuture<Connection> future, NativeBuffer privateData,
                            NativeConnection[] created) {
    }

    private final NativeTransport transport;
    private final InetSocketAddress address;
    private final VerbsConfig config;
    private final RdmaEventChannel channel;
    private final RdmaCmId listener;
    private final Map<RdmaCmId, Outgoing> connecting = new ConcurrentHashMap<>();
    private final Map<RdmaCmId, NativeConnection> connections = new ConcurrentHashMap<>();
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final Thread cmThread;
    private volatile Acceptor acceptor;
    private volatile boolean running = true;

    /** Starts the thread; {@code listener} is the transport's id bound to its address, on {@code channel}. */
    ConnectionManager(NativeTransport transport, InetSocketAddress address, VerbsConfig config,
                      RdmaEventChannel channel, RdmaCmId listener) {
        this.transport = transport;
        this.address = address;
        this.config = config;
        this.channel = channel;
        this.listener = listener;
        this.cmThread = new Thread(this::run, "pragh-verbs-cm-" + address);
        cmThread.setDaemon(true);
        cmThread.start();
    }

    /** Starts accepting connection requests; each is offered to {@code newAcceptor}. */
    void listen(Acceptor newAcceptor) {
        this.acceptor = newAcceptor;
        onCmThread(() -> {
            try {
                listener.listen(BACKLOG);
            } catch (IOException e) {
                throw new FabricException("listening on " + address + " failed: " + e.getMessage(), false, e);
            }
        }).join();
    }

    /** Connects to {@code peer}, sending {@code header}; see {@link Transport#connect}. */
    CompletableFuture<Connection> connect(InetSocketAddress peer, byte[] header, QueuePairSpec spec,
                                         Consumer<Connection> onQueuePair) {
        CompletableFuture<Connection> future = new CompletableFuture<>();
        onCmThread(() -> {
            NativeBuffer privateData = NativeBuffer.allocate(header.length);
            privateData.view().putBytes(0, header);
            RdmaCmId id = null;
            try {
                id = channel.createId(RdmaCm.RDMA_PS_TCP);
                connecting.put(id, new Outgoing(peer, header, spec, onQueuePair, future, privateData,
                    new NativeConnection[1]));
                id.resolveAddr(null, peer, (int) config.connectTimeout().toMillis());
            } catch (IOException | RuntimeException e) {
                if (id != null) {
                    connecting.remove(id);
                    destroyId(id);
                }
                privateData.close();
                future.completeExceptionally(new FabricException("connecting to " + peer + " failed: "
                    + e.getMessage(), true, e));
            }
        });
        return future;
    }

    void disconnect(Connection connection) {
        onCmThread(() -> teardown((NativeConnection) connection));
    }

    /** Tears every connection down and fails every connection still being set up; returns when done. */
    void disconnectAll() {
        onCmThread(() -> {
            connections.values().forEach(this::teardown);
            connecting.keySet().forEach(id -> failOutgoing(id, "the transport is closing"));
        }).join();
    }

    /** Runs a task on the CM thread (inline when already there); DiSNI's id bookkeeping is not thread-safe. */
    private CompletableFuture<Void> onCmThread(Runnable task) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Runnable wrapped = () -> {
            try {
                task.run();
                done.complete(null);
            } catch (RuntimeException e) {
                done.completeExceptionally(e);
            }
        };
        if (Thread.currentThread() == cmThread) {
            wrapped.run();
        } else if (!running) {
            done.completeExceptionally(new FabricException("the transport of " + address + " is closed", false));
        } else {
            tasks.add(wrapped);
        }
        return done;
    }

    private void run() {
        while (running) {
            try {
                RdmaCmEvent event = channel.getCmEvent(EVENT_WAIT_MS);
                if (event != null) {
                    int status = PraghVerbs.lastCmEventStatus();
                    event.ackEvent();
                    handle(event, status);
                }
            } catch (IOException | RuntimeException e) {
                if (running) {
                    LOG.warn("rdma_cm event handling on " + address + " failed", e);
                }
            }
            for (Runnable task = tasks.poll(); task != null; task = tasks.poll()) {
                task.run();
            }
        }
        for (Runnable task = tasks.poll(); task != null; task = tasks.poll()) {
            task.run(); // so nobody waits forever on a task queued during shutdown
        }
    }

    private void handle(RdmaCmEvent event, int status) throws IOException {
        RdmaCmEvent.EventType type = RdmaCmEvent.EventType.values()[event.getEvent()];
        RdmaCmId id = event.getConnIdPriv();
        switch (type) {
            case RDMA_CM_EVENT_ADDR_RESOLVED -> id.resolveRoute((int) config.connectTimeout().toMillis());
            case RDMA_CM_EVENT_ROUTE_RESOLVED -> routeResolved(id);
            case RDMA_CM_EVENT_CONNECT_REQUEST -> connectRequest(id);
            case RDMA_CM_EVENT_ESTABLISHED -> established(id);
            case RDMA_CM_EVENT_ADDR_ERROR, RDMA_CM_EVENT_ROUTE_ERROR, RDMA_CM_EVENT_CONNECT_ERROR,
                 RDMA_CM_EVENT_UNREACHABLE, RDMA_CM_EVENT_REJECTED ->
                failOutgoing(id, type.name().toLowerCase(Locale.ROOT) + " (status " + status + ")");
            case RDMA_CM_EVENT_DISCONNECTED, RDMA_CM_EVENT_DEVICE_REMOVAL -> {
                NativeConnection c = connections.get(id);
                if (c != null) {
                    teardown(c);
                } else {
                    failOutgoing(id, type.name().toLowerCase(Locale.ROOT));
                }
            }
            default -> {
                // TIMEWAIT_EXIT, ADDR_CHANGE, multicast: nothing to do for reliable connections
            }
        }
    }

    private RdmaConnParam connParam() throws IOException {
        RdmaConnParam p = new RdmaConnParam();
        p.setRetry_count(RETRIES);
        p.setRnr_retry_count(RETRIES);
        return p;
    }

    private void routeResolved(RdmaCmId id) {
        Outgoing o = connecting.get(id);
        if (o == null) {
            return;
        }
        try {
            NativeConnection c = new NativeConnection(id, transport.createQp(id, o.spec()), o.header());
            o.created()[0] = c;
            o.onQueuePair().accept(c);
            RdmaConnParam p = connParam();
            p.setPrivate_data(o.privateData().address());
            p.setPrivate_data_len((byte) o.header().length);
            id.connect(p);
        } catch (IOException | RuntimeException e) {
            failOutgoing(id, e.getMessage());
        }
    }

    private void connectRequest(RdmaCmId id) {
        Acceptor a = acceptor;
        NativeConnection c = null;
        try {
            byte[] header = PraghVerbs.connectRequestData(NativeTransport.objectId(id));
            QueuePairSpec spec = a == null ? null : a.onRequest(header);
            if (spec == null) {
                destroyId(id); // destroying a requested id rejects the request
                return;
            }
            c = new NativeConnection(id, transport.createQp(id, spec), header);
            connections.put(id, c);
            a.onQueuePair(c);
            id.accept(connParam());
        } catch (IOException | RuntimeException e) {
            LOG.warn("refused a connection request on {}: {}", address, e.getMessage());
            if (c != null) {
                teardown(c);
            } else {
                destroyId(id);
            }
        }
    }

    private void established(RdmaCmId id) {
        Outgoing o = connecting.remove(id);
        if (o != null) {
            o.privateData().close();
            NativeConnection c = o.created()[0];
            connections.put(id, c);
            if (!o.future().complete(c)) { // the caller gave up waiting
                teardown(c);
            }
            return;
        }
        NativeConnection c = connections.get(id);
        Acceptor a = acceptor;
        if (c != null && a != null) {
            a.onEstablished(c);
        }
    }

    private void failOutgoing(RdmaCmId id, String why) {
        Outgoing o = connecting.remove(id);
        if (o == null) {
            return;
        }
        o.privateData().close();
        NativeConnection created = o.created()[0];
        if (created != null) {
            teardown(created);
        } else {
            destroyId(id);
        }
        o.future().completeExceptionally(new FabricException("connecting to " + o.peer() + " failed: " + why, true));
    }

    private void teardown(NativeConnection c) {
        if (c.gone) {
            return;
        }
        c.gone = true;
        connections.remove(c.id);
        Acceptor a = acceptor;
        if (a != null) {
            a.onDisconnected(c);
        }
        try {
            c.id.disconnect();
        } catch (IOException | RuntimeException ignored) {
            // the peer may have gone first; the QP and id are destroyed either way
        }
        try {
            c.id.destroyQP();
        } catch (IOException | RuntimeException e) {
            LOG.debug("destroying a queue pair: {}", e.getMessage());
        }
        destroyId(c.id);
    }

    private static void destroyId(RdmaCmId id) {
        try {
            id.destroyId();
        } catch (IOException | RuntimeException e) {
            LOG.debug("destroying an rdma_cm id: {}", e.getMessage());
        }
    }

    /** Disconnects everything, then stops the thread (waiting up to 5 s for it). */
    @Override
    public void close() {
        if (!running) {
            return;
        }
        disconnectAll();
        running = false;
        try {
            cmThread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
