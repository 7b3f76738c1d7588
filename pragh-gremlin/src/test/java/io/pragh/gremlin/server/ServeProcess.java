package io.pragh.gremlin.server;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./pragh serve} as a child process on this JVM's class path and module options, its output (stdout and
 * stderr) captured to a file; closing it kills the process. Small heap and a quick JIT: the tests only talk to it.
 *
 * <p>Example: {@code try (ServeProcess p = ServeProcess.start(dir, "--port", "0", "--metrics-port", "0")) { ... }}
 */
final class ServeProcess implements AutoCloseable {
    final Process process;
    final Path output;

    private ServeProcess(final Process process, final Path output) {
        this.process = process;
        this.output = output;
    }

    static ServeProcess start(final Path dir, final String... args) throws IOException {
        final List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        final List<String> in = ManagementFactory.getRuntimeMXBean().getInputArguments();
        for (int k = 0; k < in.size(); k++) {
            if (in.get(k).startsWith("--add-opens") || in.get(k).startsWith("--add-exports")) {
                cmd.add(in.get(k));
                if (!in.get(k).contains("=") && k + 1 < in.size()) {
                    cmd.add(in.get(++k));
                }
            }
        }
        cmd.addAll(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "-cp", System.getProperty("java.class.path"), ServeCommand.class.getName()));
        cmd.addAll(List.of(args));
        final Path output = Files.createTempFile(dir, "serve", ".out");
        final Process p = new ProcessBuilder(cmd).directory(new File(System.getProperty("user.dir")))
            .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        return new ServeProcess(p, output);
    }

    /** Waits for the process to exit (failing the test past {@code seconds}); returns its exit code. */
    int awaitExit(final long seconds) throws InterruptedException, IOException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            throw new AssertionError("serve did not exit within " + seconds + " s; its output:\n" + output()
                + "\nwhere it is:\n" + whereItIs());
        }
        return process.exitValue();
    }

    /**
     * What a process that will not exit is doing: its kernel state and, if the JVM still answers, its threads. A
     * refused start that printed its one line and then did not exit was seen once beside a CPU hog and never on a
     * quiet machine; this is what tells the next such failure apart (a JVM stuck in exit, a shutdown hook, the disk).
     */
    private String whereItIs() {
        final StringBuilder out = new StringBuilder();
        final long pid = process.pid();
        for (final String f : List.of("status", "wchan", "stack")) {
            try {
                final String text = Files.readString(Path.of("/proc", Long.toString(pid), f));
                out.append("/proc/").append(pid).append('/').append(f).append(": ")
                    .append(f.equals("status") ? text.lines().filter(l -> l.startsWith("State") || l.startsWith("Threads"))
                        .reduce("", (a, b) -> a + b + "; ") : text.strip()).append('\n');
            } catch (IOException | RuntimeException e) {
                out.append("/proc/").append(pid).append('/').append(f).append(": ").append(e).append('\n');
            }
        }
        try {
            final Path dump = Files.createTempFile(output.getParent(), "threads", ".txt");
            final Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid), "Thread.print").redirectErrorStream(true).redirectOutput(dump.toFile()).start();
            if (!jcmd.waitFor(30, TimeUnit.SECONDS)) {
                jcmd.destroyForcibly();
                out.append("jcmd Thread.print did not answer within 30 s\n");
            }
            out.append(Files.readString(dump, StandardCharsets.UTF_8));
        } catch (IOException e) {
            out.append("jcmd Thread.print: ").append(e).append('\n');
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return out.toString();
    }

    /** Waits until the output contains {@code text}; fails if the process exits first or past {@code seconds}. */
    void awaitOutput(final String text, final long seconds) throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!output().contains(text)) {
            if (!process.isAlive()) {
                throw new AssertionError("serve exited (" + process.exitValue() + ") before printing '" + text
                    + "':\n" + output());
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("serve did not print '" + text + "' within " + seconds + " s:\n" + output());
            }
            Thread.sleep(100);
        }
    }

    String output() throws IOException {
        return Files.readString(output, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
