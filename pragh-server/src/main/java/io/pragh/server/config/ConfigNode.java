package io.pragh.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * One mapping of the configuration tree, read strictly. A reader first declares the keys the mapping may have
 * ({@link #allow}), which refuses any other key at once (a typo must neither fall back to a default nor surface as
 * a confusing "required" error); then every getter names the full key path in its errors and checks type and range.
 * Values are echoed in errors, except where the caller says they are secret. Public for the readers of keys a server
 * extension defines (a placement kind's own keys, see {@code io.pragh.server.extension}).
 *
 * <pre>{@code
 * ConfigNode settings = config.placement().settings().allow("shardsPerMachine");
 * int perMachine = settings.integer("shardsPerMachine", 100, 1, 10_000);   // errors name placement.shardsPerMachine
 * }</pre>
 */
public final class ConfigNode {
    private final String source;
    private final String path;
    private final JsonNode node;
    private final Set<String> allowed = new LinkedHashSet<>();

    ConfigNode(String source, String path, JsonNode node) {
        this.source = source;
        this.path = path;
        this.node = node;
    }

    public String path() {
        return path;
    }

    public String keyPath(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    /** An error at {@code key} of this mapping (or at the mapping itself when {@code key} is null). */
    public ConfigException error(String key, String reason) {
        return new ConfigException(source, key == null ? path : keyPath(key), reason);
    }

    /** Declares the keys this mapping may hold and refuses any other, listing the ones that exist. */
    public ConfigNode allow(String... keys) {
        allowed.addAll(List.of(keys));
        if (node != null) {
            for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (!allowed.contains(name)) {
                    throw error(name, "unknown key (known keys here: " + String.join(", ", allowed) + ")");
                }
            }
        }
        return this;
    }

    /** The value under {@code key}, or null when absent (an explicit YAML null counts as absent). */
    private JsonNode value(String key) {
        if (!allowed.contains(key)) {
            throw new IllegalStateException("config reader asks for undeclared key " + keyPath(key));
        }
        JsonNode v = node == null ? null : node.get(key);
        return v == null || v.isNull() ? null : v;
    }

    /** Whether this mapping is absent from the file (a {@link #section} that was not written). */
    boolean isAbsent() {
        return node == null;
    }

    public boolean has(String key) {
        return value(key) != null;
    }

    private static String describe(JsonNode v) {
        if (v.isTextual()) {
            return "the string \"" + v.textValue() + "\"";
        }
        if (v.isObject()) {
            return "a mapping";
        }
        if (v.isArray()) {
            return "a list";
        }
        return v.toString();
    }

    /** A nested mapping; an absent one reads as empty, so every key in it takes its default. */
    ConfigNode section(String key) {
        JsonNode v = value(key);
        if (v != null && !v.isObject()) {
            throw error(key, "expected a mapping of keys, got " + describe(v));
        }
        return new ConfigNode(source, keyPath(key), v);
    }

    /** A required list of mappings. */
    List<ConfigNode> mappings(String key) {
        JsonNode v = value(key);
        if (v == null) {
            throw error(key, "required: a list with one entry per machine");
        }
        if (!v.isArray()) {
            throw error(key, "expected a list, got " + describe(v));
        }
        List<ConfigNode> out = new ArrayList<>();
        for (int i = 0; i < v.size(); i++) {
            String at = keyPath(key) + "[" + i + "]";
            JsonNode item = v.get(i);
            if (!item.isObject()) {
                throw new ConfigException(source, at, "expected a mapping of keys, got " + describe(item));
            }
            out.add(new ConfigNode(source, at, item));
        }
        return out;
    }

    /**
     * A list of words, each a non-empty string, none twice; an absent key reads as an empty list. For names such as
     * {@code extensions: [bench]}.
     */
    List<String> words(String key) {
        JsonNode v = value(key);
        if (v == null) {
            return List.of();
        }
        if (!v.isArray()) {
            throw error(key, "expected a list of names like [a, b], got " + describe(v));
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < v.size(); i++) {
            JsonNode item = v.get(i);
            String at = keyPath(key) + "[" + i + "]";
            if (!item.isTextual() || item.textValue().isBlank()) {
                throw new ConfigException(source, at, "expected a name, got " + describe(item));
            }
            if (out.contains(item.textValue())) {
                throw new ConfigException(source, at, "\"" + item.textValue() + "\" is listed twice");
            }
            out.add(item.textValue());
        }
        return List.copyOf(out);
    }

    /**
     * This mapping split at {@code key}: {@code only} holds that key alone, the other part every other key. A key
     * whose value chooses who reads the rest (a placement's {@code kind}) is read from the first; the chosen reader
     * declares its own keys on the second.
     */
    ConfigNode only(String key) {
        return split(key, true);
    }

    /** The keys this mapping holds, in file order. */
    public List<String> keys() {
        List<String> out = new ArrayList<>();
        if (node != null) {
            node.fieldNames().forEachRemaining(out::add);
        }
        return out;
    }

    /** See {@link #only}: every key of this mapping but {@code key}. */
    ConfigNode without(String key) {
        return split(key, false);
    }

    private ConfigNode split(String key, boolean keep) {
        if (node == null) {
            return new ConfigNode(source, path, null);
        }
        ObjectNode part = JsonNodeFactory.instance.objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> f = fields.next();
            if (f.getKey().equals(key) == keep) {
                part.set(f.getKey(), f.getValue());
            }
        }
        return new ConfigNode(source, path, part);
    }

    String string(String key, String fallback, boolean secret) {
        JsonNode v = value(key);
        if (v == null) {
            if (fallback == null) {
                throw error(key, "required");
            }
            return fallback;
        }
        if (!v.isTextual()) {
            throw error(key, "expected a string" + (secret ? "" : ", got " + describe(v)));
        }
        String s = v.textValue();
        if (s.isBlank()) {
            throw error(key, "must not be empty");
        }
        return s;
    }

    public String string(String key, String fallback) {
        return string(key, fallback, false);
    }

    long longInteger(String key, Long fallback, long min, long max) {
        JsonNode v = value(key);
        if (v == null) {
            if (fallback == null) {
                throw error(key, "required");
            }
            return fallback;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw error(key, "expected an integer, got " + describe(v));
        }
        long n = v.longValue();
        if (n < min || n > max) {
            throw error(key, "must be between " + min + " and " + max + ", got " + n);
        }
        return n;
    }

    public int integer(String key, Integer fallback, int min, int max) {
        return (int) longInteger(key, fallback == null ? null : (long) fallback, min, max);
    }

    /** {@code true} or {@code false}, unquoted, as YAML writes them; a string "true" is refused by name. */
    boolean bool(String key, boolean fallback) {
        JsonNode v = value(key);
        if (v == null) {
            return fallback;
        }
        if (!v.isBoolean()) {
            throw error(key, "expected true or false, got " + describe(v));
        }
        return v.booleanValue();
    }

    /** A number above 0 and at most {@code max}, written as an integer or a decimal ({@code 2.5}). */
    double positiveNumber(String key, double fallback, double max) {
        return number(key, fallback, false, max);
    }

    /** A number from 0 to {@code max}, written as an integer or a decimal. */
    double nonNegativeNumber(String key, double fallback, double max) {
        return number(key, fallback, true, max);
    }

    private double number(String key, double fallback, boolean zeroAllowed, double max) {
        JsonNode v = value(key);
        if (v == null) {
            return fallback;
        }
        if (!v.isNumber()) {
            throw error(key, "expected a number, got " + describe(v));
        }
        double d = v.doubleValue();
        if (!(zeroAllowed ? d >= 0 : d > 0) || d > max) {
            throw error(key, "must be " + (zeroAllowed ? "at least 0" : "above 0") + " and at most " + fmt(max)
                + ", got " + v.asText());
        }
        return d;
    }

    /** A size: an integer number of bytes or a string with a binary unit ({@code 64MiB}). */
    long bytes(String key, long fallback, long min, long max) {
        JsonNode v = value(key);
        if (v == null) {
            return fallback;
        }
        long bytes;
        if (v.isIntegralNumber() && v.canConvertToLong()) {
            bytes = v.longValue();
        } else if (v.isTextual()) {
            try {
                bytes = Units.bytes(v.textValue());
            } catch (IllegalArgumentException e) {
                throw error(key, e.getMessage());
            }
        } else {
            throw error(key, "expected a size like 4096 or 64MiB, got " + describe(v));
        }
        if (bytes < min || bytes > max) {
            throw error(key, "must be between " + Units.formatBytes(min) + " and " + Units.formatBytes(max) + ", got "
                + v.asText());
        }
        return bytes;
    }

    Duration duration(String key, Duration fallback, Duration min, Duration max) {
        return withUnit(key, fallback, min, max, "a duration with a unit like 500ms, 10s, 2m or 1h", Units::duration,
            Units::format);
    }

    /** A share written as a percentage ({@code 50%}), returned as a fraction (0.5). */
    double percent(String key, double fallback, double min, double max) {
        return withUnit(key, fallback, min, max, "a percentage like 50%", Units::percent,
            p -> fmt(p * 100) + "%");
    }

    /** A string value with a unit, parsed by {@code parse} (which says what it accepts) and checked against a range. */
    private <T extends Comparable<T>> T withUnit(String key, T fallback, T min, T max, String expected,
                                                 Function<String, T> parse, Function<T, String> show) {
        JsonNode v = value(key);
        if (v == null) {
            return fallback;
        }
        if (!v.isTextual()) {
            throw error(key, "expected " + expected + ", got " + describe(v));
        }
        T t;
        try {
            t = parse.apply(v.textValue());
        } catch (IllegalArgumentException e) {
            throw error(key, e.getMessage());
        }
        if (t.compareTo(min) < 0 || t.compareTo(max) > 0) {
            throw error(key, "must be between " + show.apply(min) + " and " + show.apply(max) + ", got "
                + v.textValue());
        }
        return t;
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    /** One of a fixed set of words, e.g. {@code eager | deferred}. */
    <T> T choice(String key, T fallback, Map<String, T> choices) {
        JsonNode v = value(key);
        if (v == null) {
            return fallback;
        }
        T t = v.isTextual() ? choices.get(v.textValue()) : null;
        if (t == null) {
            throw error(key, "expected one of " + String.join(", ", choices.keySet()) + ", got " + describe(v));
        }
        return t;
    }
}
