package io.pragh.fabric.tcp;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway certificate authority and one node certificate signed by it, for a local cluster on one host
 * ({@code ./pragh cluster start --tls}) and for tests; not for production, where the operator's own CA issues the
 * certificates. Made with the JDK's {@code keytool} run as a process: the JDK has no public API that signs a
 * certificate, Netty's {@code SelfSignedCertificate} makes only self-signed ones (no CA) and needs BouncyCastle or
 * JDK internals, and keytool ships with every JDK. The node key is taken out of keytool's PKCS#12 store with the
 * {@link KeyStore} API and written as PKCS#8 PEM, the form {@link ClusterTls} reads.
 *
 * <pre>{@code
 * DevCertificates certs = DevCertificates.create(dir);
 * ClusterTls tls = ClusterTls.fromPem(certs.certificate(), certs.key(), certs.trust());
 * }</pre>
 *
 * @param certificate the node certificate (PEM)
 * @param key         its private key (PKCS#8 PEM)
 * @param trust       the CA certificate (PEM)
 */
public record DevCertificates(Path certificate, Path key, Path trust) {
    /** The stores live only in {@code dir} and only until the PEM files are written; the password guards nothing. */
    private static final String STORE_PASSWORD = "pragh-dev";
    /**
     * Each keytool run is a new JVM: quiet it takes about a second, but a new JVM's start on a host starved of CPU
     * was seen to take from 20 s to more than 100 s (tests beside a CPU hog); the bound is for a keytool that hangs.
     */
    private static final long KEYTOOL_TIMEOUT_SECONDS = 600;

    /** Makes {@code ca.pem}, {@code node.pem} and {@code node-key.pem} in {@code dir} (created if needed). */
    public static DevCertificates create(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path caStore = dir.resolve("ca.p12");
        Path nodeStore = dir.resolve("node.p12");
        Path request = dir.resolve("node.csr");
        DevCertificates out = new DevCertificates(dir.resolve("node.pem"), dir.resolve("node-key.pem"),
            dir.resolve("ca.pem"));
        keytool("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "3650",
            "-dname", "CN=pragh dev CA", "-ext", "bc:c", "-keystore", caStore.toString());
        keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", caStore.toString(), "-file",
            out.trust().toString());
        keytool("-genkeypair", "-alias", "node", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "3650",
            "-dname", "CN=pragh node", "-keystore", nodeStore.toString());
        keytool("-certreq", "-alias", "node", "-keystore", nodeStore.toString(), "-file", request.toString());
        keytool("-gencert", "-rfc", "-alias", "ca", "-keystore", caStore.toString(), "-validity", "3650",
            "-ext", "eku=serverAuth,clientAuth", "-infile", request.toString(), "-outfile",
            out.certificate().toString());
        PrivateFiles.writeString(out.key(), pkcs8Pem(nodeStore));
        PrivateFiles.restrict(caStore); // the CA's private key: whoever reads it can mint node certificates
        Files.delete(request);
        Files.delete(nodeStore);
        return out;
    }

    private static String pkcs8Pem(Path store) throws IOException {
        try (InputStream in = Files.newInputStream(store)) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, STORE_PASSWORD.toCharArray());
            Key k = ks.getKey("node", STORE_PASSWORD.toCharArray());
            // A PrivateKey's encoded form is PKCS#8 by the JCA's contract.
            return "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(k.getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot take the node key out of " + store + ": " + e, e);
        }
    }

    private static void keytool(String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        cmd.addAll(List.of(args));
        cmd.addAll(List.of("-storetype", "PKCS12", "-storepass", STORE_PASSWORD, "-noprompt"));
        // keytool is a short JVM run: the quick JIT tier and serial GC start it sooner on a busy host.
        cmd.addAll(List.of("-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(KEYTOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("keytool " + args[0] + " did not finish within " + KEYTOOL_TIMEOUT_SECONDS
                    + " s");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running keytool " + args[0], e);
        }
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException("keytool " + String.join(" ", args) + " failed (exit " + p.exitValue() + "): "
                + output.strip());
        }
    }
}
