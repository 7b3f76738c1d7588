package io.pragh.server.config;

import io.pragh.address.Address;
import java.net.InetSocketAddress;

/**
 * One machine of the cluster: its id (its index in the address word), the host its peers reach it at, its fabric
 * port and its Gremlin port.
 *
 * <pre>{@code
 * MachineConfig m = config.machine(1);
 * InetSocketAddress fabric = m.fabricAddress();
 * }</pre>
 */
public record MachineConfig(int id, String host, int fabricPort, int gremlinPort) {
    static MachineConfig read(ConfigNode n) {
        n.allow("id", "host", "fabricPort", "gremlinPort");
        int id = n.integer("id", null, 0, Address.MAX_MACHINES - 1);
        String host = n.string("host", null);
        if (!host.equals(host.strip()) || host.chars().anyMatch(Character::isWhitespace)) {
            throw n.error("host", "a host name or address has no spaces, got \"" + host + "\"");
        }
        int fabricPort = n.integer("fabricPort", null, 1, 65535);
        int gremlinPort = n.integer("gremlinPort", null, 1, 65535);
        return new MachineConfig(id, host, fabricPort, gremlinPort);
    }

    /** Where peers reach this machine's fabric port (the host name is resolved now). */
    public InetSocketAddress fabricAddress() {
        return new InetSocketAddress(host, fabricPort);
    }

    public InetSocketAddress gremlinAddress() {
        return new InetSocketAddress(host, gremlinPort);
    }
}
