package io.pragh.bench.paper;

import io.pragh.bench.jmh.MigrationThroughputBenchmark;
import java.io.PrintStream;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Fig. 13 for {@code bench paper}: runs the JMH {@link MigrationThroughputBenchmark} (one and two migration threads,
 * the payload sizes asked for) in this JVM with short iterations and reads its {@code values} counter back, values
 * migrated per second by payload. In this JVM (no fork) so the figure costs no second JVM start; the benchmark's own
 * {@code ./pragh bench jmh MigrationThroughput} forks as JMH recommends, for numbers to quote.
 *
 * <pre>{@code
 * Map<String, Map<Integer, Double>> bySeries = MigrationSpeed.run(List.of(64, 1024), 512, 0.5, 1, out);
 * }</pre>
 */
final class MigrationSpeed {
    private MigrationSpeed() {
    }

    /**
     * Runs both benchmark methods at each of {@code payloads}, {@code iterations} measured iterations of
     * {@code seconds} after one warm-up iteration as long, the value region {@code valueMb} MiB per machine.
     *
     * @return by series ("1 thread", "2 threads"), payload bytes to mean values migrated per second
     */
    static Map<String, Map<Integer, Double>> run(List<Integer> payloads, int valueMb, double seconds, int iterations,
                                                PrintStream out) throws RunnerException {
        TimeValue time = TimeValue.milliseconds(Math.max(100, Math.round(seconds * 1000)));
        Options opts = new OptionsBuilder()
            .include(MigrationThroughputBenchmark.class.getName() + "\\.(oneThread|twoThreads)$")
            .param("payload", payloads.stream().map(String::valueOf).toArray(String[]::new))
            .param("valueMbPerMachine", Integer.toString(valueMb))
            .forks(0).warmupIterations(1).warmupTime(time).measurementIterations(iterations)
            .measurementTime(time).verbosity(VerboseMode.SILENT).build();
        Collection<RunResult> results = new Runner(opts).run();
        Map<String, Map<Integer, Double>> bySeries = new LinkedHashMap<>();
        bySeries.put("1 thread", new TreeMap<>());
        bySeries.put("2 threads", new TreeMap<>());
        for (RunResult r : results) {
            String method = r.getParams().getBenchmark().substring(r.getParams().getBenchmark().lastIndexOf('.') + 1);
            int payload = Integer.parseInt(r.getParams().getParam("payload"));
            double values = r.getSecondaryResults().get("values").getScore();
            String series = method.equals("oneThread") ? "1 thread" : "2 threads";
            bySeries.get(series).put(payload, values);
            out.printf(Locale.ROOT, "[fig13] %s, %d B payload: %.0f values/s%n", series, payload, values);
        }
        return bySeries;
    }
}
