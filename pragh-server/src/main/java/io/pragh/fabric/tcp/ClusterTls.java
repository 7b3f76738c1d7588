package io.pragh.fabric.tcp;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.Base64;
import java.util.Collection;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;

/**
 * Mutual TLS for the cluster's ports: this machine's certificate chain and key, and the one CA it trusts. Both ends
 * of every connection present a certificate signed by that CA, or the handshake fails (TLS 1.3 only, the JDK's
 * provider through Netty's {@link SslContext}). No host name is checked: a certificate from the cluster's CA is the
 * identity, whichever machine holds it. The PEM files are read and checked once, when this object is made, so a
 * missing file, a key that is not PKCS#8 or a key that does not match the certificate fails the start with an
 * {@link InvalidPem} naming the file at fault.
 *
 * <pre>{@code
 * ClusterTls tls = ClusterTls.fromPem(Path.of("node.pem"), Path.of("node-key.pem"), Path.of("ca.pem"));
 * TcpFabric fabric = new TcpFabric(0, machines, secret, TcpFabricOptions.defaults(), tls);
 * }</pre>
 */
public final class ClusterTls {
    public static final String PROTOCOL = "TLSv1.3";
    private static final String[] PROTOCOLS = {PROTOCOL};
    private static final Pattern PEM = Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([^-]*)-----END \\1-----");

    /** Which of the three PEM inputs a problem is with. */
    public enum Part {
        CERTIFICATE, KEY, TRUST
    }

    /** A PEM input that cannot be used, and why; {@link #part()} says which. */
    public static final class InvalidPem extends IllegalArgumentException {
        private final Part part;

        InvalidPem(Part part, String reason, Throwable cause) {
            super(reason, cause);
            this.part = part;
        }

        public Part part() {
            return part;
        }
    }

    private final SslContext server;
    private final SslContext client;

    private ClusterTls(SslContext server, SslContext client) {
        this.server = server;
        this.client = client;
    }

    /**
     * Reads this machine's certificate chain (PEM, leaf first), its unencrypted PKCS#8 private key (PEM
     * {@code BEGIN PRIVATE KEY}) and the CA certificate(s) to trust (PEM).
     */
    public static ClusterTls fromPem(Path certificate, Path key, Path trust) {
        X509Certificate[] chain = certificates(Part.CERTIFICATE, certificate);
        PrivateKey privateKey = privateKey(key);
        requireMatch(privateKey, chain[0], key, certificate);
        X509Certificate[] authorities = certificates(Part.TRUST, trust);
        try {
            SslContext server = SslContextBuilder.forServer(privateKey, chain)
                .trustManager(authorities).clientAuth(ClientAuth.REQUIRE)
                .sslProvider(SslProvider.JDK).protocols(PROTOCOLS).build();
            SslContext client = SslContextBuilder.forClient().keyManager(privateKey, chain)
                .trustManager(authorities)
                .sslProvider(SslProvider.JDK).protocols(PROTOCOLS).build();
            return new ClusterTls(server, client);
        } catch (SSLException | IllegalArgumentException e) {
            throw new InvalidPem(Part.CERTIFICATE, "cannot make a TLS context from " + certificate + " and " + key
                + ": " + e.getMessage(), e);
        }
    }

    /** A handler for the accepting end of a connection; it demands the peer's certificate. */
    public SslHandler serverHandler(ByteBufAllocator alloc, Duration handshakeTimeout) {
        SslHandler h = server.newHandler(alloc);
        h.setHandshakeTimeoutMillis(handshakeTimeout.toMillis());
        return h;
    }

    /** A handler for the connecting end; it presents this machine's certificate. */
    public SslHandler clientHandler(ByteBufAllocator alloc, InetSocketAddress peer, Duration handshakeTimeout) {
        SslHandler h = client.newHandler(alloc, peer.getHostString(), peer.getPort());
        h.setHandshakeTimeoutMillis(handshakeTimeout.toMillis());
        return h;
    }

