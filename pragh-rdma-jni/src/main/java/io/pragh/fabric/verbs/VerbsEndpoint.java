package io.pragh.fabric.verbs;

import io.pragh.fabric.Endpoint;
import io.pragh.fabric.FabricException;
import io.pragh.fabric.FabricStats;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.MessageHandler;
import io.pragh.fabric.OpBatch;
import io.pragh.fabric.Region;
import io.pragh.rdma.jni.PraghVerbs;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One machine on the verbs fabric. Its memory is registered with the NIC when it attaches; one-sided operations go
 * out on the calling thread's {@link Lane}; messages go through the {@link Messenger}. It accepts the connections
 * peers open to it: message connections get receive buffers, lane connections only a queue pair, since the NIC
 * serves one-sided operations without this machine's threads.
 */
final class VerbsEndpoint implements Endpoint, Transport.Acceptor {
    private static final Logger LOG = LoggerFactory.getLogger(VerbsEndpoint.class);

    private final VerbsConfig config;
    private final int machine;
    private final Transport transport;
    private final FabricStats stats = new FabricStats();
    private final LocalMemory localMemory;
    private final Messenger messenger;
    private final long passiveCq;
    private final boolean cpuAtomicsCoherent;
    private final Map<Transport.Connection, Runnable> onDisconnect = new ConcurrentHashMap<>();
    private final ThreadLocal<Lane> lanes = new ThreadLocal<>();
    private final List<Lane> allLanes = new ArrayList<>(); // guarded by itself
    private volatile AtomicByteOrder atomicOrder;
    private volatile boolean closed;

    VerbsEndpoint(VerbsConfig config, int machine, MachineMemory memory, MessageHandler handler, Transport transport) {
        this.config = config;
        this.machine = machine;
        this.transport = transport;
        int atomics = transport.atomicCapability();
        if (atomics == PraghVerbs.ATOMIC_NONE) {
            throw new FabricException(transport.deviceName() + " offers no remote atomics (IBV_ATOMIC_NONE); Pragh's "
                + "MIGRATE and PUT need RDMA compare-and-swap", false);
        }
        this.cpuAtomicsCoherent = atomics == PraghVerbs.ATOMIC_GLOB;
        if (!cpuAtomicsCoherent) {
            LOG.warn("{}: RDMA compare-and-swap is atomic only with other RDMA atomics "
                + "on this adapter (IBV_ATOMIC_HCA), not with CPU atomics on the same word", transport.deviceName());
        }
        this.localMemory = new LocalMemory(transport, memory);
        long cq = 0;
        Messenger m = null;
        try {
            cq = transport.createCompletionQueue(16);
            m = new Messenger(this, transport, config, handler);
        } catch (RuntimeException e) {
            if (cq != 0) {
                transport.destroyCompletionQueue(cq);
            }
            localMemory.close();
            throw e;
        }
        this.passiveCq = cq;
        this.messenger = m;
        transport.listen(this);
    }

    @Override
    public int machine() {
        return machine;
    }

    @Override
    public int machineCount() {
        return config.machineCount();
    }

    @Override
    public FabricStats stats() {
        return stats;
    }

    /**
     * Whether this adapter's RDMA CAS is atomic with CPU CAS on the same word (IBV_ATOMIC_GLOB). When it is not, a
     * machine must CAS its own address words through the fabric too, or a local CAS can interleave with a remote one.
     */
    public boolean cpuAtomicsCoherent() {
        return cpuAtomicsCoherent;
    }

    LocalMemory localMemory() {
        return localMemory;
    }

    InetSocketAddress address(int target) {
        return config.machines().get(target);
    }

    RemoteMemory remoteMemory(int target) {
        return messenger.remoteMemory(target);
    }

    void onDisconnect(Transport.Connection connection, Runnable action) {
        onDisconnect.put(connection, action);
    }

    private void checkTarget(int target) {
        if (closed) {
            throw new FabricException("fabric is closed", false);
        }
        if (target < 0 || target >= config.machineCount()) {
            throw new FabricException("machine " + target + " does not exist in this " + config.machineCount()
                + "-machine fabric", false);
        }
    }

    /** The calling thread's lane, created on its first operation. */
    Lane lane() {
        if (closed) {
            throw new FabricException("fabric is closed", false);
        }
        Lane lane = lanes.get();
        if (lane == null) {
            synchronized (allLanes) {
                if (closed) {
                    throw new FabricException("fabric is closed", false);
                }
                lane = new Lane(this, transport, config, allLanes.size());
                allLanes.add(lane);
            }
            lanes.set(lane);
        }
        return lane;
    }

    /** Runs the calling thread's one-operation batch; {@code add} queues the operation and returns its index. */
    private long single(java.util.function.ToIntFunction<VerbsOpBatch> add, boolean casResult) {
        VerbsOpBatch batch = lane().single();
        try {
            int op = add.applyAsInt(batch);
            batch.awaitAll();
            return casResult ? batch.casResult(op) : 0;
        } finally {
            batch.clear();
        }
    }

