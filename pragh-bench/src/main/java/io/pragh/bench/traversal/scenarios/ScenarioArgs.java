package io.pragh.bench.traversal.scenarios;

import io.pragh.bench.traversal.TraversalConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A scenario's command line: its own flags, and the traversal benchmark's flags parsed by {@link TraversalConfig}
 * after the scenario's changed defaults. {@link #configWith} re-parses with one flag set by the scenario (the scope
 * of a sweep step, the mechanism of a run), so a scenario never builds a config by hand.
 *
 * <pre>{@code
 * ScenarioArgs a = ScenarioArgs.parse(new ScopeSweep(), args);
 * TraversalConfig c = a.configWith("--scope", "4096");
 * }</pre>
 */
public final class ScenarioArgs {
    private final Map<String, String> own;
    private final List<String> common;
    private final TraversalConfig config;

    private ScenarioArgs(Map<String, String> own, List<String> common) {
        this.own = own;
        this.common = common;
        this.config = configWith();
    }

    public static ScenarioArgs parse(Scenario s, String... args) {
        Map<String, String> own = new LinkedHashMap<>(s.ownFlags());
        List<String> common = new ArrayList<>(s.changedDefaults());
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            String refused = s.refusedFlags().get(flag);
            if (refused != null) {
                throw new IllegalArgumentException(flag + " is not a flag of bench " + s.name() + ": " + refused);
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            if (own.containsKey(flag)) {
                own.put(flag, args[++i]);
            } else {
                common.add(flag);
                common.add(args[++i]);
            }
        }
        return new ScenarioArgs(own, common);
    }

    /** The traversal flags as given (after the scenario's defaults). */
    public TraversalConfig config() {
        return config;
    }

    /** The traversal flags as given, then {@code flagValuePairs} over them. */
    public TraversalConfig configWith(String... flagValuePairs) {
        List<String> all = new ArrayList<>(common);
        all.addAll(List.of(flagValuePairs));
        try {
            return TraversalConfig.parse(all.toArray(String[]::new));
        } catch (IllegalArgumentException e) {
            // The traversal usage that follows an unknown flag's name would list the wrong command's flags.
            throw new IllegalArgumentException(e.getMessage().lines().findFirst().orElse(e.getMessage()), e);
        }
    }

    public String own(String flag) {
        String v = own.get(flag);
        if (v == null) {
            throw new IllegalArgumentException(flag + " needs a value");
        }
        return v;
    }

    public double decimal(String flag, double min) {
        double d;
        try {
            d = Double.parseDouble(own(flag));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " " + own(flag) + " is not a number");
        }
        if (!Double.isFinite(d) || d < min) {
            throw new IllegalArgumentException(flag + " " + own(flag) + " is invalid: must be >= " + min);
        }
        return d;
    }

    public int integer(String flag, int min, int max) {
        return integer(flag, own(flag), min, max);
    }

    /** A comma-separated list of whole numbers, each in {@code [min, max]}, none twice. */
    public List<Integer> integers(String flag, int min, int max) {
        List<Integer> out = new ArrayList<>();
        for (String part : own(flag).split(",")) {
            int n = integer(flag, part.trim(), min, max);
            if (out.contains(n)) {
                throw new IllegalArgumentException(flag + " names " + n + " twice");
            }
            out.add(n);
        }
        return out;
    }

    /** A comma-separated list of names, each one of {@code allowed}, none twice. */
    public List<String> names(String flag, List<String> allowed) {
        List<String> out = new ArrayList<>();
        for (String part : own(flag).split(",")) {
            String name = part.trim().toLowerCase(Locale.ROOT);
            if (!allowed.contains(name)) {
                throw new IllegalArgumentException(flag + " '" + part.trim() + "' is not one of "
                    + String.join(", ", allowed));
            }
            if (out.contains(name)) {
                throw new IllegalArgumentException(flag + " names '" + name + "' twice");
            }
            out.add(name);
        }
        return out;
    }

    private static int integer(String flag, String value, int min, int max) {
        long n;
        try {
            n = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " " + value + " is not a whole number");
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException(flag + " " + value + " is invalid: must be " + min + ".." + max);
        }
        return (int) n;
    }

    /** The JSON report's {@code config}: every traversal flag, then the scenario's own flags (without dashes). */
    public Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>(config.asMap());
        own.forEach((flag, value) -> m.put(flag.substring(2).replace('-', '_'), value));
        return m;
    }

    /** A scenario's JSON report: {@code config} (see {@link #asMap}), then the results under {@code name}. */
    public Map<String, Object> report(String name, Map<String, Object> results) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("config", asMap());
        root.put(name, results);
        return root;
    }
}
