package io.pragh.fabric;

/**
 * The Fabric SPI: how machines reach each other's registered memory one-sidedly and exchange messages.
 * Three implementations share one conformance suite: in-process (embedded clusters), TCP over Netty (hosts
 * without RDMA) and verbs (RDMA NICs through DiSNI and our JNI library). Each comes with a {@link FabricProvider},
 * through which {@link FabricProviders} finds and builds it by {@link FabricKind}.
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

    /** For logs and a server's ready line: the name and where it listens, e.g. {@code tcp /10.0.0.1:7400}. */
    default String describe() {
        return name();
    }

    /**
     * A membership service's word that {@code peer} is dead ({@code why} says how it knows): a fabric holding
     * connections to it fails what waits on them at once instead of waiting out timeouts. Ignored by default.
     */
    default void presumeDead(int peer, String why) {
    }

    /** The membership service saw {@code peer} join again after {@link #presumeDead}. Ignored by default. */
    default void peerRejoined(int peer) {
    }

    /** Stops delivery and releases registrations; operations afterwards fail with {@link FabricException}. */
    @Override
    void close();
}
