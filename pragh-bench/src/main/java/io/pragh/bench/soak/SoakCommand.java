package io.pragh.bench.soak;

import java.io.PrintStream;

/**
 * {@code ./pragh bench soak}: the chaos workload under every fault for some minutes, checked as it goes (see
 * {@link Soak}). Exit status 1 if any key had no linearization or lost its value, 3 if some key's check was
 * undecided, 2 for bad flags.
 *
 * <pre>{@code
 * ./pragh bench soak --minutes 2
 * ./pragh bench soak --minutes 10 --seed 7 --restart-every 20
 * }</pre>
 */
public final class SoakCommand {
    private SoakCommand() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            out.println(SoakConfig.USAGE);
            return 0;
        }
        SoakConfig config;
        try {
            config = SoakConfig.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("pragh bench soak: " + e.getMessage());
            err.println("(./pragh bench soak --help lists the flags)");
            return 2;
        }
        Soak.Totals t = new Soak(config, out).run();
        if (t.violated()) {
            return 1;
        }
        return t.undecidedKeys.isEmpty() ? 0 : 3;
    }
}
