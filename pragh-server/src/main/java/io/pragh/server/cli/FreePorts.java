package io.pragh.server.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Loopback ports that were free just now, for a new local cluster's file. Free when asked is all it can promise:
 * another process may take one before a server binds it. They are looked for below the kernel's ephemeral range
 * ({@code /proc/sys/net/ipv4/ip_local_port_range}), never in it: every outgoing connection takes its local port from
 * that range, and a server process starting slowly (a loaded host) left seconds in which a connection of anything on
 * the host could take a port handed out there (a cluster whose machine then failed to bind, under a CPU hog). Below
 * it only an explicit bind can take one. Where the range cannot be read, the kernel picks (port 0).
 *
 * <pre>{@code
 * int[] ports = FreePorts.some(7);
 * int metrics = FreePorts.run(3, ports);    // three consecutive ones, none of ports
 * }</pre>
 */
public final class FreePorts {
    private FreePorts() {
    }

    /** Ports searched: this many below the ephemeral range's first port (and none below 1024). */
    private static final int SEARCHED = 16_384;
    private static final Path EPHEMERAL = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    /** {@code n} distinct loopback ports, each free just now, below the ephemeral range where it is known. */
    static int[] some(int n) {
        int ephemeralFirst = ephemeralFirst();
        int low = Math.max(1024, ephemeralFirst - SEARCHED);
        List<ServerSocket> held = new ArrayList<>();
        int[] ports = new int[n];
        try {
            if (ephemeralFirst <= low) {
                for (int i = 0; i < n; i++) {
                    ports[i] = hold(held, 0);
                }
                return ports;
            }
            // A random start, so clusters made one after another (or by two JVMs at once) rarely probe the same ports.
            int span = ephemeralFirst - low;
            int start = ThreadLocalRandom.current().nextInt(span);
            int found = 0;
            for (int i = 0; i < span && found < n; i++) {
                int port = low + (start + i) % span;
                try {
                    ports[found] = hold(held, port);
                    found++;
                } catch (IOException inUse) {
                    // Taken: the next one.
                }
            }
            if (found < n) {
                throw new IllegalStateException("cannot find " + n + " free loopback ports in " + low + ".."
                    + (ephemeralFirst - 1) + " (below the ephemeral range); found " + found);
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find free loopback ports: " + e.getMessage(), e);
        } finally {
            closeAll(held);
        }
    }

    /** Binds {@code port} (0: any) on the loopback address and keeps it bound in {@code held}; returns the port. */
    private static int hold(List<ServerSocket> held, int port) throws IOException {
        ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress());
        held.add(s);
        return s.getLocalPort();
    }

    /** The first port of the kernel's ephemeral range, or 0 when it cannot be read (then the kernel picks). */
    static int ephemeralFirst() {
        try {
            String[] range = Files.readString(EPHEMERAL).trim().split("\\s+");
            return Integer.parseInt(range[0]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** The first of {@code n} consecutive loopback ports that were all free just now and are none of {@code taken}. */
    public static int run(int n, int[] taken) {
        int ephemeralFirst = ephemeralFirst();
        for (int attempt = 0; attempt < 100; attempt++) {
            int first = some(1)[0];
            boolean intoEphemeral = ephemeralFirst > 0 && first < ephemeralFirst && first + n > ephemeralFirst;
            if (first + n - 1 > 65535 || intoEphemeral
                || java.util.Arrays.stream(taken).anyMatch(p -> p >= first && p < first + n)) {
                continue;
            }
            List<ServerSocket> held = new ArrayList<>();
            try {
                for (int i = 0; i < n; i++) {
                    held.add(new ServerSocket(first + i, 1, InetAddress.getLoopbackAddress()));
                }
                return first;
            } catch (IOException inUse) {
                // One of the run is in use: try another start.
            } finally {
                closeAll(held);
            }
        }
        throw new IllegalStateException("cannot find " + n + " consecutive free loopback ports (for a run of"
            + " ports, machine I on the first + I)");
    }

    private static void closeAll(List<ServerSocket> held) {
        for (ServerSocket s : held) {
            try {
                s.close();
            } catch (IOException ignored) {
                // The port is free again either way.
            }
        }
    }
}
