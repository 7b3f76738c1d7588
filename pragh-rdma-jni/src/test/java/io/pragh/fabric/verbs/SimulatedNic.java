package io.pragh.fabric.verbs;

import io.pragh.fabric.FabricException;
import io.pragh.fabric.FabricProvider;
import io.pragh.rdma.jni.DeviceProbe;
import io.pragh.rdma.jni.NativeLibrary;
import io.pragh.rdma.jni.RdmaDevice;
import io.pragh.rdma.jni.Completion;
import io.pragh.rdma.jni.NativeBuffer;
import io.pragh.rdma.jni.PraghVerbs;
import io.pragh.rdma.jni.WorkRequest;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.agrona.UnsafeAccess;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A NIC simulated in Java, for testing the verbs fabric's own logic where there is no RDMA device. It honours the
 * contract a real device gives the fabric: registered memory checked by key, range and access on every request
 * (violations complete in error and put the queue pair in error, flushing the rest); one-sided operations done on
 * the target's memory without its threads; CAS atomic with CPU CAS (like IBV_ATOMIC_GLOB); completions only for
 * signalled requests; receives consumed in order, a SEND without a posted receive waiting for one (infinite RNR
 * retry); every callback of a machine's transport on that transport's own thread, as rdma_cm delivers them.
 * What it cannot show is whether the native library drives a real adapter correctly: that needs a NIC.
 *
 * <p>Public, with {@link #provider()}, so that other modules' tests can run the verbs fabric where a server or a
 * cluster would find it: through its provider.
 *
 * <pre>{@code
 * SimulatedNic nic = new SimulatedNic();
 * FabricProviders fabrics = FabricProviders.of(List.of(nic.provider(), new TcpFabricProvider()));
 * }</pre>
 */
public final class SimulatedNic {
    /** The one device this NIC shows a probe: usable, one active port. */
    public static final RdmaDevice DEVICE = new RdmaDevice("simulated0", 1, "simulated NIC, 1 port ACTIVE");

    private static final int LOC_LEN_ERR = 1;
    private static final int LOC_PROT_ERR = 4;
    private static final int WR_FLUSH_ERR = 5;
    private static final int REM_ACCESS_ERR = 10;
    private static final int OPCODE_SEND = 0;
    private static final int OPCODE_RDMA_WRITE = 1;
    private static final int OPCODE_RDMA_READ = 2;
    private static final int OPCODE_COMP_SWAP = 3;

    private final Map<InetSocketAddress, Machine> listening = new ConcurrentHashMap<>();
    private final Map<Long, Qp> queuePairs = new ConcurrentHashMap<>();
    private final Map<Integer, Transport.Registration> byRkey = new ConcurrentHashMap<>();
    private final Map<Long, Integer> access = new ConcurrentHashMap<>();
    private final AtomicLong handles = new AtomicLong(1000);
    private final AtomicInteger keys = new AtomicInteger(0x100);

    private final java.util.List<Machine> machines = new java.util.concurrent.CopyOnWriteArrayList<>();

    /**
     * The verbs fabric's provider, seeing this NIC as the host's only device (it still needs the native library, for
     * its buffers); every fabric it builds reaches the others through this NIC.
     */
    public FabricProvider provider() {
        return new VerbsFabricProvider(NativeLibrary::status, () -> new DeviceProbe(List.of(DEVICE), null),
            (config, address) -> transport(address));
    }

    Transport transport(InetSocketAddress address) {
        Machine m = new Machine(address);
        machines.add(m);
        return m;
    }

    /** Registrations not yet deregistered, across all machines. */
    int liveRegistrations() {
        return byRkey.size();
    }

    int liveQueuePairs() {
        return queuePairs.size();
    }

    int liveCompletionQueues() {
        return machines.stream().mapToInt(m -> m.cqs.size()).sum();
    }

    /** Cuts every connection, as a cable pull would: both ends see DISCONNECTED and in-flight requests flush. */
    void breakAllConnections() {
        for (Qp qp : queuePairs.values()) {
            qp.error = true;
            qp.owner.disconnect(qp);
        }
    }

    private record Posted(long wrId, long address, int length, int lkey) {
    }

    private static final class Qp implements Transport.Connection {
        final long handle;
        final Machine owner;
        final Transport.QueuePairSpec spec;
        final byte[] header;
        final Queue<Posted> receives = new ArrayDeque<>(); // guarded by this
        final Queue<byte[]> unreceived = new ArrayDeque<>(); // guarded by this
        volatile Qp peer;
        volatile boolean error;
        volatile boolean gone;

        Qp(long handle, Machine owner, Transport.QueuePairSpec spec, byte[] header) {
            this.handle = handle;
            this.owner = owner;
            this.spec = spec;
            this.header = header.clone();
        }

        @Override
        public long qp() {
            return handle;
        }

        @Override
        public byte[] header() {
            return header.clone();
        }
    }

    private final class Machine implements Transport {
        final InetSocketAddress address;
        final ExecutorService cm;
        final Map<Long, Queue<long[]>> cqs = new ConcurrentHashMap<>();
        final Map<Long, Qp> mine = new ConcurrentHashMap<>();
        volatile Acceptor acceptor;
        final Map<Integer, Transport.Registration> byLkey = new ConcurrentHashMap<>();

        Machine(InetSocketAddress address) {
            this.address = address;
            this.cm = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "simulated-cm-" + address);
                t.setDaemon(true);
                return t;
            });
        }

        @Override
        public String deviceName() {
            return "simulated NIC of " + address;
        }

        @Override
        public int atomicCapability() {
            return PraghVerbs.ATOMIC_GLOB;
        }

        @Override
        public Registration register(long start, long length, int accessBits) {
            int key = keys.incrementAndGet();
            Registration r = new Registration(handles.incrementAndGet(), start, length, key, key);
            byLkey.put(key, r);
            byRkey.put(key, r);
            access.put(r.handle(), accessBits);
            return r;
        }

        @Override
        public void deregister(Registration registration) {
            if (byLkey.remove(registration.lkey()) == null) {
                throw new IllegalArgumentException("registration " + registration + " deregistered twice");
            }
            byRkey.remove(registration.rkey());
            access.remove(registration.handle());
        }

        @Override
        public long createCompletionQueue(int entries) {
            long h = handles.incrementAndGet();
            cqs.put(h, new ConcurrentLinkedQueue<>());
            return h;
        }

        @Override
        public void destroyCompletionQueue(long cq) {
            if (cqs.remove(cq) == null) {
                throw new IllegalArgumentException("completion queue " + cq + " destroyed twice");
            }
        }

        @Override
        public void listen(Acceptor newAcceptor) {
            acceptor = newAcceptor;
            listening.put(address, this);
        }

        private Qp newQp(QueuePairSpec spec, byte[] header) {
            Qp qp = new Qp(handles.incrementAndGet(), this, spec, header);
            mine.put(qp.handle, qp);
            queuePairs.put(qp.handle, qp);
            return qp;
        }

        @Override
        public CompletableFuture<Connection> connect(InetSocketAddress peer, byte[] header, QueuePairSpec spec,
                                                     Consumer<Connection> onQueuePair) {
            CompletableFuture<Connection> future = new CompletableFuture<>();
            cm.execute(() -> {
                Machine remote = listening.get(peer);
                if (remote == null) {
                    future.completeExceptionally(new FabricException("connecting to " + peer + " failed: "
                        + "unreachable", true));
                    return;
                }
                Qp local = newQp(spec, header);
                onQueuePair.accept(local);
                remote.cm.execute(() -> {
                    Acceptor a = remote.acceptor;
                    QueuePairSpec remoteSpec = a == null ? null : a.onRequest(header);
                    if (remoteSpec == null) {
                        cm.execute(() -> {
                            destroy(local);
                            future.completeExceptionally(new FabricException("connecting to " + peer
                                + " failed: rejected", true));
                        });
                        return;
                    }
                    Qp accepted = remote.newQp(remoteSpec, header);
                    accepted.peer = local;
                    local.peer = accepted;
                    a.onQueuePair(accepted);
                    a.onEstablished(accepted);
                    cm.execute(() -> {
                        if (!future.complete(local)) {
                            disconnect(local);
                        }
                    });
                });
            });
            return future;
        }

        private void destroy(Qp qp) {
            qp.gone = true;
            qp.error = true;
            mine.remove(qp.handle);
            queuePairs.remove(qp.handle);
        }

        @Override
        public void disconnect(Connection connection) {
            Qp qp = (Qp) connection;
            cm.execute(() -> {
                if (qp.gone) {
                    return;
                }
                destroy(qp);
                Acceptor a = acceptor;
                if (a != null) {
                    a.onDisconnected(qp);
                }
                Qp peer = qp.peer;
                if (peer != null && !peer.gone) {
                    peer.error = true; // the peer sees DISCONNECTED
                    peer.owner.disconnect(peer);
                }
            });
        }

        @Override
        public void disconnectAll() {
            mine.values().forEach(this::disconnect);
            CompletableFuture.runAsync(() -> { }, cm).join();
        }

        @Override
        public int postSend(NativeBuffer descriptors, int first, int count) {
            WorkRequest unused = new WorkRequest(); // exercises the bounds check of a real descriptor buffer
            unused.wrap(descriptors, first + count - 1);
            UnsafeBuffer d = descriptors.view();
            for (int i = first; i < first + count; i++) {
                int base = i * WorkRequest.SIZE;
                Qp qp = mine.get(d.getLong(base + WorkRequest.QP_OFFSET));
                if (qp == null) {
                    return -(i - first + 1);
                }
                execute(qp, d, base);
            }
            return count;
        }

        private void execute(Qp qp, UnsafeBuffer d, int base) {
            long wrId = d.getLong(base + WorkRequest.WR_ID_OFFSET);
            byte opcode = d.getByte(base + WorkRequest.OPCODE_OFFSET);
            boolean signalled = (d.getByte(base + WorkRequest.FLAGS_OFFSET) & WorkRequest.SIGNALLED) != 0;
            long local = d.getLong(base + WorkRequest.LOCAL_ADDRESS_OFFSET);
            long remote = d.getLong(base + WorkRequest.REMOTE_ADDRESS_OFFSET);
            int length = d.getInt(base + WorkRequest.LENGTH_OFFSET);
            int lkey = d.getInt(base + WorkRequest.LKEY_OFFSET);
            int rkey = d.getInt(base + WorkRequest.RKEY_OFFSET);
            int wcOpcode = opcode == WorkRequest.READ ? OPCODE_RDMA_READ : opcode == WorkRequest.WRITE
                ? OPCODE_RDMA_WRITE : opcode == WorkRequest.CAS ? OPCODE_COMP_SWAP : OPCODE_SEND;
            Qp peer = qp.peer;
            if (qp.error || peer == null || peer.gone) {
                complete(qp.spec.sendCq(), wrId, WR_FLUSH_ERR, wcOpcode, 0); // flushed requests always complete
                qp.error = true;
                return;
            }
            Registration mineReg = byLkey.get(lkey);
            if (length > 0 && (mineReg == null || !mineReg.contains(local, length))) {
                fail(qp, wrId, LOC_PROT_ERR, wcOpcode);
                return;
            }
            int status = 0;
            switch (opcode) {
                case WorkRequest.READ -> {
                    status = remoteCheck(rkey, remote, length, PraghVerbs.ACCESS_REMOTE_READ);
                    if (status == 0) {
                        UnsafeAccess.UNSAFE.copyMemory(remote, local, length);
                    }
                }
                case WorkRequest.WRITE -> {
                    status = remoteCheck(rkey, remote, length, PraghVerbs.ACCESS_REMOTE_WRITE);
                    if (status == 0) {
                        UnsafeAccess.UNSAFE.copyMemory(local, remote, length);
                    }
                }
                case WorkRequest.CAS -> {
                    status = remoteCheck(rkey, remote, 8, PraghVerbs.ACCESS_REMOTE_ATOMIC);
                    if (status == 0 && (remote & 7) != 0) {
                        status = REM_ACCESS_ERR;
                    }
                    if (status == 0) {
                        long witnessed = compareAndExchange(remote, d.getLong(base + WorkRequest.COMPARE_OFFSET),
                            d.getLong(base + WorkRequest.SWAP_OFFSET));
                        UnsafeAccess.UNSAFE.putLongVolatile(null, local, witnessed);
                    }
                }
                default -> {
                    byte[] bytes = new byte[length];
                    UnsafeAccess.UNSAFE.copyMemory(null, local, bytes, UnsafeAccess.ARRAY_BYTE_BASE_OFFSET, length);
                    peer.owner.deliver(peer, bytes);
                }
            }
            if (status != 0) {
                fail(qp, wrId, status, wcOpcode);
            } else if (signalled) {
                complete(qp.spec.sendCq(), wrId, 0, wcOpcode, 0);
            }
        }

        /** A CAS that returns the witnessed value, atomic with CPU CAS on the same word. */
        private long compareAndExchange(long address, long expected, long desired) {
            while (true) {
                long seen = UnsafeAccess.UNSAFE.getLongVolatile(null, address);
                if (seen != expected || UnsafeAccess.UNSAFE.compareAndSwapLong(null, address, expected, desired)) {
                    return seen;
                }
            }
        }

        private int remoteCheck(int rkey, long remote, int length, int needed) {
            Registration r = byRkey.get(rkey);
            if (r == null || !r.contains(remote, length) || (access.getOrDefault(r.handle(), 0) & needed) == 0) {
                return REM_ACCESS_ERR;
            }
            return 0;
        }

        private void fail(Qp qp, long wrId, int status, int opcode) {
            qp.error = true;
            complete(qp.spec.sendCq(), wrId, status, opcode, 0);
        }

        private void deliver(Qp qp, byte[] bytes) {
            synchronized (qp) {
                qp.unreceived.add(bytes);
                drain(qp);
            }
        }

        private void drain(Qp qp) { // holds qp
            while (!qp.unreceived.isEmpty() && !qp.receives.isEmpty()) {
                byte[] bytes = qp.unreceived.poll();
                Posted r = qp.receives.poll();
                if (bytes.length > r.length()) {
                    complete(qp.spec.recvCq(), r.wrId(), LOC_LEN_ERR, Completion.OPCODE_RECV, 0);
                    continue;
                }
                UnsafeAccess.UNSAFE.copyMemory(bytes, UnsafeAccess.ARRAY_BYTE_BASE_OFFSET, null, r.address(),
                    bytes.length);
                complete(qp.spec.recvCq(), r.wrId(), 0, Completion.OPCODE_RECV, bytes.length);
            }
        }

        @Override
        public int postRecv(NativeBuffer descriptors, int first, int count) {
            UnsafeBuffer d = descriptors.view();
            for (int i = first; i < first + count; i++) {
                int base = i * WorkRequest.SIZE;
                Qp qp = mine.get(d.getLong(base + WorkRequest.QP_OFFSET));
                if (qp == null || d.getByte(base + WorkRequest.OPCODE_OFFSET) != WorkRequest.RECV) {
                    return -(i - first + 1);
                }
                synchronized (qp) {
                    qp.receives.add(new Posted(d.getLong(base + WorkRequest.WR_ID_OFFSET),
                        d.getLong(base + WorkRequest.LOCAL_ADDRESS_OFFSET), d.getInt(base + WorkRequest.LENGTH_OFFSET),
                        d.getInt(base + WorkRequest.LKEY_OFFSET)));
                    drain(qp);
                }
            }
            return count;
        }

        @Override
        public int lastPostErrno() {
            return 22; // EINVAL: the only refusal here is an unknown queue pair
        }

        @Override
        public String errnoText(int errno) {
            return "simulated refusal (errno " + errno + ")";
        }

        private void complete(long cq, long wrId, int status, int opcode, int byteLength) {
            Queue<long[]> queue = cqs.get(cq);
            if (queue == null) {
                queue = findCq(cq);
            }
            if (queue != null) {
                queue.add(new long[] {wrId, status, opcode, byteLength});
            }
        }

        private Queue<long[]> findCq(long cq) {
            for (Qp qp : queuePairs.values()) {
                Queue<long[]> q = qp.owner.cqs.get(cq);
                if (q != null) {
                    return q;
                }
            }
            return null;
        }

        @Override
        public int poll(long cq, NativeBuffer completions, int max) {
            Queue<long[]> queue = cqs.get(cq);
            if (queue == null) {
                throw new IllegalArgumentException("completion queue " + cq + " is not live");
            }
            Completion view = new Completion();
            int n = 0;
            for (long[] c = n < max ? queue.poll() : null; c != null; c = ++n < max ? queue.poll() : null) {
                view.wrap(completions, n);
                UnsafeBuffer b = completions.view();
                int base = n * Completion.SIZE;
                b.putLong(base + Completion.WR_ID_OFFSET, c[0]);
                b.putInt(base + Completion.STATUS_OFFSET, (int) c[1]);
                b.putInt(base + Completion.OPCODE_OFFSET, (int) c[2]);
                b.putInt(base + Completion.BYTE_LENGTH_OFFSET, (int) c[3]);
            }
            return n;
        }

        @Override
        public String completionStatusText(int status) {
            return "simulated status " + status;
        }

        @Override
        public void close() {
            listening.remove(address, this);
            disconnectAll();
            cm.shutdown();
            try {
                cm.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
