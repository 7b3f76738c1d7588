package io.pragh.bench.traversal;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The results of one benchmark run: {@code {"config": {...every flag...}, "modes": {"<mode>": {...}}}} as JSON, and
 * the same as a table with each mode's throughput relative to orig and ideal, and each mode's history check.
 *
 * <pre>{@code
 * TraversalReport report = new TraversalReport(config);
 * report.add(Mode.ORIG, result);
 * report.writeJson(Path.of("out.json"));
 * }</pre>
 */
public final class TraversalReport {
    private final Map<String, Object> config;
    private final Map<Mode, ModeResult> results = new LinkedHashMap<>();

    public TraversalReport(TraversalConfig config) {
        this(config.asMap());
    }

    /** A report of another benchmark on the same modes: {@code config} is its {@code config} object. */
    public TraversalReport(Map<String, Object> config) {
        this.config = config;
    }

    public void add(Mode mode, ModeResult result) {
        results.put(mode, result);
    }

    public Map<Mode, ModeResult> results() {
        return results;
    }

    public Map<String, Object> asMap() {
        Map<String, Object> modes = new LinkedHashMap<>();
        results.forEach((mode, r) -> modes.put(mode.reportName(), r.asMap()));
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("config", config);
        root.put("modes", modes);
        return root;
    }

    public String toJson() {
        return JsonFile.toJson(asMap());
    }

    public void writeJson(Path file) {
        JsonFile.write(file, asMap());
    }

    public void printTable(PrintStream out) {
        ModeResult orig = results.get(Mode.ORIG);
        ModeResult ideal = results.get(Mode.IDEAL);
        out.printf("%-19s %12s %8s %8s %9s %9s %9s %9s %9s %9s %8s%n", "mode", "q/s", "x orig", "% ideal",
            "p50 ms", "p99 ms", "p999 ms", "remote %", "migrated", "mig. %", "fwd puts");
        results.forEach((mode, r) -> out.printf("%-19s %12.0f %8s %8s %9.3f %9.3f %9.3f %9.2f %9d %9.3f %8d%n",
            mode.reportName(), r.throughputQps(),
            orig == null ? "-" : String.format("%.2f", r.throughputQps() / orig.throughputQps()),
            ideal == null ? "-" : String.format("%.1f", 100 * r.throughputQps() / ideal.throughputQps()),
            r.p50Ms(), r.p99Ms(), r.p999Ms(), 100 * r.remoteAccessRate(), r.migratedKeys(),
            100 * r.migratedKeyFraction(), r.forwardedPuts()));
        results.forEach((mode, r) -> {
            if (r.history() != null) {
                out.printf("%-19s %s%n", mode.reportName(), r.history().describe());
            }
        });
    }

    /**
     * The exit status the modes' history checks call for: 1 if some key's history has no linearization, else 3 if
     * some key's search gave up undecided, else 0 (also when no history was recorded).
     */
    public int historyStatus() {
        boolean undecided = false;
        for (ModeResult r : results.values()) {
            if (r.history() != null && !r.history().linearizable()) {
                return 1;
            }
            undecided |= r.history() != null && !r.history().undecidedKeys().isEmpty();
        }
        return undecided ? 3 : 0;
    }

    /**
     * Prints, for every mode whose history has no linearization or an undecided key, what was found: the first
     * violating key's history narrowed to a window. Returns {@link #historyStatus()}.
     */
    public int printHistoryFailures(PrintStream out) {
        results.forEach((mode, r) -> {
            if (r.history() != null && !r.history().linearizable()) {
                out.printf("%s: history NOT linearizable: %d key(s); the first, %d:%n%s", mode.reportName(),
                    r.history().violatingKeys(), r.history().firstViolatingKey(), r.history().violation());
            } else if (r.history() != null && !r.history().undecidedKeys().isEmpty()) {
                out.printf("%s: history check undecided (search state budget) for keys %s%n", mode.reportName(),
                    r.history().undecidedKeys());
            }
        });
        return historyStatus();
    }
}
