package io.pragh.fabric.verbs;

import com.ibm.disni.verbs.IbvCQ;
import com.ibm.disni.verbs.IbvCompChannel;
import com.ibm.disni.verbs.IbvContext;
import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.IbvQPInitAttr;
import com.ibm.disni.verbs.RdmaCm;
import com.ibm.disni.verbs.RdmaCmId;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transport of a real RDMA device. The device's resources (protection domain, completion queues, queue pairs)
 * are DiSNI 2.1's jVerbs API, and so is connection management, which a {@link ConnectionManager} drives from its one
 * rdma_cm thread; registration, posting and polling are Pragh's own entry points ({@link PraghVerbs}), which take the
 * object ids DiSNI holds, since the same native library issues both.
 *
 * <pre>{@code
 * Transport t = new NativeTransport(new InetSocketAddress("10.0.0.1", 7471), config);
 * }</pre>
 */
public final class NativeTransport implements Transport {
    private static final Logger LOG = LoggerFactory.getLogger(NativeTransport.class);

    private final InetSocketAddress address;
    private final RdmaEventChannel channel;
    private final RdmaCmId listener;
    private final IbvContext context;
    private final IbvPd pd;
    private final IbvCompChannel completionChannel;
    private final Map<Long, IbvCQ> queues = new ConcurrentHashMap<>();
    private final ConnectionManager connections;
    private volatile boolean closed;

    public NativeTransport(InetSocketAddress address, VerbsConfig config) {
        NativeLibrary.require();
        WorkRequest.checkAgainstNative();
        this.address = address;
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
        this.connections = new ConnectionManager(this, address, config, channel, listener);
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
        connections.listen(newAcceptor);
    }

    @Override
    public CompletableFuture<Connection> connect(InetSocketAddress peer, byte[] header, QueuePairSpec spec,
                                                 Consumer<Connection> onQueuePair) {
        return connections.connect(peer, header, spec, onQueuePair);
    }

    @Override
    public void disconnect(Connection connection) {
        connections.disconnect(connection);
    }

    @Override
    public void disconnectAll() {
        connections.disconnectAll();
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

    /** A reliable-connection queue pair for {@code id} on this device, with the spec's queues and depths. */
    IbvQP createQp(RdmaCmId id, QueuePairSpec spec) throws IOException {
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

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        connections.close();
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
