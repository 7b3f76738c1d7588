package io.pragh.server.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * Loopback ports that were free just now, for a new local cluster's file. Free when asked is all it can promise:
 * another process may take one before a server binds it (a test that meets that starts over).
 *
 * <pre>{@code
 * int[] ports = FreePorts.some(7);
 * int metrics = FreePorts.run(3, ports);    // three consecutive ones, none of ports
 * }</pre>
 */
public final class FreePorts {
    private FreePorts() {
    }

    /** {@code n} distinct loopback ports, each free just now. */
    static int[] some(int n) {
        List<ServerSocket> held = new ArrayList<>();
        int[] ports = new int[n];
        try {
            for (int i = 0; i < n; i++) {
                ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                held.add(s);
                ports[i] = s.getLocalPort();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find free loopback ports: " + e.getMessage(), e);
        } finally {
            closeAll(held);
        }
        return ports;
    }

    /** The first of {@code n} consecutive loopback ports that were all free just now and are none of {@code taken}. */
    public static int run(int n, int[] taken) {
        for (int attempt = 0; attempt < 100; attempt++) {
            int first = some(1)[0];
            if (first + n - 1 > 65535 || java.util.Arrays.stream(taken).anyMatch(p -> p >= first && p < first + n)) {
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
