package io.pragh.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class FreePortsTest {
    /**
     * Ports handed out lie below the kernel's ephemeral range, where no outgoing connection can take one before the
     * server binds it; they are distinct and bindable on the loopback address.
     */
    @Test
    void portsAreDistinctBindableAndBelowTheEphemeralRange() throws Exception {
        int ephemeralFirst = FreePorts.ephemeralFirst();
        int[] ports = FreePorts.some(9);
        assertEquals(9, Arrays.stream(ports).distinct().count(), Arrays.toString(ports));
        for (int p : ports) {
            if (ephemeralFirst > 1024) {
                assertTrue(p >= 1024 && p < ephemeralFirst, p + " lies below the ephemeral range from " + ephemeralFirst);
            }
            try (ServerSocket s = new ServerSocket(p, 1, InetAddress.getLoopbackAddress())) {
                assertEquals(p, s.getLocalPort());
            }
        }
    }

    @Test
    void aRunOfConsecutivePortsAvoidsTheTakenOnesAndStaysBelowTheEphemeralRange() throws Exception {
        int ephemeralFirst = FreePorts.ephemeralFirst();
        int[] taken = FreePorts.some(5);
        int first = FreePorts.run(4, taken);
        for (int p = first; p < first + 4; p++) {
            final int port = p;
            assertTrue(Arrays.stream(taken).noneMatch(t -> t == port), port + " is not one of " + Arrays.toString(taken));
            if (ephemeralFirst > 1024) {
                assertTrue(port < ephemeralFirst, port + " lies below the ephemeral range from " + ephemeralFirst);
            }
            try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                assertEquals(port, s.getLocalPort());
            }
        }
    }
}
