package io.pragh.server.config;

/**
 * A port section's "machine I listens on {@code port + I}" (the {@code metrics} and {@code sparql} sections): one
 * number in the file for a run of ports, 0 for none.
 *
 * <p>Example: {@code int port = PortRun.read(node, machines, "metrics"); int mine = PortRun.of(port, id);}
 */
final class PortRun {
    private PortRun() {
    }

    /** The section's {@code port}: 0 (none, also when absent) or a first port that leaves room for every machine. */
    static int read(ConfigNode n, int machines, String serves) {
        int port = (int) n.longInteger("port", 0L, 0, 65535);
        if (port > 0 && port + machines - 1 > 65535) {
            throw n.error("port", "machine I serves " + serves + " on port + I: " + port + " leaves no room for "
                + machines + " machines below 65536");
        }
        return port;
    }

    /** Machine {@code id}'s port of the run from {@code port}, or 0 when the run is off. */
    static int of(int port, int id) {
        return port == 0 ? 0 : port + id;
    }
}
