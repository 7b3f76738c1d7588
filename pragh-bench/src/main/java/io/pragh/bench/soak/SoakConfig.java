package io.pragh.bench.soak;

import io.pragh.chaos.FaultPlan;

/**
 * The flags of {@code ./pragh bench soak}. Bad values are refused with a message naming the flag.
 *
 * @param minutes        how long the workload runs (the last windows' checks come after)
 * @param machines       machines of the embedded cluster
 * @param clients        client threads
 * @param keys           keys the clients work on (two per vertex, vertices spread over every home)
 * @param windowSeconds  length of a window (each ends with a barrier and is checked on its own)
 * @param checkers       checker threads, each checking its share of the keys of every window
 * @param plan           the faults the fault fabric injects ({@link FaultPlan#soak} unless told otherwise)
 * @param seed           seeds the workload's and the faults' random choices
 * @param restartEvery   restart the (then durable) cluster every this many windows; 0 for never
 * @param leakScanMillis interval of every machine's leak scan
 */
record SoakConfig(double minutes, int machines, int clients, int keys, double windowSeconds, int checkers,
                  FaultPlan plan, long seed, int restartEvery, long leakScanMillis) {
    static final int DEFAULT_CLIENTS = 64;
    static final int DEFAULT_KEYS = 16_384;
    static final double DEFAULT_WINDOW_SECONDS = 10;
    static final long DEFAULT_LEAK_SCAN_MILLIS = 250;

    static final String USAGE = String.join("\n",
        "usage: ./pragh bench soak [flags]",
        "",
        "  --minutes N          how long to run (default 1; fractions allowed)",
        "  --machines N         machines of the embedded cluster, in-process fabric (default 4)",
        "  --clients N          client threads (default " + DEFAULT_CLIENTS + ")",
        "  --keys N             keys the clients work on, two per vertex, spread over every home (default "
            + DEFAULT_KEYS + ")",
        "  --window-seconds S   length of a checked window (default " + (int) DEFAULT_WINDOW_SECONDS + ")",
        "  --checkers N         checker threads, each checking its share of the keys (default 1)",
        "  --faults on|off|K,K  every kind of fault (default on), none, or only the kinds named, of:",
        "                       " + String.join(", ", FaultPlan.KINDS),
        "                       (on: " + FaultPlan.soak().describe() + ")",
        "  --seed N             seed of the workload's and the faults' choices (default 1)",
        "  --restart-every K    restart the cluster every K windows, durable in a temporary directory (default 0:"
            + " never)",
        "  --leak-scan-ms N     interval of every machine's leak scan (default " + DEFAULT_LEAK_SCAN_MILLIS + ")",
        "",
        "Prints, per window and in total, the operations recorded and checked, the violations (keys with no",
        "linearization, the first one's history; keys no machine can read once the faults are healed), the faults",
        "injected by kind, the migrations done and the peak of value-region memory held by superseded records",
        "waiting for reclaim. Exit status 1 if any violation, 3 if some key's check was undecided (state budget),",
        "2 for bad flags, 0 otherwise.");

    static SoakConfig parse(String[] args) {
        double minutes = 1;
        int machines = 4;
        int clients = DEFAULT_CLIENTS;
        int keys = DEFAULT_KEYS;
        double window = DEFAULT_WINDOW_SECONDS;
        int checkers = 1;
        FaultPlan plan = FaultPlan.soak();
        long seed = 1;
        int restartEvery = 0;
        long leakScan = DEFAULT_LEAK_SCAN_MILLIS;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(flag.startsWith("--") ? flag + " needs a value"
                    : "unexpected argument '" + flag + "'");
            }
            String v = args[++i];
            switch (flag) {
                case "--minutes" -> minutes = positive(flag, number(flag, v));
                case "--machines" -> machines = (int) positive(flag, integer(flag, v));
                case "--clients" -> clients = (int) positive(flag, integer(flag, v));
                case "--keys" -> keys = (int) positive(flag, integer(flag, v));
                case "--window-seconds" -> window = positive(flag, number(flag, v));
                case "--checkers" -> checkers = (int) positive(flag, integer(flag, v));
                case "--faults" -> plan = switch (v) {
                    case "on" -> FaultPlan.soak();
                    case "off" -> FaultPlan.none();
                    default -> {
                        try {
                            yield FaultPlan.soak().only(java.util.List.of(v.split(",")));
                        } catch (IllegalArgumentException e) {
                            throw new IllegalArgumentException("--faults: " + e.getMessage());
                        }
                    }
                };
                case "--seed" -> seed = integer(flag, v);
                case "--restart-every" -> {
                    restartEvery = (int) integer(flag, v);
                    if (restartEvery < 0) {
                        throw new IllegalArgumentException("--restart-every must be >= 0, got " + v);
                    }
                }
                case "--leak-scan-ms" -> leakScan = (long) positive(flag, integer(flag, v));
                default -> throw new IllegalArgumentException("unknown flag '" + flag + "'");
            }
        }
        if (machines < 2 || machines > 128) {
            throw new IllegalArgumentException("--machines must be in 2..128, got " + machines);
        }
        if (keys < 2 * machines) {
            throw new IllegalArgumentException("--keys must be at least 2 per machine (" + 2 * machines + "), got "
                + keys);
        }
        if (clients > 4_096 || checkers > 256) {
            throw new IllegalArgumentException("--clients is at most 4096 and --checkers at most 256");
        }
        return new SoakConfig(minutes, machines, clients, keys, window, checkers, plan, seed, restartEvery, leakScan);
    }

    /** Vertices homed on each machine: two keys each, {@link #keys} in all (rounded down to whole vertices). */
    int verticesPerMachine() {
        return Math.max(1, keys / (2 * machines));
    }

    private static double number(String flag, String v) {
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " takes a number, got '" + v + "'");
        }
    }

    private static long integer(String flag, String v) {
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " takes a whole number, got '" + v + "'");
        }
    }

    private static double positive(String flag, double v) {
        if (!(v > 0)) {
            throw new IllegalArgumentException(flag + " must be > 0, got " + v);
        }
        return v;
    }
}
