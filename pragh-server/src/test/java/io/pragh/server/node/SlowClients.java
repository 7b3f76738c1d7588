package io.pragh.server.node;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Connections that hold a port without using it, for tests of the ports' deadlines: opened, optionally fed a little
 * at a time (slowloris), and watched until the server closes them. The wait is generous, so a slow machine only
 * makes a test slower.
 *
 * <pre>{@code
 * List<Socket> sockets = SlowClients.connect(address, 200);
 * assertEquals(0, SlowClients.stillOpenAfter(sockets, 60, (i, out) -> out.write('x')));
 * }</pre>
 */
public final class SlowClients {
    private SlowClients() {
    }

    /** What each still-open connection is sent every 200 ms while the test waits. */
    public interface Trickle {
        /** Sends a little more on connection {@code index}. */
        void more(int index, OutputStream out) throws IOException;
    }

    public static List<Socket> connect(InetSocketAddress address, int n) throws IOException {
        List<Socket> sockets = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Socket s = new Socket();
            s.connect(address, 10_000);
            sockets.add(s);
        }
        return sockets;
    }

    /**
     * Waits until the server closed every socket, feeding each open one with {@code trickle} (null: none) every
     * 200 ms; returns how many are still open after {@code seconds}, and closes them all.
     */
    public static int stillOpenAfter(List<Socket> sockets, long seconds, Trickle trickle) throws InterruptedException {
        List<Integer> open = new ArrayList<>();
        for (int i = 0; i < sockets.size(); i++) {
            open.add(i);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!open.isEmpty() && System.nanoTime() < deadline) {
            for (int k = open.size() - 1; k >= 0; k--) {
                Socket s = sockets.get(open.get(k));
                if (closedByServer(s)) {
                    open.remove(k);
                } else if (trickle != null) {
                    try {
                        trickle.more(open.get(k), s.getOutputStream());
                    } catch (IOException closed) {
                        open.remove(k);
                    }
                }
            }
            Thread.sleep(200);
        }
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException ignored) {
                // Closed either way.
            }
        }
        return open.size();
    }

    /** Whether the server closed the connection: a read sees the end of the stream or a reset (after any greeting). */
    private static boolean closedByServer(Socket s) {
        try {
            s.setSoTimeout(1);
            InputStream in = s.getInputStream();
            while (true) {
                if (in.read() < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException nothingYet) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }
}