    @Override
    public void read(int target, Region region, long offset, MutableDirectBuffer dst, int dstOffset, int length) {
        checkTarget(target);
        single(b -> b.read(target, region, offset, dst, dstOffset, length), false);
    }

    @Override
    public void write(int target, Region region, long offset, DirectBuffer src, int srcOffset, int length) {
        checkTarget(target);
        single(b -> b.write(target, region, offset, src, srcOffset, length, true), false);
    }

    @Override
    public long compareAndSwap(int target, Region region, long offset, long expected, long desired) {
        checkTarget(target);
        return single(b -> b.compareAndSwap(target, region, offset, expected, desired), true);
    }

    @Override
    public OpBatch newBatch(int capacity) {
        return new VerbsOpBatch(lane(), capacity);
    }

    @Override
    public void send(int target, DirectBuffer message, int offset, int length) {
        checkTarget(target);
        messenger.send(target, message, offset, length);
        stats.message(length);
    }

    @Override
    public int maxMessageBytes() {
        return messenger.maxMessageBytes();
    }

    @Override
    public boolean isReachable(int target) {
        return !closed && target >= 0 && target < config.machineCount() && !messenger.isDown(target);
    }

    /**
     * The adapter's CAS byte order, measured once with a loopback CAS on this machine's own probe word (see
     * {@link AtomicByteOrder}). Runs on the calling thread's lane; concurrent first callers wait for one probe.
     */
    AtomicByteOrder atomicOrder(Lane lane) {
        AtomicByteOrder order = atomicOrder;
        if (order != null) {
            return order;
        }
        synchronized (this) {
            if (atomicOrder == null) {
                atomicOrder = probeAtomicOrder(lane);
                LOG.info("machine {}: RDMA CAS byte order {}", machine, atomicOrder);
            }
            return atomicOrder;
        }
    }

    private AtomicByteOrder probeAtomicOrder(Lane lane) {
        RemoteMemory self = remoteMemory(machine);
        long word = self.probeAddress(machine);
        VerbsOpBatch probe = new VerbsOpBatch(lane, 1);
        localMemory.putProbeWord(machine, AtomicByteOrder.PROBE_INITIAL);
        long reply1 = rawCas(probe, word, self.probeRkey(), AtomicByteOrder.PROBE_INITIAL,
            AtomicByteOrder.PROBE_DESIRED);
        long memory1 = localMemory.getProbeWord(machine);
        long reply2 = 0;
        long memory2 = 0;
        if (AtomicByteOrder.needsSecondProbe(memory1)) {
            reply2 = rawCas(probe, word, self.probeRkey(), Long.reverseBytes(AtomicByteOrder.PROBE_INITIAL),
                Long.reverseBytes(AtomicByteOrder.PROBE_DESIRED));
            memory2 = localMemory.getProbeWord(machine);
        }
        return AtomicByteOrder.decide(reply1, memory1, reply2, memory2);
    }

    private long rawCas(VerbsOpBatch probe, long address, int rkey, long expected, long desired) {
        try {
            int op = probe.compareAndSwapRaw(machine, address, rkey, expected, desired);
            probe.awaitAll();
            return probe.casResult(op);
        } finally {
            probe.clear();
        }
    }

    // ---- Transport.Acceptor: connections peers open to this machine ----

    @Override
    public Transport.QueuePairSpec onRequest(byte[] header) {
        if (closed) {
            return null;
        }
        ConnectionHeader h = ConnectionHeader.decode(header);
        if (h.machine() >= config.machineCount()) {
            LOG.warn("machine {}: refused a connection from unknown machine {}",
                machine, h.machine());
            return null;
        }
        return h.kind() == ConnectionHeader.Kind.MESSAGES ? messenger.spec()
            : new Transport.QueuePairSpec(passiveCq, passiveCq, 1, 1);
    }

    @Override
    public void onQueuePair(Transport.Connection connection) {
        ConnectionHeader h = ConnectionHeader.decode(connection.header());
        if (h.kind() == ConnectionHeader.Kind.MESSAGES) {
            messenger.accepted(connection, h.machine());
        }
    }

    @Override
    public void onEstablished(Transport.Connection connection) {
        messenger.established(connection);
    }

    @Override
    public void onDisconnected(Transport.Connection connection) {
        Runnable action = onDisconnect.remove(connection);
        if (action != null) {
            action.run();
        }
    }

    void close() {
        if (closed) {
            return;
        }
        closed = true;
        messenger.stopDelivery();
        transport.disconnectAll(); // no queue pair may outlive the completion queues and memory released below
        synchronized (allLanes) {
            allLanes.forEach(Lane::close);
            allLanes.clear();
        }
        messenger.close();
        transport.destroyCompletionQueue(passiveCq);
        localMemory.close();
    }
}
