package io.pragh.bench.traversal.scenarios;

import io.pragh.bench.traversal.JsonFile;
import io.pragh.bench.traversal.TraversalCommand;
import io.pragh.bench.traversal.TraversalConfig;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * {@code ./pragh bench <scenario> [flags]}: parses the flags, generates the graph, runs the scenario, prints its
 * table, writes {@code --json} and {@code --charts}. Bad flags exit with status 2 and a message naming the flag.
 *
 * <pre>{@code
 * ./pragh bench scope-sweep --machines 4 --scale 14 --scopes 8,10,12 --json target/sweep.json --charts target/c
 * }</pre>
 */
public final class ScenarioCommand {
    private ScenarioCommand() {
    }

    public static int run(Scenario scenario, String[] args, PrintStream out, PrintStream err) throws Exception {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            out.println(usage(scenario));
            return 0;
        }
        ScenarioArgs parsed;
        Scenario.Result result;
        try {
            parsed = ScenarioArgs.parse(scenario, args);
            TraversalConfig c = parsed.config();
            result = scenario.run(parsed, () -> TraversalCommand.generate(c, out), out);
        } catch (IllegalArgumentException e) {
            err.println("pragh bench " + scenario.name() + ": " + e.getMessage());
            err.println("(./pragh bench " + scenario.name() + " --help lists the flags)");
            return 2;
        }
        out.println();
        result.print(out);
        TraversalConfig config = parsed.config();
        if (config.json() != null) {
            JsonFile.write(config.json(), result.asMap());
            out.println("JSON report: " + config.json().toAbsolutePath());
        }
        if (config.charts() != null) {
            for (Path chart : result.writeCharts(config.charts())) {
                out.println("chart: " + chart.toAbsolutePath());
            }
        }
        return 0;
    }

    static String usage(Scenario s) {
        return s.usage() + "\n  and every flag of ./pragh bench traversal (./pragh bench traversal --help)"
            + (s.refusedFlags().isEmpty() ? "" : ", except " + String.join(", ", s.refusedFlags().keySet()));
    }
}
