package io.pragh.fabric.tcp;

import java.net.InetSocketAddress;
import java.time.Duration;
import org.agrona.BitUtil;

/**
 * Tuning of one {@link TcpFabric}. The timeouts are what makes a dead or unreachable peer fail fast instead of
 * hanging: a connection attempt, a handshake and every request each have a bound, and a peer that just failed is
 * not retried before the back-off has passed (operations on it fail at once meanwhile).
 *
 * <pre>{@code
 * TcpFabricOptions options = TcpFabricOptions.defaults().withRequestTimeout(Duration.ofSeconds(1));
 * }</pre>
 *
 * @param connectTimeout   bound on opening a TCP connection to a peer
 * @param handshakeTimeout bound on proving the cluster secret, both ways
 * @param requestTimeout   bound on any one-sided operation's answer; a peer that misses it is disconnected
 * @param reconnectBackoff how long operations on a peer fail at once after a failed connection attempt
 * @param maxPayloadBytes  largest READ or WRITE one operation may move (bounds every frame)
 * @param inboxBytes       capacity of the message ring (power of two); a message may take an eighth of it
 * @param ioThreads        Netty event-loop threads serving this machine's connections and one-sided operations
 * @param bindAddress      where to listen, or null for the machine's own address in the peer list
 */
public record TcpFabricOptions(Duration connectTimeout, Duration handshakeTimeout, Duration requestTimeout,
                               Duration reconnectBackoff, int maxPayloadBytes, int inboxBytes, int ioThreads,
                               InetSocketAddress bindAddress) {
    /** 32 MiB: the largest value that can migrate (a migrated address's 22-bit size in 8-byte units). */
    public static final int DEFAULT_MAX_PAYLOAD_BYTES = 32 << 20;
    public static final int DEFAULT_INBOX_BYTES = 8 << 20;

    public TcpFabricOptions {
        positive("connectTimeout", connectTimeout);
        positive("handshakeTimeout", handshakeTimeout);
        positive("requestTimeout", requestTimeout);
        if (reconnectBackoff == null || reconnectBackoff.isNegative()) {
            throw new IllegalArgumentException("reconnectBackoff must be >= 0, got " + reconnectBackoff);
        }
        if (maxPayloadBytes < 8 || maxPayloadBytes > (1 << 30)) {
            throw new IllegalArgumentException("maxPayloadBytes must be between 8 and 1 GiB, got " + maxPayloadBytes);
        }
        if (!BitUtil.isPowerOfTwo(inboxBytes) || inboxBytes < 4096 || inboxBytes > (1 << 30)) {
            throw new IllegalArgumentException("inboxBytes must be a power of two between 4 KiB and 1 GiB, got "
                + inboxBytes);
        }
        if (ioThreads < 1 || ioThreads > 64) {
            throw new IllegalArgumentException("ioThreads must be between 1 and 64, got " + ioThreads);
        }
    }

    private static void positive(String name, Duration d) {
        if (d == null || d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(name + " must be a positive duration, got " + d);
        }
    }

    public static TcpFabricOptions defaults() {
        return new TcpFabricOptions(Duration.ofSeconds(1), Duration.ofSeconds(3), Duration.ofSeconds(2),
            Duration.ofMillis(200), DEFAULT_MAX_PAYLOAD_BYTES, DEFAULT_INBOX_BYTES,
            Math.min(2, Runtime.getRuntime().availableProcessors()), null);
    }

    /** Largest two-sided message: an eighth of the inbox ring, Agrona's limit for one record. */
    public int maxMessageBytes() {
        return inboxBytes / 8;
    }

    public TcpFabricOptions withConnectTimeout(Duration d) {
        return new TcpFabricOptions(d, handshakeTimeout, requestTimeout, reconnectBackoff, maxPayloadBytes,
            inboxBytes, ioThreads, bindAddress);
    }

    public TcpFabricOptions withHandshakeTimeout(Duration d) {
        return new TcpFabricOptions(connectTimeout, d, requestTimeout, reconnectBackoff, maxPayloadBytes,
            inboxBytes, ioThreads, bindAddress);
    }

    public TcpFabricOptions withRequestTimeout(Duration d) {
        return new TcpFabricOptions(connectTimeout, handshakeTimeout, d, reconnectBackoff, maxPayloadBytes,
            inboxBytes, ioThreads, bindAddress);
    }

    public TcpFabricOptions withReconnectBackoff(Duration d) {
        return new TcpFabricOptions(connectTimeout, handshakeTimeout, requestTimeout, d, maxPayloadBytes,
            inboxBytes, ioThreads, bindAddress);
    }

    public TcpFabricOptions withMaxPayloadBytes(int bytes) {
        return new TcpFabricOptions(connectTimeout, handshakeTimeout, requestTimeout, reconnectBackoff, bytes,
            inboxBytes, ioThreads, bindAddress);
    }

    public TcpFabricOptions withInboxBytes(int bytes) {
        return new TcpFabricOptions(connectTimeout, handshakeTimeout, requestTimeout, reconnectBackoff,
            maxPayloadBytes, bytes, ioThreads, bindAddress);
    }

    public TcpFabricOptions withIoThreads(int threads) {
        return new TcpFabricOptions(connectTimeout, handshakeTimeout, requestTimeout, reconnectBackoff,
            maxPayloadBytes, inboxBytes, threads, bindAddress);
    }

    public TcpFabricOptions withBindAddress(InetSocketAddress address) {
        return new TcpFabricOptions(connectTimeout, handshakeTimeout, requestTimeout, reconnectBackoff,
            maxPayloadBytes, inboxBytes, ioThreads, address);
    }
}
