package io.pragh.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.fabric.tcp.DevCertificates;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.util.Base64;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code security.tls} is optional; when present its three PEM files are read and checked at load, and any fault
 * (a missing file, a key that is not PKCS#8 or not the certificate's, a trust file without a certificate, a typo)
 * is refused naming its key.
 */
class TlsConfigTest {
    private static final String HEAD = """
        machines:
          - {id: 0, host: 127.0.0.1, fabricPort: 7400, gremlinPort: 8182}
        dataDirectory: data
        """;

    @TempDir
    static Path dir;
    private static DevCertificates certs;

    @BeforeAll
    static void makeCertificates() throws IOException {
        certs = DevCertificates.create(dir.resolve("tls"));
    }

    private static String security(String tls) {
        return HEAD + "security: {clusterSecret: \"a-cluster-secret-of-enough-bytes\", tls: " + tls + "}\n";
    }

    private static String tls(String certificate, String key, String trust) {
        return "{certificate: " + certificate + ", key: " + key + ", trust: " + trust + "}";
    }

    private static ClusterConfig parse(String yaml) {
        return ClusterConfig.parse(yaml, "cluster.yaml", dir);
    }

    private static void refused(String yaml, String key, String reasonPart) {
        ConfigException e = assertThrows(ConfigException.class, () -> parse(yaml));
        assertEquals(key, e.key(), e.getMessage());
        assertTrue(e.reason().contains(reasonPart), e.getMessage());
    }

    private static Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text, StandardCharsets.US_ASCII);
    }

    @Test
    void pemFilesNamedRelativeToTheConfigTurnTlsOn() {
        assertNotNull(parse(security(tls("tls/node.pem", "tls/node-key.pem", "tls/ca.pem"))).tls());
    }

    @Test
    void withoutATlsSectionThePortsRunWithoutTls() {
        assertNull(parse(HEAD + "security: {clusterSecret: \"a-cluster-secret-of-enough-bytes\"}\n").tls());
    }

    @Test
    void aMissingFileIsRefusedNamingItsKey() {
        refused(security(tls("tls/nowhere.pem", "tls/node-key.pem", "tls/ca.pem")), "security.tls.certificate",
            "does not exist");
        refused(security(tls("tls/node.pem", "tls/nowhere.pem", "tls/ca.pem")), "security.tls.key",
            "does not exist");
        refused(security(tls("tls/node.pem", "tls/node-key.pem", "tls/nowhere.pem")), "security.tls.trust",
            "does not exist");
    }

    @Test
    void aKeyThatIsNotUnencryptedPkcs8IsRefusedWithTheConversion() throws IOException {
        write("sec1.pem", "-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n");
        refused(security(tls("tls/node.pem", "sec1.pem", "tls/ca.pem")), "security.tls.key", "openssl pkcs8");
        write("encrypted.pem", "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n");
        refused(security(tls("tls/node.pem", "encrypted.pem", "tls/ca.pem")), "security.tls.key", "encrypted");
        write("junk.pem", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");
        refused(security(tls("tls/node.pem", "junk.pem", "tls/ca.pem")), "security.tls.key", "not an EC, RSA");
    }

    @Test
    void aKeyOfAnotherPairIsRefused() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(256);
        write("other-key.pem", "-----BEGIN PRIVATE KEY-----\n"
            + Base64.getMimeEncoder().encodeToString(g.generateKeyPair().getPrivate().getEncoded())
            + "\n-----END PRIVATE KEY-----\n");
        refused(security(tls("tls/node.pem", "other-key.pem", "tls/ca.pem")), "security.tls.key",
            "is not the private key of the certificate");
    }

    @Test
    void aCertificateOrTrustFileWithoutACertificateIsRefused() {
        refused(security(tls("tls/node-key.pem", "tls/node-key.pem", "tls/ca.pem")), "security.tls.certificate",
            "holds no PEM certificate");
        refused(security(tls("tls/node.pem", "tls/node-key.pem", "tls/node-key.pem")), "security.tls.trust",
            "holds no PEM certificate");
    }

    @Test
    void anIncompleteOrMisspelledTlsSectionIsRefused() {
        refused(security("{certificate: tls/node.pem, trust: tls/ca.pem}"), "security.tls.key", "required");
        refused(security("{cert: tls/node.pem}"), "security.tls.cert", "unknown key");
        refused(security("yes"), "security.tls", "expected a mapping");
    }
}
