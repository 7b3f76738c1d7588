package io.pragh.fabric.verbs;

import io.pragh.rdma.jni.NativeBuffer;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;

/**
 * What the verbs fabric needs from one RDMA device on behalf of one machine: memory registration, completion queues,
 * reliable connections, posting and polling. Descriptors and completions use the layouts of
 * {@link io.pragh.rdma.jni.WorkRequest} and {@link io.pragh.rdma.jni.Completion}; queue pairs, completion queues and
 * registrations are handles. {@link NativeTransport} is the device; tests may substitute a simulation.
 *
 * <pre>{@code
 * Transport t = new NativeTransport(address, config);
 * Transport.Registration r = t.register(chunkAddress, chunkBytes, PraghVerbs.ACCESS_ALL);
 * }</pre>
 */
public interface Transport extends AutoCloseable {
    /** A registered memory range and its keys. */
    record Registration(long handle, long address, long length, int lkey, int rkey) {
        public boolean contains(long start, long bytes) {
            return start >= address && bytes >= 0 && start + bytes <= address + length;
        }
    }

    /** The completion queues and depths of a queue pair to create. */
    record QueuePairSpec(long sendCq, long recvCq, int sendDepth, int recvDepth) {
    }

    /** An established reliable connection; {@link #qp()} is the queue pair handle descriptors name. */
    interface Connection {
        long qp();

        /** The header the connecting side sent (see {@link ConnectionHeader}). */
        byte[] header();
    }

    /** Decides about incoming connections, and hears when they are up or gone. Called on the transport's thread. */
    interface Acceptor {
        /** The queue pair to create for a request with this header, or null to refuse it. */
        QueuePairSpec onRequest(byte[] header);

        /** The queue pair exists and the connection is about to be accepted: post receives now. */
        void onQueuePair(Connection connection);

        void onEstablished(Connection connection);

        void onDisconnected(Connection connection);
    }

    /** Human-readable device name for messages. */
    String deviceName();

    /** {@code ibv_device_attr.atomic_cap}: PraghVerbs.ATOMIC_NONE, ATOMIC_HCA or ATOMIC_GLOB. */
    int atomicCapability();

    Registration register(long address, long length, int access);

    void deregister(Registration registration);

    long createCompletionQueue(int entries);

    void destroyCompletionQueue(long cq);

    /** Starts accepting connections on this transport's address. */
    void listen(Acceptor acceptor);

    /**
     * Connects to a peer's address, creating a queue pair by {@code spec}; {@code onQueuePair} runs once it exists,
     * before the connection completes (post receives there). The future fails with a FabricException.
     */
    CompletableFuture<Connection> connect(InetSocketAddress peer, byte[] header, QueuePairSpec spec,
                                          java.util.function.Consumer<Connection> onQueuePair);

    /** Tears a connection down; its outstanding work requests are flushed or dropped. Idempotent. */
    void disconnect(Connection connection);

    /** Tears every connection of this transport down, so its queues and memory can be released. */
    void disconnectAll();

    /** Same contract as {@link io.pragh.rdma.jni.PraghVerbs#postSend}. */
    int postSend(NativeBuffer descriptors, int first, int count);

    int postRecv(NativeBuffer descriptors, int first, int count);

    /** The errno of this thread's last refused post. */
    int lastPostErrno();

    String errnoText(int errno);

    /** Reaps up to {@code max} completions of {@code cq} into {@code completions}; returns how many. */
    int poll(long cq, NativeBuffer completions, int max);

    String completionStatusText(int status);

    /** Releases every connection, queue, registration and the device; idempotent. */
    @Override
    void close();
}
