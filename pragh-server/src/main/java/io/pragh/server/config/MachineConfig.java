package io.pragh.server.config;

import io.pragh.address.Address;
import io.pragh.tier.MachineRole;
import java.net.InetSocketAddress;

/**
 * One machine of the cluster: its id (its index in the address word), the host its peers reach it at, its fabric
 * port, optionally its Gremlin port and its client port, where {@code io.pragh.server.rpc} serves PUT / GET /
 * edge inserts / traversals to clients that are not machines of the cluster, and its {@code role}: {@code compute}
 * (the default) or {@code memory}, a memory node that homes no key and runs no query but hosts values moved to far
 * memory and answers the one-sided operations that reach them.
 *
 * <pre>{@code
 * MachineConfig m = config.machine(1);
 * InetSocketAddress fabric = m.fabricAddress();
 * }</pre>
 */
public record MachineConfig(int id, String host, int fabricPort, int gremlinPort, int clientPort, MachineRole role) {
    /** {@link #clientPort} of a machine that serves no client RPC. */
    public static final int NO_CLIENT_PORT = 0;
    /** {@link #gremlinPort} of a machine that serves no Gremlin (a cluster run by the traversal benchmark). */
    public static final int NO_GREMLIN_PORT = 0;

    static MachineConfig read(ConfigNode n) {
        n.allow("id", "host", "fabricPort", "gremlinPort", "clientPort", "role");
        int id = n.integer("id", null, 0, Address.MAX_MACHINES - 1);
        String host = n.string("host", null);
        if (!host.equals(host.strip()) || host.chars().anyMatch(Character::isWhitespace)) {
            throw n.error("host", "a host name or address has no spaces, got \"" + host + "\"");
        }
        int fabricPort = n.integer("fabricPort", null, 1, 65535);
        int gremlinPort = n.has("gremlinPort") ? n.integer("gremlinPort", null, 1, 65535) : NO_GREMLIN_PORT;
        int clientPort = n.has("clientPort") ? n.integer("clientPort", null, 1, 65535) : NO_CLIENT_PORT;
        MachineRole role;
        try {
            role = MachineRole.parse(n.string("role", MachineRole.COMPUTE.configName()));
        } catch (IllegalArgumentException e) {
            throw n.error("role", e.getMessage());
        }
        if (role == MachineRole.MEMORY && (gremlinPort != NO_GREMLIN_PORT || clientPort != NO_CLIENT_PORT)) {
            throw n.error(gremlinPort != NO_GREMLIN_PORT ? "gremlinPort" : "clientPort", "a memory node runs no"
                + " queries and serves no clients: remove this port (or make the machine's role compute)");
        }
        return new MachineConfig(id, host, fabricPort, gremlinPort, clientPort, role);
    }

    /** Where peers reach this machine's fabric port (the host name is resolved now). */
    public InetSocketAddress fabricAddress() {
        return new InetSocketAddress(host, fabricPort);
    }

    public InetSocketAddress gremlinAddress() {
        return new InetSocketAddress(host, gremlinPort);
    }

    /** Where clients reach this machine's RPC port (the host name is resolved now). */
    public InetSocketAddress clientAddress() {
        if (clientPort == NO_CLIENT_PORT) {
            throw new IllegalStateException("machine " + id + " has no clientPort in the cluster file");
        }
        return new InetSocketAddress(host, clientPort);
    }
}
