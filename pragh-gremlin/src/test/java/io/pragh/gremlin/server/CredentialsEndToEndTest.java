package io.pragh.gremlin.server;

import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.exception.ResponseException;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --credentials FILE}: the right password answers, a wrong one and none are refused, and no password reaches
 * the output. One server runs as {@code ./pragh serve} runs it: its own JVM, with the launcher's JDK options only
 * (the test JVM opens more, which once hid a start-up failure of logins).
 */
class CredentialsEndToEndTest {
    private static final String PASSWORD = "correct horse battery staple";
    private static final String WRONG = "Tr0ub4dor&3";

    @TempDir
    Path dir;

    private Path credentials() throws IOException {
        return Files.writeString(dir.resolve("users.txt"), "# users of the test\nalice:" + PASSWORD + "\nbob:other:colon\n");
    }

    /** The answer of {@code g.inject(1)} through a driver logged in as user/password (none when null). */
    private static long injectOne(final int port, final String user, final String password) throws Exception {
        final Cluster.Builder builder = Cluster.build("127.0.0.1").port(port);
        if (user != null) {
            builder.credentials(user, password);
        }
        final Cluster cluster = builder.create();
        try {
            return cluster.connect().submit("g.inject(1L)",
                org.apache.tinkerpop.gremlin.driver.RequestOptions.build().language("gremlin-lang").create())
                .one().getLong();
        } finally {
            cluster.close();
        }
    }

    private static ResponseException refusedLogin(final int port, final String user, final String password) {
        final Exception e = assertThrows(Exception.class, () -> injectOne(port, user, password));
        Throwable c = e;
        while (c != null && !(c instanceof ResponseException)) {
            c = c.getCause();
        }
        assertTrue(c instanceof ResponseException, "not refused by the server: " + e);
        return (ResponseException) c;
    }

    private static void rightWrongAndNone(final int port) {
        assertEquals(1L, assertDoesNotThrow(() -> injectOne(port, "alice", PASSWORD)));
        assertEquals(1L, assertDoesNotThrow(() -> injectOne(port, "bob", "other:colon")));
        for (final String[] login : new String[][] {{"alice", WRONG}, {"mallory", PASSWORD}, {"alice", ""}}) {
            final ResponseException r = refusedLogin(port, login[0], login[1]);
            assertEquals(ResponseStatusCode.UNAUTHORIZED, r.getResponseStatusCode(), r.getMessage());
            assertEquals("Username and/or password are incorrect", r.getMessage());
        }
        // Without credentials the server answers the request with its AUTHENTICATE challenge and runs nothing; the
        // Java driver, with nothing to answer it with, ends the exchange itself (python_credentials.py shows the
        // server's 401 to a client that answers without a password).
        final ResponseException none = refusedLogin(port, null, null);
        assertEquals(ResponseStatusCode.FORBIDDEN, none.getResponseStatusCode(), none.getMessage());
    }

    private static <T> T assertDoesNotThrow(final org.junit.jupiter.api.function.ThrowingSupplier<T> s) {
        return org.junit.jupiter.api.Assertions.assertDoesNotThrow(s);
    }

    @Test
    void rightPasswordAnswersWrongOrNoneIsRefused() throws Exception {
        final ServeOptions options = new ServeOptions();
        options.credentials = credentials().toFile();
        try (ServedGraph served = new ServedGraph(options)) {
            rightWrongAndNone(served.port);
        }
    }

    @Test
    void aBadCredentialsFileIsRefusedNamingItsLineButNotItsPasswords() throws Exception {
        final Path bad = Files.writeString(dir.resolve("bad.txt"), "alice:" + PASSWORD + "\nno-colon-here\n");
        final IOException e = assertThrows(IOException.class, () -> PasswordFileAuthenticator.read(bad));
        assertEquals(bad + " line 2: expected 'user:password'", e.getMessage());
        final Path twice = Files.writeString(dir.resolve("twice.txt"), "alice:" + PASSWORD + "\nalice:" + WRONG + "\n");
        final String message = assertThrows(IOException.class, () -> PasswordFileAuthenticator.read(twice)).getMessage();
        assertTrue(message.contains("line 2") && !message.contains(PASSWORD) && !message.contains(WRONG), message);
        final Path peer = Files.writeString(dir.resolve("peer.txt"), PasswordFileAuthenticator.PEER_USER + ":x\n");
        assertTrue(assertThrows(IOException.class, () -> PasswordFileAuthenticator.read(peer)).getMessage()
            .contains("reserved"));
    }

    /** The launcher's JDK options, read from {@code ./pragh}, so the test runs what users run. */
    private static List<String> launcherJavaOptions() throws IOException {
        final String launcher = Files.readString(Path.of(System.getProperty("user.dir")).getParent().resolve("pragh"));
        final Matcher m = Pattern.compile("JAVA_OPENS=\\(([^)]*)\\)").matcher(launcher);
        assertTrue(m.find(), "./pragh defines no JAVA_OPENS");
        return List.of(m.group(1).trim().split("\\s+"));
    }

    @Test
    void servedAsThePraghLauncherRunsItLoginsWorkAndNoPasswordIsLogged() throws Exception {
        final int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(launcherJavaOptions());
        // ./pragh's logging, the server module's (the test class path also holds the tests' own logback-test.xml)
        command.add("-Dlogback.configurationFile="
            + new File("../pragh-server/src/main/resources/logback.xml").getAbsolutePath());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ServeCommand.class.getName(),
            "--port", Integer.toString(port), "--metrics-port", "0", "--machines", "2",
            "--credentials", credentials().toString()));
        final Process serve = new ProcessBuilder(command).redirectErrorStream(true).start();
        final StringBuffer output = new StringBuffer();
        final CountDownLatch ready = new CountDownLatch(1);
        final Thread reader = new Thread(() -> copy(serve.getInputStream(), output, ready), "serve-output");
        reader.start();
        try {
            // A new JVM's start beside a CPU hog is what takes long: the bound ServeProcess explains.
            if (!ready.await(ServeProcess.STARVED_BOUND_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError("./pragh serve --credentials did not start within "
                    + ServeProcess.STARVED_BOUND_SECONDS + " s:\n" + output);
            }
            rightWrongAndNone(port);
        } finally {
            serve.destroy(); // SIGTERM: the shutdown hook stops the server
            if (!serve.waitFor(60, TimeUnit.SECONDS)) {
                serve.destroyForcibly();
            }
            reader.join(10_000);
        }
        final String log = output.toString();
        assertTrue(log.contains("connect to ws://127.0.0.1:" + port), log);
        for (final String secret : new String[] {PASSWORD, WRONG, "other:colon"}) {
            assertFalse(log.contains(secret), "a password was logged:\n" + log);
            final String sasl = Base64.getEncoder().encodeToString(("\0alice\0" + secret).getBytes(StandardCharsets.UTF_8));
            assertFalse(log.contains(sasl), "a SASL response was logged:\n" + log);
        }
    }

    private static void copy(final InputStream in, final StringBuffer output, final CountDownLatch ready) {
        try (var lines = new java.io.BufferedReader(new java.io.InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                output.append(line).append('\n');
                if (line.contains("connect to ws://")) {
                    ready.countDown();
                }
            }
        } catch (IOException e) {
            output.append("(output lost: ").append(e.getMessage()).append(")\n");
        }
    }
}
