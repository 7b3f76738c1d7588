package io.pragh.server.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The processes of a local cluster's directory and the files that track them: per machine (and for the local
 * ZooKeeper, {@link LocalCluster#ZOOKEEPER}, and the supervisor, {@link LocalCluster#SUPERVISOR}) a {@code .pid}
 * file naming its process, a {@code .log} its output is appended to, and while the CLI restarts it a {@code .hold}
 * file. Launches each as a child JVM on this JVM's class path and module options, running in the directory.
 *
 * <pre>{@code
 * ClusterProcesses p = new ClusterProcesses(dir);
 * p.launch(2, false);                       // java ... ServerCommand --config cluster.yaml --id 2
 * p.process(2).ifPresent(ProcessHandle::destroy);
 * }</pre>
 */
final class ClusterProcesses {
    private final Path dir;

    /** @param dir the cluster's directory, absolute */
    ClusterProcesses(Path dir) {
        this.dir = dir;
    }

    static String name(int i) {
        return i == LocalCluster.ZOOKEEPER ? "zookeeper" : i == LocalCluster.SUPERVISOR ? "supervisor" : "machine-" + i;
    }

    Path log(int i) {
        return dir.resolve(name(i) + ".log");
    }

    private Path pidFile(int i) {
        return dir.resolve(name(i) + ".pid");
    }

    /** Present while the CLI restarts machine {@code i} itself: the {@link Supervisor} leaves it alone. */
    Path holdFile(int i) {
        return dir.resolve(name(i) + ".hold");
    }

    /** The live process its pid file names, if any. */
    Optional<ProcessHandle> process(int i) {
        try {
            Path p = pidFile(i);
            if (!Files.exists(p)) {
                return Optional.empty();
            }
            long pid = Long.parseLong(Files.readString(p).trim());
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * Starts process {@code i} (output appended to its log) and records its pid. With {@code tiedToThisProcess} it
     * stops by itself when this JVM exits (tests); otherwise it outlives the CLI.
     */
    Process launch(int i, boolean tiedToThisProcess) {
        if (process(i).isPresent()) {
            throw new IllegalStateException(name(i) + " already runs (pid " + process(i).get().pid() + ")");
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(moduleOptions());
        cmd.addAll(jvmArgs(i));
        if (i == LocalCluster.SUPERVISOR) {
            cmd.addAll(List.of("-cp", absoluteClassPath(), Supervisor.class.getName(), "--dir", dir.toString()));
        } else if (i == LocalCluster.ZOOKEEPER) {
            cmd.addAll(List.of("-cp", absoluteClassPath(), LocalZooKeeper.class.getName(),
                dir.resolve(LocalCluster.ZOOKEEPER_CONFIG).toString()));
        } else {
            cmd.addAll(List.of("-cp", absoluteClassPath(), ServerCommand.class.getName(),
                "--config", dir.resolve(LocalCluster.CONFIG).toString(), "--id", Integer.toString(i)));
        }
        if (tiedToThisProcess) {
            cmd.addAll(List.of("--parent-pid", Long.toString(ProcessHandle.current().pid())));
        }
        try {
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log(i).toFile())).start();
            Files.writeString(pidFile(i), Long.toString(p.pid()));
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name(i) + ": " + e.getMessage(), e);
        }
    }

    /** The supervisor's small fixed options, or the machines' recorded ones ({@link ClusterFiles#JVM_ARGS}). */
    private List<String> jvmArgs(int i) {
        if (i == LocalCluster.SUPERVISOR) {
            // It only watches processes: a small heap, whatever the machines get.
            return List.of("-Xmx48m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
        }
        List<String> out = new ArrayList<>();
        try {
            for (String a : Files.readAllLines(dir.resolve(ClusterFiles.JVM_ARGS))) {
                if (!a.isBlank()) {
                    out.add(a.trim());
                }
            }
        } catch (IOException e) {
            // No extra options recorded: defaults.
        }
        return out;
    }

    /** This JVM's class path with every entry absolute: servers run in the cluster directory. */
    private static String absoluteClassPath() {
        List<String> out = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            if (!e.isEmpty()) {
                out.add(Path.of(e).toAbsolutePath().toString());
            }
        }
        return String.join(java.io.File.pathSeparator, out);
    }

    /** The --add-opens / --add-exports this JVM runs with: the servers need the same (Agrona, Netty). */
    private static List<String> moduleOptions() {
        List<String> in = ManagementFactory.getRuntimeMXBean().getInputArguments();
        List<String> out = new ArrayList<>();
        for (int k = 0; k < in.size(); k++) {
            String a = in.get(k);
            if (a.startsWith("--add-opens") || a.startsWith("--add-exports")) {
                out.add(a);
                if (!a.contains("=") && k + 1 < in.size()) {
                    out.add(in.get(++k));
                }
            }
        }
        return out;
    }
}
