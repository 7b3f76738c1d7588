package io.pragh.bench.soak;

import io.pragh.chaos.FaultPlan;

/**
 * The flags of {@code ./pragh bench soak}. Bad values are refused with a message naming the flag.
 *
 * @param minutes        how long the workload runs (the last window's check comes after)
 * @param machines       machines of the embedded cluster
 * @param clients        client threads
 * @param windowSeconds  length of a window (each ends with a barrier and is checked on its own)
 * @param plan           the faults the fault fabric injects ({@link FaultPlan#all} unless told otherwise)
 * @param seed           seeds the workload's and the faults' random choices
 * @param restartEvery   restart the (then durable) cluster every this many windows; 0 for never
 */
record SoakConfig(double minutes, int machines, int clients, double windowSeconds, FaultPlan plan, long seed,
                  int restartEvery) {
    static final String USAGE = String.join("\n",
        "usage: ./pragh bench soak [flags]",
        "",
        "  --minutes N          how long to run (default 1; fractions allowed)",
        "  --machines N         machines of the embedded cluster, in-process fabric (default 4)",
        "  --clients N          client threads (default 4)",
        "  --window-seconds S   length of a checked window (default 2)",
        "  --faults on|off|K,K  every kind of fault (default on), none, or only the kinds named, of:",
        "                       " + String.join(", ", FaultPlan.KINDS),
        "                       (on: " + FaultPlan.all().describe() + ")",
        "  --seed N             seed of the workload's and the faults' choices (default 1)",
        "  --restart-every K    restart the cluster every K windows, durable in a temporary directory (default 0:"
            + " never)",
        "",
        "Prints, per window and in total, the operations checked, the violations (keys with no linearization, and",
        "keys no machine can read once the faults are healed) and the peak of value-region memory held by",
        "superseded records waiting for reclaim. Exit status 1 if any violation, 3 if some key's check was",
        "undecided (state budget), 2 for bad flags, 0 otherwise.");

    static SoakConfig parse(String[] args) {
        double minutes = 1;
        int machines = 4;
        int clients = 4;
        double window = 2;
        FaultPlan plan = FaultPlan.all();
        long seed = 1;
        int restartEvery = 0;
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
                case "--window-seconds" -> window = positive(flag, number(flag, v));
                case "--faults" -> plan = switch (v) {
                    case "on" -> FaultPlan.all();
                    case "off" -> FaultPlan.none();
                    default -> {
                        try {
                            yield FaultPlan.all().only(java.util.List.of(v.split(",")));
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
                default -> throw new IllegalArgumentException("unknown flag '" + flag + "'");
            }
        }
        if (machines < 2 || machines > 128) {
            throw new IllegalArgumentException("--machines must be in 2..128, got " + machines);
        }
        return new SoakConfig(minutes, machines, clients, window, plan, seed, restartEvery);
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
