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
    /**
     * The failure bound for a child serve to reach a point a test waits for (its refusal and exit, or its ready line).
     * Quiet, a refused serve exits 0.2-0.4 s after its start and a small one is ready in 2-5 s. Beside two busy loops
     * in the whole suite (load 20-40) a test of one refused serve took 50.7 s, and another serve was unreported at
     * 120 s (it had exited by then: no /proc entry, and the JDK reported it within the next 29 s); in targeted runs
     * beside the loops (load 20-35), 0.3-21 s, of which its exit after printing took under 0.1 s and the JDK's report
     * of it under 2.5 s. The time goes to the new
     * JVM's start (0.17 s of CPU for a refusal, 1.8 s for a small serve): the kernel schedules each session as one
     * group ({@code sched_autogroup}), so a JVM started beside busy loops that never sleep gets a small share of the
     * two cores, and every thread hand-off of its start waits for it. 600 s is about five times the slowest seen; a
     * serve that really hangs fails after it, with its threads printed.
     */
    static final long STARVED_BOUND_SECONDS = 600;

    final Process process;
    final Path output;
    private final long startedNanos;
    /** When output and the process's end were first seen (0: not yet); written and read by the waiting thread. */
    private long firstOutputNanos;
    private long endedNanos;

    private ServeProcess(final Process process, final Path output, final long startedNanos) {
        this.process = process;
        this.output = output;
        this.startedNanos = startedNanos;
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
        final long startedNanos = System.nanoTime();
        final Process p = new ProcessBuilder(cmd).directory(new File(System.getProperty("user.dir")))
            .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        return new ServeProcess(p, output, startedNanos);
    }

    /**
     * Waits for the process to exit, failing the test past {@code seconds} after its start; returns its exit code.
     * The bound only fails a serve that will not exit: beside a CPU hog a new JVM's start is what takes long (see
     * {@link #STARVED_BOUND_SECONDS}). A failure says how far the process got: its first output, its end as the
     * kernel saw it, and the load average.
     */
    int awaitExit(final long seconds) throws InterruptedException, IOException {
        final long deadline = startedNanos + TimeUnit.SECONDS.toNanos(seconds);
        // Polled in slices, not one long waitFor: each slice notes when output first appeared and when the kernel
        // first showed the process ended, so a failure tells a slow start from a JVM that printed and stayed.
        while (!process.waitFor(1, TimeUnit.SECONDS)) {
            notePhases();
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("serve did not exit within " + seconds + " s (" + phases() + "); its output:\n"
                    + output() + "\nwhere it is:\n" + whereItIs());
            }
        }
        return process.exitValue();
    }

    /** Notes the first time output was seen and the first time the kernel no longer showed the process running. */
    private void notePhases() throws IOException {
        final long now = System.nanoTime();
        if (firstOutputNanos == 0 && Files.size(output) > 0) {
            firstOutputNanos = now;
        }
        if (endedNanos == 0) {
            try {
                // A zombie ("Z") has exited and waits for this JVM's process reaper; no entry: already reaped.
                if (Files.readString(Path.of("/proc", Long.toString(process.pid()), "status")).contains("State:\tZ")) {
                    endedNanos = now;
                }
            } catch (IOException e) {
                endedNanos = now;
            }
        }
    }

    /** How far the process got, in seconds since it was started, and the load average now. */
    private String phases() {
        String load;
        try {
            load = Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (IOException e) {
            load = e.toString();
        }
        return "first output " + since(firstOutputNanos) + ", ended (per /proc) " + since(endedNanos)
            + ", given up " + since(System.nanoTime()) + "; load average " + load;
    }

    private String since(final long nanos) {
        return nanos == 0 ? "not yet" : String.format("after %.1f s", (nanos - startedNanos) / 1e9);
    }

    /**
     * What a process that will not exit is doing: its kernel state and, if the JVM still answers, its threads (a JVM
     * kept alive by a thread, stuck in a shutdown hook or on the disk).
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
            if (System.nanoTime() - deadline > 0) {
                notePhases();
                throw new AssertionError("serve did not print '" + text + "' within " + seconds + " s (" + phases()
                    + "):\n" + output());
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
