package io.pragh.fabric;

/**
 * The Fabric SPI: how machines reach each other's registered memory one-sidedly and exchange messages.
 * Three implementations share one conformance suite: in-process (embedded clusters), TCP over Netty (hosts
 * without RDMA) and verbs (RDMA NICs through DiSNI and our JNI library).
 *
 * <pre>{@code
 * try (Fabric fabric = new InProcessFabric(4, InProcessFabric.DEFAULT_REMOTE_LATENCY_NS)) {
 *     Endpoint ep0 = fabric.attach(0, memory0, handler0);
 *     Endpoint ep1 = fabric.attach(1, memory1, handler1);
 *     ep0.read(1, Region.VALUES, 0, buffer, 0, 64);
 * }
 * }</pre>
 */
public interface Fabric extends AutoCloseable {
    /** A short name for logs and {@code ./pragh doctor}: "in-process", "tcp", "verbs". */
    String name();

    /**
     * Registers a local machine's memory and message handler and returns its endpoint. Every chunk of every region is
     * registered (with a NIC: pinned, remote read/write/atomic access) before this returns.
     */
    Endpoint attach(int machine, MachineMemory memory, MessageHandler handler);

    /** Stops delivery and releases registrations; operations afterwards fail with {@link FabricException}. */
    @Override
    void close();
}
