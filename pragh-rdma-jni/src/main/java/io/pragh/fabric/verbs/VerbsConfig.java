package io.pragh.fabric.verbs;

import io.pragh.address.Address;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Settings of a verbs fabric.
 *
 * <pre>{@code
 * VerbsConfig config = VerbsConfig.of(List.of(new InetSocketAddress("10.0.0.1", 7471),
 *                                             new InetSocketAddress("10.0.0.2", 7471)));
 * }</pre>
 *
 * @param machines        the rdma_cm listen address of each machine, indexed by machine id; the IP must belong to a
 *                        network interface backed by an RDMA device (an InfiniBand IPoIB or RoCE interface)
 * @param sendQueueDepth  work requests one queue pair may have outstanding
 * @param scratchBytes    initial registered bounce memory per posting thread, for buffers outside registered regions
 * @param messageBytes    the largest two-sided message, header included
 * @param receiveSlots    receive buffers posted per incoming message connection
 * @param sendSlots       send buffers shared by a machine's outgoing messages
 * @param connectTimeout  how long establishing a connection may take
 * @param operationTimeout how long a posted operation may stay incomplete before its connection is given up
 */
public record VerbsConfig(List<InetSocketAddress> machines, int sendQueueDepth, int scratchBytes, int messageBytes,
                          int receiveSlots, int sendSlots, Duration connectTimeout, Duration operationTimeout) {
    public static final int DEFAULT_SEND_QUEUE_DEPTH = 256;
    public static final int DEFAULT_SCRATCH_BYTES = 1 << 20;
    public static final int DEFAULT_MESSAGE_BYTES = 64 << 10;
    public static final int DEFAULT_RECEIVE_SLOTS = 32;
    public static final int DEFAULT_SEND_SLOTS = 32;

    public VerbsConfig {
        Objects.requireNonNull(machines, "machines");
        machines = List.copyOf(machines);
        Address.checkMachineCount(machines.size());
        for (int m = 0; m < machines.size(); m++) {
            InetSocketAddress a = machines.get(m);
            if (a == null || a.isUnresolved()) {
                throw new IllegalArgumentException("machine " + m + " has no resolved address: " + a);
            }
        }
        positive("sendQueueDepth", sendQueueDepth, 4);
        positive("scratchBytes", scratchBytes, 4096);
        positive("messageBytes", messageBytes, 256);
        positive("receiveSlots", receiveSlots, 2);
        positive("sendSlots", sendSlots, 1);
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(operationTimeout, "operationTimeout");
        if (connectTimeout.isNegative() || connectTimeout.isZero() || operationTimeout.isNegative()
            || operationTimeout.isZero()) {
            throw new IllegalArgumentException("timeouts must be positive: connect " + connectTimeout
                + ", operation " + operationTimeout);
        }
    }

    /** Defaults for everything but the addresses. */
    public static VerbsConfig of(List<InetSocketAddress> machines) {
        return new VerbsConfig(machines, DEFAULT_SEND_QUEUE_DEPTH, DEFAULT_SCRATCH_BYTES, DEFAULT_MESSAGE_BYTES,
            DEFAULT_RECEIVE_SLOTS, DEFAULT_SEND_SLOTS, Duration.ofSeconds(10), Duration.ofSeconds(10));
    }

    /** The same buffers and depths with other timeouts. */
    public VerbsConfig withTimeouts(Duration connect, Duration operation) {
        return new VerbsConfig(machines, sendQueueDepth, scratchBytes, messageBytes, receiveSlots, sendSlots, connect,
            operation);
    }

    public int machineCount() {
        return machines.size();
    }

    private static void positive(String name, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be at least " + min + ", got " + value);
        }
    }
}
