package io.pragh.gremlin.server;

import java.io.File;
import java.util.ArrayList;
import java.util.List;

/**
 * The options of {@code ./pragh serve}, parsed from the command line; unknown options and bad values are errors
 * that name what was wrong.
 *
 * <p>Example: {@code ServeOptions o = ServeOptions.parse("--port", "8183", "--load", "graph.json");}
 */
public final class ServeOptions {
    public String host = "127.0.0.1";
    public int port = 8182;
    public int machines = 4;
    public File load;
    public boolean allowGroovy;
    public File credentials;
    /** Not a flag: with credentials, the password of the cluster's own peer user (a cluster machine sets it). */
    public String peerPassword;
    /** The one directory io() may read and write; null refuses io(). */
    public File allowIo;
    public long timeoutMillis = 30_000;
    /** Threads that evaluate requests; 0 keeps Gremlin Server's default (one per core). */
    public int gremlinPool;
    public boolean help;
    /** Extra graph settings, {@code --set key=value}, e.g. {@code pragh.valueBytesPerMachine=1073741824}. */
    public final List<String[]> graphSettings = new ArrayList<>();
    /** Gremlin's default port plus 1000; another port when it is taken by something else is only warned about. */
    public static final int DEFAULT_METRICS_PORT = 9182;
    /** {@code GET /metrics} on {@link #host}; 0 turns it off. */
    public int metricsPort = DEFAULT_METRICS_PORT;
    /** Whether {@code --metrics-port} was given (a taken port then stops the start). */
    public boolean metricsPortGiven;
    /** Requests slower than this are logged with their text; 0 logs none. */
    public long slowQueryMillis = 1_000;
    /** Largest request and response frame ({@link FrameLimit}). */
    public int maxFrameBytes = io.pragh.server.config.LimitsConfig.DEFAULT_MAX_FRAME_BYTES;
    /** A connection silent this long, or not through its WebSocket upgrade or a frame by then, is closed. */
    public int idleTimeoutSeconds = (int) io.pragh.server.config.LimitsConfig.DEFAULT_IDLE_TIMEOUT.toSeconds();

    static final String USAGE = String.join("\n",
        "usage: ./pragh serve [options]",
        "  --host HOST          address to listen on (default 127.0.0.1)",
        "  --port PORT          port to listen on (default 8182)",
        "  --machines N         machines of the embedded Pragh cluster (default 4)",
        "  --load FILE          load GraphSON (.json), GraphML (.xml/.graphml) or an edge list (other) first",
        "  --allow-groovy       also run Groovy scripts and lambdas (unsafe: they can run any code)",
        "  --credentials FILE   require logins: one 'user:password' per line",
        "  --allow-io DIR       let g.io() read and write files inside DIR (refused by default)",
        "  --timeout-ms MS      per-request evaluation timeout (default 30000)",
        "  --set KEY=VALUE      a graph setting, e.g. pragh.valueBytesPerMachine=1073741824 (keys: README)",
        "  --metrics-port P     GET /metrics (Prometheus) on HOST:P (default 9182; 0 off)",
        "  --slow-query-ms MS   log requests slower than this with their text (default 1000; 0 off)",
        "  --max-frame-bytes N  largest request and response frame (default 10485760, 10 MiB); over it: an error",
        "  --idle-timeout-seconds S  close connections silent (or not through their upgrade) this long (default 60)",
        "  --help               this text");

    public static ServeOptions parse(final String... args) {
        final ServeOptions o = new ServeOptions();
        for (int i = 0; i < args.length; i++) {
            final String a = args[i];
            switch (a) {
                case "--host": o.host = value(args, ++i, a); break;
                case "--port": o.port = intValue(args, ++i, a, 0, 65535); break;
                case "--machines": o.machines = intValue(args, ++i, a, 1, 128); break;
                case "--load": o.load = new File(value(args, ++i, a)); break;
                case "--allow-groovy": o.allowGroovy = true; break;
                case "--credentials": o.credentials = new File(value(args, ++i, a)); break;
                case "--allow-io": {
                    o.allowIo = new File(value(args, ++i, a));
                    if (!o.allowIo.isDirectory()) {
                        throw new IllegalArgumentException("--allow-io " + o.allowIo + ": not a directory");
                    }
                    break;
                }
                case "--timeout-ms": o.timeoutMillis = intValue(args, ++i, a, 1, Integer.MAX_VALUE); break;
                case "--set": {
                    final String kv = value(args, ++i, a);
                    final int eq = kv.indexOf('=');
                    if (eq <= 0) {
                        throw new IllegalArgumentException("--set expects KEY=VALUE, got '" + kv + "'");
                    }
                    final String key = kv.substring(0, eq).strip();
                    GraphSettings.parse(key, kv.substring(eq + 1)); // refuses an unknown key or a bad value now
                    o.graphSettings.add(new String[] {key, kv.substring(eq + 1).strip()});
                    break;
                }
                case "-h":
                case "--help": o.help = true; break;
                case "--metrics-port": {
                    o.metricsPort = intValue(args, ++i, a, 0, 65535);
                    o.metricsPortGiven = true;
                    break;
                }
                case "--slow-query-ms": o.slowQueryMillis = intValue(args, ++i, a, 0, Integer.MAX_VALUE); break;
                case "--max-frame-bytes":
                    o.maxFrameBytes = intValue(args, ++i, a, io.pragh.server.config.LimitsConfig.MIN_FRAME_BYTES,
                        Integer.MAX_VALUE);
                    break;
                case "--idle-timeout-seconds": o.idleTimeoutSeconds = intValue(args, ++i, a, 1, 86_400); break;
                default: throw new IllegalArgumentException("unknown option '" + a + "'");
            }
        }
        return o;
    }

    private static String value(final String[] args, final int i, final String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static int intValue(final String[] args, final int i, final String option, final int min, final int max) {
        final String v = value(args, i, option);
        try {
            final int n = Integer.parseInt(v);
            if (n < min || n > max) {
                throw new IllegalArgumentException(option + " must be in " + min + ".." + max + ", got " + n);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " expects a number, got '" + v + "'");
        }
    }
}
