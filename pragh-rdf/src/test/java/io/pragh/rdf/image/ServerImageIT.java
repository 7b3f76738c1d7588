package io.pragh.rdf.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pragh.gremlin.distributed.ClientPortGraphStore;
import io.pragh.gremlin.distributed.ClusterFileLoad;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.rdf.load.RdfLoad;
import io.pragh.rdf.store.RdfStore;
import io.pragh.server.cli.ServerCommand;
import io.pragh.server.config.ClusterConfig;
import io.pragh.server.rpc.MachineClient;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.remote.DriverRemoteConnection;
import org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.T;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's container image, as Jib wrote it in the build ({@code pragh-server-image.tar}, an OCI image layout):
 * its index, manifest and config say what the compose file and users rely on (the name, the entry point, the user,
 * ports, volume), every blob is the one its digest names, and its layers hold a runtime that runs. No Docker engine
 * runs here, so the layers are unpacked into a directory and the entry point is run from it the way a container would
 * run it: the image's own dynamic loader and libraries, the image's Java, the image's class path; the server it starts
 * answers Gremlin, its metrics, and SPARQL over what {@code ./pragh rdf load --server} loaded through its client port.
 */
class ServerImageIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MAIN = ServerCommand.class.getName();

    private static Path tar;
    private static Map<String, byte[]> files;
    private static JsonNode manifest;
    private static JsonNode config;

    @BeforeAll
    static void readImage() throws IOException {
        tar = Path.of(System.getProperty("pragh.image.tar", "target/pragh-server-image.tar"));
        assertTrue(Files.isRegularFile(tar), "the build wrote no image tarball at " + tar);
        files = new HashMap<>();
        try (TarArchiveInputStream in = new TarArchiveInputStream(Files.newInputStream(tar))) {
            for (TarArchiveEntry e = in.getNextTarEntry(); e != null; e = in.getNextTarEntry()) {
                if (e.isFile()) {
                    files.put(e.getName(), in.readAllBytes());
                }
            }
        }
        final JsonNode index = JSON.readTree(file("index.json"));
        assertEquals(1, index.get("manifests").size(), "one image in the tarball");
        manifest = JSON.readTree(blob(index.get("manifests").get(0).get("digest").asText()));
        config = JSON.readTree(blob(manifest.get("config").get("digest").asText()));
    }

    @Test
    void isAnOciImageLayoutNamedForTheComposeFile() throws IOException {
        assertEquals("1.0.0", JSON.readTree(file("oci-layout")).get("imageLayoutVersion").asText());
        final JsonNode entry = JSON.readTree(file("index.json")).get("manifests").get(0);
        assertEquals("application/vnd.oci.image.manifest.v1+json", entry.get("mediaType").asText());
        final String name = System.getProperty("pragh.image.name");
        assertNotNull(name, "the build passes the image's name");
        assertEquals(name, entry.get("annotations").get("org.opencontainers.image.ref.name").asText());
        final String compose = Files.readString(Path.of("..", "docker", "compose.yaml"));
        assertTrue(compose.contains("image: " + name), "docker/compose.yaml runs " + name);
    }

    @Test
    void everyBlobMatchesItsDigestAndSize() throws Exception {
        final List<JsonNode> described = new ArrayList<>();
        described.add(manifest.get("config"));
        manifest.get("layers").forEach(described::add);
        for (JsonNode d : described) {
            final byte[] bytes = blob(d.get("digest").asText());
            assertEquals(d.get("size").asLong(), bytes.length, "size of " + d.get("digest").asText());
            final String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
            assertEquals(d.get("digest").asText(), "sha256:" + sha);
        }
    }

    @Test
    void configRunsTheServerAsAnUnprivilegedUserWithItsPortsAndVolume() {
        final JsonNode c = config.get("config");
        final List<String> entrypoint = strings(c.get("Entrypoint"));
        assertEquals("/opt/java/bin/java", entrypoint.get(0));
        assertEquals(MAIN, entrypoint.get(entrypoint.size() - 1));
        assertTrue(entrypoint.containsAll(List.of("--add-opens", "java.base/java.nio=ALL-UNNAMED")), "JDK opens");
        assertEquals("10001:0", c.get("User").asText(), "not root");
        final Set<String> ports = new HashSet<>();
        c.get("ExposedPorts").fieldNames().forEachRemaining(ports::add);
        assertEquals(Set.of("7400/tcp", "7500/tcp", "8182/tcp", "8190/tcp", "8191/tcp", "8192/tcp", "9400/tcp",
            "9401/tcp", "9402/tcp"), ports);
        assertTrue(c.get("Volumes").has("/var/lib/pragh"));
        assertEquals("/var/lib/pragh", c.get("WorkingDir").asText());
        final List<String> env = strings(c.get("Env"));
        assertTrue(env.contains(ServerCommand.ENV_CONFIG + "=/etc/pragh/cluster.yaml"), env.toString());
        assertTrue(env.contains(ServerCommand.ENV_ID + "=0"), env.toString());
        assertEquals("linux", config.get("os").asText());
        assertEquals("amd64", config.get("architecture").asText());
    }

    @Test
    void layersHoldTheRuntimeAndTheWholeServerClassPath(@TempDir Path root) throws IOException {
        unpack(root);
        assertTrue(Files.isExecutable(root.resolve("opt/java/bin/java")), "the image's java is executable");
        assertTrue(Files.exists(root.resolve("lib64/ld-linux-x86-64.so.2")), "the image has its dynamic loader");
        assertTrue(Files.readString(root.resolve("etc/passwd")).contains(":10001:"), "the user has a name");
        final Set<PosixFilePermission> data = Files.getPosixFilePermissions(root.resolve("var/lib/pragh"));
        assertTrue(data.contains(PosixFilePermission.GROUP_WRITE), "group 0 may write the data directory");
        // Every jar of the class path './pragh server' runs is in the image, by name.
        final Path classpath = Path.of("target", "classpath.txt");
        assertTrue(Files.isRegularFile(classpath), "the build writes the module's class path");
        for (String jar : Files.readString(classpath).trim().split(":")) {
            final String name = Path.of(jar).getFileName().toString();
            assertTrue(Files.exists(root.resolve("app/libs").resolve(name)), name + " is in /app/libs");
        }
        assertTrue(Files.isDirectory(root.resolve("app/classes/io/pragh/rdf")), "this module's classes");
        assertTrue(Files.readString(root.resolve("app/resources/META-INF/services/io.pragh.server.frontend.FrontEnd"))
            .contains("SparqlFrontEnd"), "the SPARQL front end is found where the server looks");
    }

    @Test
    void entrypointServesGremlinAndSparqlFromTheImagesOwnRuntime(@TempDir Path root) throws Exception {
        unpack(root);
        final int fabric = freePort();
        final int gremlin = freePort();
        final int client = freePort();
        final int metrics = freePort();
        final int sparql = freePort();
        final Path secret = root.resolve("cluster-secret");
        final byte[] key = new byte[32];
        new java.security.SecureRandom().nextBytes(key);
        Files.writeString(secret, java.util.Base64.getEncoder().encodeToString(key));
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        final Path yaml = root.resolve("cluster.yaml");
        Files.writeString(yaml, String.join("\n",
            "machines:",
            "  - {id: 0, host: 127.0.0.1, fabricPort: " + fabric + ", gremlinPort: " + gremlin + ", clientPort: "
                + client + "}",
            "store: {expectedKeys: 4096, valueBytes: 16MiB, chunkBytes: 16MiB, cacheBytes: 1MiB}",
            "dataDirectory: " + root.resolve("data"),
            "security: {clusterSecretFile: " + secret + "}",
            "metrics: {port: " + metrics + "}",
            "sparql: {port: " + sparql + "}",
            ""));
        // The entry point as the container runs it, its absolute paths under the unpacked root, started through the
        // image's own loader and libraries, so nothing of this host's Java or libraries is used.
        final List<String> command = new ArrayList<>();
        command.add(root.resolve("lib64/ld-linux-x86-64.so.2").toString());
        command.add("--library-path");
        command.add(root.resolve("lib/x86_64-linux-gnu").toString());
        for (String arg : strings(config.get("config").get("Entrypoint"))) {
            command.add(arg.startsWith("/") ? rooted(root, arg) : arg);
        }
        command.add("--parent-pid");
        command.add(Long.toString(ProcessHandle.current().pid()));
        final ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put(ServerCommand.ENV_CONFIG, yaml.toString());
        pb.environment().put(ServerCommand.ENV_ID, "0");
        pb.environment().put("JDK_JAVA_OPTIONS", "-Xmx256m");
        final Process server = pb.start();
        try {
            awaitReady(server);
            final Cluster cluster = Cluster.build("127.0.0.1").port(gremlin).create();
            try (GraphTraversalSource g = AnonymousTraversalSource.traversal()
                     .withRemote(DriverRemoteConnection.using(cluster))) {
                assertEquals(0L, g.V().count().next());
                g.addV("person").property(T.id, 7L).iterate();
                assertEquals(List.of("person"), g.V(7L).label().toList());
            } finally {
                cluster.close();
            }
            final HttpResponse<String> scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + metrics + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, scrape.statusCode());
            assertTrue(scrape.body().contains("pragh_"), "the image's server serves its metrics");
            loadThroughClientPort(root, yaml, client);
            final HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + sparql + "/sparql"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("query=" + java.net.URLEncoder.encode(
                    "SELECT ?o WHERE { <http://example.org/a> <http://example.org/p> ?o }", StandardCharsets.UTF_8)))
                .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, answer.statusCode(), answer.body());
            assertTrue(answer.body().contains("http://example.org/b"), "the image's server answers SPARQL over what"
                + " was loaded: " + answer.body());
        } finally {
            server.destroy();
            if (!server.waitFor(30, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }

    /** A two-triple file into the image's server, as {@code ./pragh rdf load FILE --server} loads it. */
    private static void loadThroughClientPort(final Path root, final Path yaml, final int client) throws IOException {
        final Path file = root.resolve("two.nt");
        Files.writeString(file, "<http://example.org/a> <http://example.org/p> <http://example.org/b> .\n"
            + "<http://example.org/b> <http://example.org/p> \"c\" .\n");
        final ClusterConfig config = ClusterConfig.load(yaml);
        try (GraphStore store = new ClientPortGraphStore(new MachineClient(ClusterFileLoad.address("127.0.0.1:"
            + client), 60_000, config.secret(), config.tls()))) {
            assertEquals(2, RdfLoad.into(new RdfStore(store)).load(file).triples());
        }
    }

    private static void awaitReady(final Process server) throws InterruptedException {
        final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        final StringBuilder output = new StringBuilder();
        final Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(server.getInputStream(),
                StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    lines.add(line);
                }
            } catch (IOException e) {
                lines.add("(output ended: " + e.getMessage() + ")");
            }
        }, "image-server-output");
        reader.setDaemon(true);
        reader.start();
        // Generous: the server starts in seconds, but a loaded machine must not fail this.
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (System.nanoTime() < deadline) {
            final String line = lines.poll(1, TimeUnit.SECONDS);
            if (line != null) {
                output.append(line).append('\n');
                if (line.startsWith(ServerCommand.READY)) {
                    return;
                }
            } else if (!server.isAlive() && lines.isEmpty()) {
                fail("the image's entry point exited " + server.exitValue() + " before serving:\n" + output);
            }
        }
        fail("the image's entry point did not serve within 3 minutes:\n" + output);
    }

    /** Rewrites an absolute path of the image (or a class path of them) to the unpacked root. */
    private static String rooted(final Path root, final String arg) {
        final List<String> parts = new ArrayList<>();
        for (String p : arg.split(":")) {
            parts.add(root + p);
        }
        return String.join(":", parts);
    }

    private static void unpack(final Path root) throws IOException {
        for (JsonNode layer : manifest.get("layers")) {
            assertEquals("application/vnd.oci.image.layer.v1.tar+gzip", layer.get("mediaType").asText());
            try (InputStream gz = new GZIPInputStream(new java.io.ByteArrayInputStream(
                     blob(layer.get("digest").asText())));
                 TarArchiveInputStream in = new TarArchiveInputStream(gz)) {
                for (TarArchiveEntry e = in.getNextTarEntry(); e != null; e = in.getNextTarEntry()) {
                    final Path to = root.resolve(e.getName()).normalize();
                    assertTrue(to.startsWith(root), "layer entry escapes the root: " + e.getName());
                    if (e.isDirectory()) {
                        Files.createDirectories(to);
                    } else if (e.isSymbolicLink()) {
                        Files.createDirectories(to.getParent());
                        Files.deleteIfExists(to);
                        Files.createSymbolicLink(to, Path.of(e.getLinkName()));
                        continue;
                    } else {
                        Files.createDirectories(to.getParent());
                        Files.copy(in, to, StandardCopyOption.REPLACE_EXISTING);
                    }
                    Files.setPosixFilePermissions(to, permissions(e.getMode()));
                }
            }
        }
    }

    private static Set<PosixFilePermission> permissions(final int mode) {
        final StringBuilder s = new StringBuilder();
        final String rwx = "rwxrwxrwx";
        for (int i = 0; i < 9; i++) {
            s.append((mode & (1 << (8 - i))) != 0 ? rwx.charAt(i) : '-');
        }
        return PosixFilePermissions.fromString(s.toString());
    }

    private static List<String> strings(final JsonNode array) {
        final List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static byte[] file(final String name) {
        final byte[] bytes = files.get(name);
        assertNotNull(bytes, "the tarball has no " + name);
        return bytes;
    }

    private static byte[] blob(final String digest) {
        return file("blobs/" + digest.replace(':', '/'));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
