package io.pragh.fabric.tcp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Two unrelated throwaway CAs with a node certificate each, made once per test JVM (keytool takes a second or so
 * per step): {@link #cluster()} is the cluster's, {@link #stranger()} an outsider's. Deleted when the JVM exits.
 */
final class TestCertificates {
    private static DevCertificates cluster;
    private static DevCertificates stranger;

    private TestCertificates() {
    }

    static synchronized DevCertificates cluster() {
        if (cluster == null) {
            cluster = make("cluster");
        }
        return cluster;
    }

    static synchronized DevCertificates stranger() {
        if (stranger == null) {
            stranger = make("stranger");
        }
        return stranger;
    }

    static ClusterTls clusterTls() {
        DevCertificates c = cluster();
        return ClusterTls.fromPem(c.certificate(), c.key(), c.trust());
    }

    private static DevCertificates make(String name) {
        try {
            Path dir = Files.createTempDirectory("pragh-tls-" + name);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir)));
            return DevCertificates.create(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temp dir left behind is harmless
        }
    }
}
