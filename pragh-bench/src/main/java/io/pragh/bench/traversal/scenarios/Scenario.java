package io.pragh.bench.traversal.scenarios;

import io.pragh.bench.workload.AdjacencyGraph;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One scenario of the traversal benchmark: its own flags (with defaults), the traversal flags it defaults
 * differently or does not take, and the run itself. {@link ScenarioCommand} does the rest (help, parsing, the
 * graph, JSON, charts).
 *
 * <pre>{@code
 * int status = ScenarioCommand.run(new ScopeSweep(), args, System.out, System.err);
 * }</pre>
 */
public interface Scenario {
    /** The subcommand, e.g. {@code scope-sweep}. */
    String name();

    /** Usage lines of the scenario's own flags and changed defaults. */
    String usage();

    /** Own flags and their defaults, in usage order. */
    Map<String, String> ownFlags();

    /** Traversal flags with a different default here, as flag/value pairs (the user's flags come after them). */
    List<String> changedDefaults();

    /** Traversal flags this scenario sets itself, with the reason given when a user passes one. */
    Map<String, String> refusedFlags();

    /**
     * Runs the scenario, printing progress. Bad settings throw IllegalArgumentException before anything runs: the
     * scenario checks its own flags before it asks for the graph (generating it may take a while), and the settings
     * that depend on the graph right after.
     */
    Result run(ScenarioArgs args, Supplier<AdjacencyGraph> graph, PrintStream out) throws Exception;

    /** What a scenario measured. */
    interface Result {
        /** The JSON report: {@code config} first, then the scenario's results. */
        Map<String, Object> asMap();

        /** A short table for the terminal. */
        void print(PrintStream out);

        /** Writes the PNG charts into {@code dir}; returns the files. */
        List<Path> writeCharts(Path dir);
    }
}
