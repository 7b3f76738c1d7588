package io.pragh.server.cli;

import io.pragh.server.config.ConfigException;
import io.pragh.server.rpc.MachineClient;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code ./pragh cluster start|status|kill|restart|stop}: a local multi-process cluster on 127.0.0.1 (see
 * {@link LocalCluster}).
 *
 * <pre>{@code
 * ./pragh cluster start --machines 3 --dir /tmp/c [--gremlin-port 8182] [--sync none|batch|always]
 *                       [--fabric-port P] [--client-port P] [--metrics-port P] [--zookeeper-port P]
 *                       [--sparql-port P]
 *                       [--zookeeper HOST:PORT]      # default: starts a local ZooKeeper in /tmp/c
 *                       [--tls on]                   # mutual TLS on every port, throwaway CA in /tmp/c/tls
 * ./pragh cluster status --dir /tmp/c
 * ./pragh cluster kill 1 --dir /tmp/c          # kill -9 (the supervisor start launched restarts it)
 * ./pragh cluster restart 1 --dir /tmp/c       # returns once machine 1 recovered and serves
 * ./pragh cluster stop --dir /tmp/c
 * ./pragh cluster load --dir /tmp/c --pipeline 256   # PUT throughput, then edge inserts through Gremlin
 * }</pre>
 */
public final class ClusterCommand {
    private static final long START_TIMEOUT_MILLIS = 120_000;

