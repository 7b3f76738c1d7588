package io.pragh.fabric.verbs;

import com.ibm.disni.verbs.IbvCQ;
import com.ibm.disni.verbs.IbvCompChannel;
import com.ibm.disni.verbs.IbvContext;
import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.IbvQPInitAttr;
import com.ibm.disni.verbs.RdmaCm;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaConnParam;
import com.ibm.disni.verbs.RdmaEventChannel;
import com.ibm.disni.verbs.impl.NatObject;
import io.pragh.fabric.FabricException;
import io.pragh.rdma.jni.NativeBuffer;
import io.pragh.rdma.jni.NativeLibrary;
import io.pragh.rdma.jni.PraghVerbs;
import io.pragh.rdma.jni.VerbsException;
import io.pragh.rdma.jni.WorkRequest;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transport of a real RDMA device. Connection management is DiSNI 2.1's jVerbs API (event channel, rdma_cm ids,
 * protection domain, completion queues, queue pairs), all driven from one thread that also receives the rdma_cm
 * events; registration, posting and polling are Pragh's own entry points ({@link PraghVerbs}), which take the object
 * ids DiSNI holds, since the same native library issues both.
 *
 * <pre>{@code
 * Transport t = new NativeTransport(new InetSocketAddress("10.0.0.1", 7471), config);
 * }</pre>
 */
public final class NativeTransport implements Transport {
    private static final Logger LOG = LoggerFactory.getLogger(NativeTransport.class);
    private static final int BACKLOG = 128;
    private static final int EVENT_WAIT_MS = 10;
    private static final byte RETRIES = 7; // 7 = retry forever for RNR; the maximum for transport retries

    /** A connection: its rdma_cm id, queue pair, and the header its initiator sent. */
    private static final class NativeConnection implements Connection {
        final RdmaCmId id;
        final IbvQP qp;
        final long qpHandle;
        final byte[] header;
        boolean gone;

