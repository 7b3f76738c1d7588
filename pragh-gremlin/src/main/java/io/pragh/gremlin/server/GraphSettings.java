package io.pragh.gremlin.server;

import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.PraghGraph;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The graph settings {@code ./pragh serve --set KEY=VALUE} accepts, each with the values it takes. A key not listed
 * here or a value its setting does not take is refused with one line naming both, before anything starts: a typo
 * would otherwise be ignored silently, and a bad number would only surface later as a stack trace.
 *
 * <p>Example: {@code Object v = GraphSettings.parse("pragh.migrationIntervalMillis", "500"); // 500L}
 */
public final class GraphSettings {
    /** Smallest value region the core store accepts per machine (StoreConfig). */
    private static final long MIN_VALUE_BYTES = 4096;

    private record Setting(String values, Function<String, Object> parse) {
    }

    private static final Map<String, Setting> SETTINGS = new LinkedHashMap<>();

    static {
        SETTINGS.put(PraghGraph.MACHINES, integer(1, 128));
        SETTINGS.put(EmbeddedGraphStore.WORKERS, integer(1, 256));
        SETTINGS.put(EmbeddedGraphStore.VALUE_BYTES, longInteger(MIN_VALUE_BYTES, Long.MAX_VALUE));
        SETTINGS.put(EmbeddedGraphStore.KEYS, longInteger(1, Long.MAX_VALUE));
        SETTINGS.put(EmbeddedGraphStore.CACHE_BYTES, longInteger(0, Long.MAX_VALUE));
        SETTINGS.put(EmbeddedGraphStore.RECLAIM_RING_SLOTS, integer(16, 1 << 30));
        SETTINGS.put(EmbeddedGraphStore.REMOTE_LATENCY_NS, longInteger(0, Long.MAX_VALUE));
        SETTINGS.put(EmbeddedGraphStore.MIGRATION, new Setting("true or false", GraphSettings::bool));
        SETTINGS.put(EmbeddedGraphStore.MIGRATION_INTERVAL_MILLIS, longInteger(1, Long.MAX_VALUE));
        // Not pragh.writeBehind: a server acknowledges each client's write, which a buffer would make a promise
        // that a later request (another client's, perhaps) could see broken.
        SETTINGS.put(EmbeddedGraphStore.PRETOUCH, new Setting("true or false", GraphSettings::bool));
        SETTINGS.put(PraghGraph.DEFAULT_CARDINALITY, new Setting("single or list", v -> {
            if (!v.equals("single") && !v.equals("list")) {
                throw new IllegalArgumentException();
            }
            return v;
        }));
        // What the ServeExtensions on the class path read (pragh-rdf's pragh.rdf.load, ...), as text they check.
        for (final ServeExtension e : java.util.ServiceLoader.load(ServeExtension.class)) {
            e.settings().forEach((key, values) -> SETTINGS.put(key, new Setting(values, v -> v)));
        }
    }

    private GraphSettings() {
    }

    /**
     * The value of setting {@code key} parsed from {@code text}.
     *
     * @throws IllegalArgumentException naming the key (and the known keys) or the value and what the key takes
     */
    public static Object parse(final String key, final String text) {
        final Setting s = SETTINGS.get(key);
        if (s == null) {
            throw new IllegalArgumentException("--set " + key + ": unknown graph setting (known: "
                + String.join(", ", SETTINGS.keySet()) + ")");
        }
        try {
            return s.parse.apply(text.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--set " + key + "=" + text + ": " + key + " takes " + s.values);
        }
    }

    /** Every key {@link #parse} accepts, in the order the usage lists them. */
    public static Iterable<String> keys() {
        return SETTINGS.keySet();
    }

    private static Setting integer(final int min, final int max) {
        return new Setting(range(min, max), v -> (int) inRange(Long.parseLong(v), min, max));
    }

    private static Setting longInteger(final long min, final long max) {
        return new Setting(range(min, max), v -> inRange(Long.parseLong(v), min, max));
    }

    private static String range(final long min, final long max) {
        return max == Long.MAX_VALUE ? "a whole number >= " + min : "a whole number in " + min + ".." + max;
    }

    private static long inRange(final long n, final long min, final long max) {
        if (n < min || n > max) {
            throw new IllegalArgumentException();
        }
        return n;
    }

    private static Object bool(final String v) {
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "true" -> Boolean.TRUE;
            case "false" -> Boolean.FALSE;
            default -> throw new IllegalArgumentException();
        };
    }
}