    /**
     * Wraps a connected blocking socket in TLS and completes the handshake: the client side for
     * {@code io.pragh.server.rpc.MachineClient}, with the same keys, trust and protocol as the Netty handlers.
     */
    public SSLSocket wrap(Socket connected, InetSocketAddress peer) throws IOException {
        SSLSocket s = (SSLSocket) ((JdkSslContext) client).context().getSocketFactory()
            .createSocket(connected, peer.getHostString(), peer.getPort(), true);
        s.setUseClientMode(true);
        s.setEnabledProtocols(PROTOCOLS);
        s.startHandshake();
        return s;
    }

    // ---------------------------------------------------------------- reading PEM

    private static String read(Part part, Path file) {
        if (!Files.isRegularFile(file)) {
            throw new InvalidPem(part, file + " does not exist or is not a file", null);
        }
        try {
            return Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new InvalidPem(part, "cannot read " + file + ": " + e, e);
        }
    }

    private static X509Certificate[] certificates(Part part, Path file) {
        String text = read(part, file);
        if (!text.contains("-----BEGIN CERTIFICATE-----")) {
            throw new InvalidPem(part, file + " holds no PEM certificate (BEGIN CERTIFICATE)", null);
        }
        Collection<? extends Certificate> certs;
        try {
            certs = CertificateFactory.getInstance("X.509")
                .generateCertificates(new ByteArrayInputStream(text.getBytes(StandardCharsets.US_ASCII)));
        } catch (CertificateException e) {
            throw new InvalidPem(part, file + " holds an unreadable certificate: " + e.getMessage(), e);
        }
        if (certs.isEmpty()) {
            throw new InvalidPem(part, file + " holds no certificate", null);
        }
        return certs.stream().map(X509Certificate.class::cast).toArray(X509Certificate[]::new);
    }

    private static PrivateKey privateKey(Path file) {
        String text = read(Part.KEY, file);
        Matcher m = PEM.matcher(text);
        if (!m.find()) {
            throw new InvalidPem(Part.KEY, file + " holds no PEM block", null);
        }
        String type = m.group(1);
        if (!type.equals("PRIVATE KEY")) {
            String hint = type.equals("ENCRYPTED PRIVATE KEY") ? "an encrypted key; store it unencrypted (protect"
                + " the file instead)" : "a '" + type + "' block";
            throw new InvalidPem(Part.KEY, file + " holds " + hint + ", not an unencrypted PKCS#8 key (BEGIN PRIVATE"
                + " KEY); convert with: openssl pkcs8 -topk8 -nocrypt -in KEY", null);
        }
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(m.group(2).strip());
        } catch (IllegalArgumentException e) {
            throw new InvalidPem(Part.KEY, file + " holds malformed base64: " + e.getMessage(), e);
        }
        for (String algorithm : new String[] {"EC", "RSA", "Ed25519", "DSA"}) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException wrongAlgorithm) {
                // try the next one: PKCS#8 names its algorithm, but KeyFactory must be picked before parsing
            }
        }
        throw new InvalidPem(Part.KEY, file + " holds a PKCS#8 block that is not an EC, RSA, Ed25519 or DSA key",
            null);
    }

    /** Signs with the key and verifies with the certificate: a key from another pair is caught at start. */
    private static void requireMatch(PrivateKey key, X509Certificate leaf, Path keyFile, Path certFile) {
        String algorithm = switch (key.getAlgorithm()) {
            case "EC" -> "SHA256withECDSA";
            case "RSA" -> "SHA256withRSA";
            case "DSA" -> "SHA256withDSA";
            default -> key.getAlgorithm();
        };
        boolean matches;
        try {
            byte[] probe = "pragh key check".getBytes(StandardCharsets.US_ASCII);
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(leaf.getPublicKey());
            verifier.update(probe);
            matches = verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            matches = false;
        }
        if (!matches) {
            throw new InvalidPem(Part.KEY, keyFile + " is not the private key of the certificate in " + certFile
                + " (" + leaf.getSubjectX500Principal() + ")", null);
        }
    }

    @Override
    public String toString() {
        return "ClusterTls[" + PROTOCOL + ", mutual]";
    }
}
