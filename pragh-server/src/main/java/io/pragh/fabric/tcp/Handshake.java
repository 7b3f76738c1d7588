package io.pragh.fabric.tcp;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;

/**
 * Mutual proof of the cluster secret when a connection opens. The server greets with a fresh nonce (HELLO); the
 * client answers with its own nonce and an HMAC binding both nonces and both machine ids (AUTH); the server checks
 * it and proves itself with an HMAC over the same material under another label (AUTH_OK). Fresh nonces on both
 * sides make a recorded handshake useless on another connection; the ids stop a proof for one pair of machines from
 * being replayed as another.
 */
final class Handshake {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final byte[] CLIENT_LABEL = "pragh-fabric-v1 client".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SERVER_LABEL = "pragh-fabric-v1 server".getBytes(StandardCharsets.US_ASCII);

    private Handshake() {
    }

    static byte[] nonce() {
        byte[] n = new byte[Frame.NONCE_BYTES];
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
    static byte[] clientProof(ClusterSecret secret, byte[] serverNonce, byte[] clientNonce, int client, int server) {
        return secret.mac(CLIENT_LABEL, serverNonce, clientNonce, ids(client, server));
    }

    /** What the server answers to prove it holds the secret too. */
    static byte[] serverProof(ClusterSecret secret, byte[] serverNonce, byte[] clientNonce, int client, int server) {
        return secret.mac(SERVER_LABEL, serverNonce, clientNonce, ids(client, server));
    }
}
