package io.pragh.fabric.tcp;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;

/**
 * Mutual proof of the cluster secret when a connection opens, the one piece of code both kinds of cluster port use
 * (the fabric port between machines, {@link #FABRIC}, and the client port, {@link #CLIENT_PORT}). The server greets
 * with a fresh nonce; the client answers with its own nonce and an HMAC binding both nonces and both ids; the server
 * checks it and proves itself with an HMAC over the same material under another label. Fresh nonces on both sides
 * make a recorded handshake useless on another connection; the ids stop a proof for one pair of machines from being
 * replayed as another; the per-port prefix of the labels stops a proof made for one kind of port from being relayed
 * to the other.
 *
 * <pre>{@code
 * byte[] serverNonce = Handshake.nonce();                       // sent by the server
 * byte[] clientNonce = Handshake.nonce();                       // sent back by the client, with:
 * byte[] proof = Handshake.CLIENT_PORT.clientProof(secret, serverNonce, clientNonce, Handshake.CLIENT_ID, 2);
 * boolean admitted = Handshake.matches(proof,
 *     Handshake.CLIENT_PORT.clientProof(secret, serverNonce, clientNonce, Handshake.CLIENT_ID, 2));
 * }</pre>
 */
public final class Handshake {
    /** The fabric port: machines proving themselves to each other. */
    public static final Handshake FABRIC = new Handshake("pragh-fabric-v1");
    /** The client RPC port: a client (not a machine) proving itself to a machine, and the machine to it. */
    public static final Handshake CLIENT_PORT = new Handshake("pragh-client-v1");
    /** The id a client that is not a machine of the cluster proves itself under (no machine id reaches it). */
    public static final int CLIENT_ID = 0xFFFF;
    public static final int NONCE_BYTES = Frame.NONCE_BYTES;
    public static final int MAC_BYTES = Frame.MAC_BYTES;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] clientLabel;
    private final byte[] serverLabel;

    private Handshake(String port) {
        this.clientLabel = (port + " client").getBytes(StandardCharsets.US_ASCII);
        this.serverLabel = (port + " server").getBytes(StandardCharsets.US_ASCII);
    }

    public static byte[] nonce() {
        byte[] n = new byte[NONCE_BYTES];
        RANDOM.nextBytes(n);
        return n;
    }

    static byte[] bytes(ByteBuf in, int index, int length) {
        byte[] b = new byte[length];
        in.getBytes(index, b);
        return b;
    }

    private static byte[] ids(int client, int server) {
        return new byte[] {(byte) (client >>> 8), (byte) client, (byte) (server >>> 8), (byte) server};
    }

    /** What the client sends to prove it holds the secret. */
    public byte[] clientProof(ClusterSecret secret, byte[] serverNonce, byte[] clientNonce, int client, int server) {
        return secret.mac(clientLabel, serverNonce, clientNonce, ids(client, server));
    }

    /** What the server answers to prove it holds the secret too. */
    public byte[] serverProof(ClusterSecret secret, byte[] serverNonce, byte[] clientNonce, int client, int server) {
        return secret.mac(serverLabel, serverNonce, clientNonce, ids(client, server));
    }

    /** Whether a received proof is the expected one; constant-time, so a forger learns nothing from the timing. */
    public static boolean matches(byte[] received, byte[] expected) {
        return ClusterSecret.sameMac(received, expected);
    }
}
