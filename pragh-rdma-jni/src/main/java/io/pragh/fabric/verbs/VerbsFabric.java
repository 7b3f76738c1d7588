package io.pragh.fabric.verbs;

import io.pragh.fabric.Endpoint;
import io.pragh.fabric.Fabric;
import io.pragh.fabric.FabricException;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.MessageHandler;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BiFunction;

/**
 * The Fabric over RDMA verbs: one-sided READ, WRITE and CAS go straight to the NIC, which serves them from the
 * peer's registered memory without its CPU. Every chunk of a machine's key, value and reclaim regions is registered
 * (pinned, remote read / write / atomic) when the machine attaches. Each posting thread gets its own completion
 * queue and reliable-connected queue pairs (rdma_cm) to the peers it addresses, posts batches as one chain per
 * peer, and polls its own completions. Two-sided messages travel over separate SEND / RECV connections.
 *
 * <p>Machines of one fabric may live in one process (tests) or in many: each process attaches its own machine(s)
 * and reaches the others at the addresses in {@link VerbsConfig#machines()}.
 *
 * <pre>{@code
 * try (VerbsFabric fabric = new VerbsFabric(VerbsConfig.of(addresses))) {
 *     Endpoint ep = fabric.attach(myId, memory, handler);
 *     long seen = ep.compareAndSwap(peer, Region.KEYS, slot, expected, desired);
 * }
 * }</pre>
 */
public final class VerbsFabric implements Fabric {
    private final VerbsConfig config;
    private final BiFunction<Integer, InetSocketAddress, Transport> transports;
    private final AtomicReferenceArray<VerbsEndpoint> endpoints;
    private final Transport[] opened;
    private volatile boolean closed;

    /** A fabric on this host's RDMA device(s); needs the native library (see {@code ./pragh doctor}). */
    public VerbsFabric(VerbsConfig config) {
        this(config, (machine, address) -> new NativeTransport(address, config));
    }

    /** A fabric whose machines reach their device through {@code transports} (machine id, listen address). */
    VerbsFabric(VerbsConfig config, BiFunction<Integer, InetSocketAddress, Transport> transports) {
        this.config = Objects.requireNonNull(config, "config");
        this.transports = transports;
        this.endpoints = new AtomicReferenceArray<>(config.machineCount());
        this.opened = new Transport[config.machineCount()];
    }

    @Override
    public String name() {
        return "verbs";
    }

    /** {@code verbs /10.0.0.1:7400 on mlx5_0}: each attached machine's listen address and device. */
    @Override
    public synchronized String describe() {
        StringBuilder out = new StringBuilder(name());
        for (int m = 0; m < opened.length; m++) {
            if (opened[m] != null) {
                out.append(' ').append(config.machines().get(m)).append(" on ").append(opened[m].deviceName());
            }
        }
        return out.toString();
    }

    public VerbsConfig config() {
        return config;
    }

    @Override
    public synchronized Endpoint attach(int machine, MachineMemory memory, MessageHandler handler) {
        if (closed) {
            throw new FabricException("fabric is closed", false);
        }
        if (machine < 0 || machine >= config.machineCount()) {
            throw new IllegalArgumentException("machine " + machine + " is outside this fabric's 0.."
                + (config.machineCount() - 1));
        }
        if (endpoints.get(machine) != null) {
            throw new IllegalStateException("machine " + machine + " is already attached to this fabric");
        }
        Objects.requireNonNull(memory, "memory");
        Objects.requireNonNull(handler, "handler");
        Transport transport = transports.apply(machine, config.machines().get(machine));
        try {
            VerbsEndpoint endpoint = new VerbsEndpoint(config, machine, memory, handler, transport);
            endpoints.set(machine, endpoint);
            opened[machine] = transport;
            return endpoint;
        } catch (RuntimeException e) {
            transport.close();
            throw e;
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int m = 0; m < config.machineCount(); m++) {
            VerbsEndpoint e = endpoints.getAndSet(m, null);
            if (e != null) {
                e.close();
            }
        }
        for (int m = 0; m < opened.length; m++) {
            if (opened[m] != null) {
                opened[m].close();
                opened[m] = null;
            }
        }
    }
}