    private ClusterCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs one command line, printing to {@code out} and {@code err}; the exit status (0 ok, 2 bad command line). */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help")) {
            (args.length == 0 ? err : out).println(usage());
            return args.length == 0 ? 2 : 0;
        }
        String sub = args[0];
        Map<String, String> flags = new HashMap<>();
        String machineArg = null;
        try {
            for (int i = 1; i < args.length; i++) {
                String a = args[i];
                if (a.startsWith("--")) {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException(a + " needs a value");
                    }
                    flags.put(a, args[++i]);
                } else if (machineArg == null) {
                    machineArg = a;
                } else {
                    throw new IllegalArgumentException("unexpected argument '" + a + "'");
                }
            }
            if (!flags.containsKey("--dir")) {
                throw new IllegalArgumentException("--dir is required");
            }
            Path dir = Path.of(flags.remove("--dir"));
            switch (sub) {
                case "start" -> {
                    String machines = flags.remove("--machines");
                    if (machines == null) {
                        throw new IllegalArgumentException("start needs --machines N");
                    }
                    LocalCluster.Settings s = LocalCluster.Settings.defaults(parseInt("--machines", machines));
                    s = withPorts(s, flags);
                    String zk = flags.remove("--zookeeper");
                    if (zk != null) {
                        s = s.withZooKeeper(zk);
                    }
                    String sync = flags.remove("--sync");
                    if (sync != null) {
                        s = s.withSync(sync);
                    }
                    String tls = flags.remove("--tls");
                    if (tls != null && !tls.equals("on") && !tls.equals("off")) {
                        throw new IllegalArgumentException("--tls takes on or off, got '" + tls + "'");
                    }
                    noMore(flags, machineArg);
                    LocalCluster c = LocalCluster.openOrCreate(dir, s, "on".equals(tls));
                    c.startAll(LocalCluster.tieServersToCaller(), START_TIMEOUT_MILLIS);
                    c.supervise(LocalCluster.tieServersToCaller());
                    out.println("pragh: " + c.machineCount() + " machines serve; config " + dir.resolve(
                        LocalCluster.CONFIG) + ", logs and pid files in " + c.directory());
                    c.status().forEach(out::println);
                }
                case "status" -> {
                    noMore(flags, machineArg);
                    LocalCluster.open(dir).status().forEach(out::println);
                }
                case "kill" -> {
                    int i = machine(machineArg, "kill");
                    noMore(flags, null);
                    LocalCluster c = LocalCluster.open(dir);
                    c.kill(i);
                    out.println("pragh: machine " + i + " killed (kill -9)" + (c.supervised() ? "; the supervisor"
                        + " restarts it (see " + c.log(LocalCluster.SUPERVISOR) + ")" : ""));
                }
                case "restart" -> {
                    int i = machine(machineArg, "restart");
                    noMore(flags, null);
                    LocalCluster c = LocalCluster.open(dir);
                    long t0 = System.nanoTime();
                    MachineClient.Status s = c.restart(i, LocalCluster.tieServersToCaller(), START_TIMEOUT_MILLIS);
                    out.println("pragh: machine " + i + " recovered and serves (" + s.homeKeys() + " home keys) after "
                        + (System.nanoTime() - t0) / 1_000_000 + " ms");
                }
                case "load" -> {
                    LoadCommand.Options options = LoadCommand.parse(flags);
                    noMore(flags, machineArg);
                    return LoadCommand.run(options, LocalCluster.open(dir), out, err);
                }
                case "stop" -> {
                    noMore(flags, machineArg);
                    LocalCluster c = LocalCluster.open(dir);
                    if (c.supervised()) {
                        c.stop(LocalCluster.SUPERVISOR);
                        out.println("pragh: supervisor stopped");
                    }
                    for (int i = 0; i < c.machineCount(); i++) {
                        boolean clean = c.stop(i);
                        out.println("pragh: machine " + i + (clean ? " stopped" : " did not stop within 15 s and was"
                            + " killed"));
                    }
                    if (c.hasLocalZooKeeper()) {
                        c.stop(LocalCluster.ZOOKEEPER);
                        out.println("pragh: local ZooKeeper stopped");
                    }
                }
                default -> throw new IllegalArgumentException("unknown cluster command '" + sub + "'");
            }
            return 0;
        } catch (IllegalArgumentException | ConfigException e) {
            err.println("pragh cluster: " + e.getMessage() + "\n" + usage());
            return 2;
        } catch (RuntimeException e) {
            err.println("pragh cluster: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("pragh cluster: interrupted");
            return 1;
        }
    }

    /**
     * The ports of a new cluster: machine I listens on each flag's port + I (0 for --gremlin-port or --metrics-port:
     * none); without a flag, free ones. --gremlin-port-base is --gremlin-port's earlier name.
     */
    private static LocalCluster.Settings withPorts(LocalCluster.Settings s, Map<String, String> flags) {
        String base = flags.remove("--gremlin-port-base");
        String gremlin = flags.remove("--gremlin-port");
        if (gremlin != null || base != null) {
            s = s.withGremlinPortBase(parseInt("--gremlin-port", gremlin != null ? gremlin : base));
        }
        LocalCluster.Ports ports = s.ports();
        String fabric = flags.remove("--fabric-port");
        if (fabric != null) {
            ports = ports.withFabric(parseInt("--fabric-port", fabric));
        }
        String client = flags.remove("--client-port");
        if (client != null) {
            ports = ports.withClient(parseInt("--client-port", client));
        }
        String zookeeper = flags.remove("--zookeeper-port");
        if (zookeeper != null) {
            ports = ports.withZooKeeper(parseInt("--zookeeper-port", zookeeper));
        }
        String metrics = flags.remove("--metrics-port");
        if (metrics != null) {
            s = s.withSection("metrics", "{port: " + parseInt("--metrics-port", metrics) + "}");
        }
        String sparql = flags.remove("--sparql-port");
        if (sparql != null) {
            s = s.withSection("sparql", "{port: " + parseInt("--sparql-port", sparql) + "}");
        }
        java.util.List<String> limits = new java.util.ArrayList<>();
        String idle = flags.remove("--idle-timeout-seconds");
        if (idle != null) {
            limits.add("idleTimeout: " + parseInt("--idle-timeout-seconds", idle) + "s");
        }
        String frame = flags.remove("--max-frame-bytes");
        if (frame != null) {
            limits.add("maxFrameBytes: " + parseInt("--max-frame-bytes", frame));
        }
        if (!limits.isEmpty()) {
            s = s.withSection("limits", "{" + String.join(", ", limits) + "}");
        }
        return s.withPorts(ports);
    }

    private static int machine(String arg, String sub) {
        if (arg == null) {
            throw new IllegalArgumentException(sub + " needs a machine id");
        }
        return parseInt("machine id", arg);
    }

    static int parseInt(String what, String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " must be an integer, got '" + s + "'");
        }
    }

    private static void noMore(Map<String, String> flags, String positional) {
        if (!flags.isEmpty()) {
            throw new IllegalArgumentException("unknown option " + flags.keySet().iterator().next());
        }
        if (positional != null) {
            throw new IllegalArgumentException("unexpected argument '" + positional + "'");
        }
    }

    static String usage() {
        return """
            usage: ./pragh cluster start --machines N --dir DIR [--sync none|batch|always]
                                       [--zookeeper HOST:PORT | --zookeeper none]   (default: a local ZooKeeper)
                                       [--tls on]   (mutual TLS on every port; a throwaway CA in DIR/tls)
                                       [--gremlin-port P] [--fabric-port P] [--client-port P] [--metrics-port P]
                                           (machine I on P + I; default: Gremlin 8182 + I, free ports for the
                                           others; --gremlin-port 0 or --metrics-port 0: none)
                                       [--zookeeper-port P]   (the local ZooKeeper's port; default: a free one)
                                       [--sparql-port P]   (machine I answers SPARQL on P + I; default: none)
                                       [--idle-timeout-seconds S] [--max-frame-bytes N]   (YAML limits section)
                   ./pragh cluster status --dir DIR
                   ./pragh cluster kill I --dir DIR         (kill -9 of machine I; the supervisor restarts it)
                   ./pragh cluster restart I --dir DIR      (returns once I recovered and serves)
                   ./pragh cluster stop --dir DIR
                   ./pragh cluster load --dir DIR [--threads 4] [--seconds 10] [--warmup-seconds 10] [--keys 10000]
                                       [--value-bytes 64] [--pipeline 1]   (PUTs in flight per client thread)
                                       [--gremlin on|off] [--vertices 10000] [--edges-per-request 1,64]
                                       [--gremlin-in-flight 16]   (then edge inserts through the Gremlin ports)""";
    }
}
