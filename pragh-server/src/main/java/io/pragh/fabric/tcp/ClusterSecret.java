package io.pragh.fabric.tcp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The shared secret every machine of a cluster holds; a peer is admitted to a fabric port only after proving it
 * knows the secret (an HMAC-SHA256 over fresh nonces, see {@link Handshake}). The secret never travels and never
 * appears in {@link #toString()} or an error message.
 *
 * <pre>{@code
 * ClusterSecret secret = ClusterSecret.fromFile(Path.of("/etc/pragh/secret"));
 * TcpFabric fabric = new TcpFabric(0, machines, secret);
 * }</pre>
 */
public final class ClusterSecret {
    /** 128 bits: shorter secrets are refused as guessable. */
    public static final int MIN_BYTES = 16;
    private static final String ALGORITHM = "HmacSHA256";

    private final byte[] key;

    private ClusterSecret(byte[] key) {
        if (key.length < MIN_BYTES) {
            throw new IllegalArgumentException("a cluster secret needs at least " + MIN_BYTES + " bytes, got "
                + key.length);
        }
        this.key = key;
    }

    public static ClusterSecret of(byte[] key) {
        return new ClusterSecret(key.clone());
    }

    public static ClusterSecret fromString(String secret) {
        return new ClusterSecret(secret.getBytes(StandardCharsets.UTF_8));
    }

    /** Reads a secret file; surrounding whitespace (a trailing newline) is not part of the secret. */
    public static ClusterSecret fromFile(Path file) throws IOException {
        return fromString(Files.readString(file, StandardCharsets.UTF_8).strip());
    }

    /** HMAC-SHA256 of the concatenated parts under this secret. */
    byte[] mac(byte[]... parts) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(key, ALGORITHM));
            for (byte[] p : parts) {
                mac.update(p);
            }
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM cannot compute " + ALGORITHM, e);
        }
    }

    /**
     * A password for {@code purpose} that only holders of the secret can compute (hex HMAC-SHA256 of the purpose), so
     * machines can log in to each other's other ports without a second secret to distribute; distinct purposes give
     * unrelated passwords, and none reveals the secret.
     */
    public String derivePassword(String purpose) {
        return java.util.HexFormat.of().formatHex(mac(("pragh password: " + purpose).getBytes(StandardCharsets.UTF_8)));
    }

    /** Constant-time comparison, so that a forger learns nothing from how fast a wrong MAC is refused. */
    static boolean sameMac(byte[] a, byte[] b) {
        return MessageDigest.isEqual(a, b);
    }

    @Override
    public String toString() {
        return "ClusterSecret[" + key.length + " bytes, redacted]";
    }
}