        NativeConnection(RdmaCmId id, IbvQP qp, byte[] header) {
            this.id = id;
            this.qp = qp;
            this.qpHandle = objectId(qp);
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

    private final InetSocketAddress address;
    private final VerbsConfig config;
    private final RdmaEventChannel channel;
    private final RdmaCmId listener;
    private final IbvContext context;
    private final IbvPd pd;
    private final IbvCompChannel completionChannel;
    private final Map<Long, IbvCQ> queues = new ConcurrentHashMap<>();
    private final Map<RdmaCmId, Outgoing> connecting = new ConcurrentHashMap<>();
    private final Map<RdmaCmId, NativeConnection> connections = new ConcurrentHashMap<>();
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final Thread cmThread;
    private volatile Acceptor acceptor;
    private volatile boolean running = true;

    public NativeTransport(InetSocketAddress address, VerbsConfig config) {
        NativeLibrary.require();
        WorkRequest.checkAgainstNative();
        this.address = address;
        this.config = config;
        RdmaEventChannel ch = null;
        RdmaCmId id = null;
        try {
            ch = RdmaEventChannel.createEventChannel();
            id = ch.createId(RdmaCm.RDMA_PS_TCP);
            id.bindAddr(address);
            IbvContext ctx = id.getVerbs();
            if (ctx == null) {
                throw new FabricException(address + " is not the address of an RDMA device's network interface "
                    + "(rdma_cm bound it to no device)", false);
            }
            this.channel = ch;
            this.listener = id;
            this.context = ctx;
            this.pd = ctx.allocPd();
            this.completionChannel = ctx.createCompChannel();
        } catch (IOException e) {
            destroyQuietly(id, ch);
            throw new FabricException("cannot open the RDMA device for " + address + ": " + e.getMessage(), false, e);
        } catch (RuntimeException e) {
            destroyQuietly(id, ch);
            throw e;
        }
        this.cmThread = new Thread(this::run, "pragh-verbs-cm-" + address);
        cmThread.setDaemon(true);
        cmThread.start();
    }

    private static void destroyQuietly(RdmaCmId id, RdmaEventChannel ch) {
        try {
            if (id != null) {
                id.destroyId();
            }
            if (ch != null) {
                ch.destroyEventChannel();
            }
        } catch (IOException | RuntimeException ignored) {
            // already failing; the first error is the one reported
        }
    }

    static long objectId(Object disniObject) {
        return ((NatObject) disniObject).getObjId();
    }

    @Override
    public String deviceName() {
        return "the RDMA device of " + address.getAddress().getHostAddress();
    }

    @Override
    public int atomicCapability() {
        return PraghVerbs.atomicCapability(objectId(context));
    }

    @Override
    public Registration register(long start, long length, int access) {
        try {
            long mr = PraghVerbs.registerMemory(objectId(pd), start, length, access);
            long keys = PraghVerbs.memoryKeys(mr);
            return new Registration(mr, start, length, (int) keys, (int) (keys >>> 32));
        } catch (VerbsException e) {
            throw new FabricException("registering " + length + " bytes with " + deviceName() + " failed: "
                + e.getMessage(), false, e);
        }
    }

    @Override
    public void deregister(Registration registration) {
        PraghVerbs.deregisterMemory(registration.handle());
    }

    @Override
    public long createCompletionQueue(int entries) {
        try {
            IbvCQ cq = context.createCQ(completionChannel, entries, 0);
            long handle = objectId(cq);
            queues.put(handle, cq);
            return handle;
        } catch (IOException e) {
            throw new FabricException("creating a completion queue of " + entries + " entries failed: "
                + e.getMessage(), false, e);
        }
    }

    @Override
    public void destroyCompletionQueue(long cq) {
        IbvCQ queue = queues.remove(cq);
        if (queue != null) {
            try {
                queue.destroyCQ();
            } catch (IOException e) {
                LOG.warn("destroying a completion queue failed: {}", e.getMessage());
            }
        }
    }

    @Override
    public void listen(Acceptor newAcceptor) {
        this.acceptor = newAcceptor;
        onCmThread(() -> {
            try {
                listener.listen(BACKLOG);
            } catch (IOException e) {
                throw new FabricException("listening on " + address + " failed: " + e.getMessage(), false, e);
            }
        }).join();
    }

    @Override
    public CompletableFuture<Connection> connect(InetSocketAddress peer, byte[] header, QueuePairSpec spec,
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

    @Override
    public void disconnect(Connection connection) {
        onCmThread(() -> teardown((NativeConnection) connection));
    }

    @Override
    public void disconnectAll() {
        onCmThread(() -> {
            connections.values().forEach(this::teardown);
            connecting.keySet().forEach(id -> failOutgoing(id, "the transport is closing"));
        }).join();
    }

    @Override
    public int postSend(NativeBuffer descriptors, int first, int count) {
        return PraghVerbs.postSend(descriptors.handle(), first, count);
    }

    @Override
    public int postRecv(NativeBuffer descriptors, int first, int count) {
        return PraghVerbs.postRecv(descriptors.handle(), first, count);
    }

    @Override
    public int lastPostErrno() {
        return PraghVerbs.lastPostErrno();
    }

    @Override
    public String errnoText(int errno) {
        return PraghVerbs.errnoText(errno) + " (errno " + errno + ")";
    }

    @Override
    public int poll(long cq, NativeBuffer completions, int max) {
        return PraghVerbs.pollCompletions(cq, completions.handle(), max);
    }

    @Override
    public String completionStatusText(int status) {
        return PraghVerbs.completionStatusText(status) + " (status " + status + ")";
    }

    // ---- the connection-management thread ----

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
                failOutgoing(id, type.name().toLowerCase(java.util.Locale.ROOT) + " (status " + status + ")");
            case RDMA_CM_EVENT_DISCONNECTED, RDMA_CM_EVENT_DEVICE_REMOVAL -> {
                NativeConnection c = connections.get(id);
                if (c != null) {
                    teardown(c);
                } else {
                    failOutgoing(id, type.name().toLowerCase(java.util.Locale.ROOT));
                }
            }
            default -> {
                // TIMEWAIT_EXIT, ADDR_CHANGE, multicast: nothing to do for reliable connections
            }
        }
    }

    private IbvQP createQp(RdmaCmId id, QueuePairSpec spec) throws IOException {
        IbvCQ send = queues.get(spec.sendCq());
        IbvCQ recv = queues.get(spec.recvCq());
        if (send == null || recv == null) {
            throw new FabricException("queue pair spec names a completion queue this transport did not create", false);
        }
        if (objectId(id.getVerbs()) != objectId(context)) {
            throw new FabricException("the route uses another RDMA device than " + deviceName()
                + "; one machine's connections must share its device", false);
        }
        IbvQPInitAttr attr = new IbvQPInitAttr();
        attr.cap().setMax_send_wr(spec.sendDepth());
        attr.cap().setMax_recv_wr(spec.recvDepth());
        attr.cap().setMax_send_sge(1);
        attr.cap().setMax_recv_sge(1);
        attr.cap().setMax_inline_data(0);
        attr.setQp_type(IbvQP.IBV_QPT_RC);
        attr.setSend_cq(send);
        attr.setRecv_cq(recv);
        return id.createQP(pd, attr);
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
            NativeConnection c = new NativeConnection(id, createQp(id, o.spec()), o.header());
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
            byte[] header = PraghVerbs.connectRequestData(objectId(id));
            QueuePairSpec spec = a == null ? null : a.onRequest(header);
            if (spec == null) {
                destroyId(id); // destroying a requested id rejects the request
                return;
            }
            c = new NativeConnection(id, createQp(id, spec), header);
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
        queues.values().forEach(q -> {
            try {
                q.destroyCQ();
            } catch (IOException ignored) {
                // released with the device below
            }
        });
        queues.clear();
        try {
            completionChannel.destroyCompChannel();
            pd.deallocPd();
        } catch (Exception e) {
            LOG.warn("releasing {}: {}", deviceName(), e.getMessage());
        }
        destroyQuietly(listener, channel);
    }
}
