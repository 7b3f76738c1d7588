package io.pragh.server.config;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The units a configuration file writes sizes, durations and shares in: {@code 64MiB}, {@code 500ms},
 * {@code 50%}. Binary size units only, so that "MB" cannot silently mean 10^6 or 2^20.
 */
final class Units {
    private static final Pattern BYTES = Pattern.compile("(\\d+)\\s*(B|KiB|MiB|GiB|TiB)?");
    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)");
    private static final Pattern PERCENT = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*%");

    private Units() {
    }

    /** Bytes from {@code "64MiB"} or {@code "4096"}; throws IllegalArgumentException saying what is accepted. */
    static long bytes(String text) {
        Matcher m = BYTES.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("expected a size like 4096, 64KiB, 256MiB or 1GiB (binary units), got \""
                + text + "\"");
        }
        int shift = switch (m.group(2) == null ? "B" : m.group(2)) {
            case "KiB" -> 10;
            case "MiB" -> 20;
            case "GiB" -> 30;
            case "TiB" -> 40;
            default -> 0;
        };
        try {
            long n = Long.parseLong(m.group(1));
            if (n > (Long.MAX_VALUE >> shift)) {
                throw new NumberFormatException();
            }
            return n << shift;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("size \"" + text + "\" is too large");
        }
    }

    /** A duration from {@code "500ms"}, {@code "10s"}, {@code "2m"} or {@code "1h"}. */
    static Duration duration(String text) {
        Matcher m = DURATION.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("expected a duration with a unit like 500ms, 10s, 2m or 1h, got \""
                + text + "\"");
        }
        long n;
        try {
            n = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("duration \"" + text + "\" is too large");
        }
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
    }

    /** A share from {@code "50%"}: 0.5. */
    static double percent(String text) {
        Matcher m = PERCENT.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("expected a percentage like 50%, got \"" + text + "\"");
        }
        return Double.parseDouble(m.group(1)) / 100.0;
    }

    /** How a duration reads back in messages: the largest unit that divides it. */
    static String format(Duration d) {
        long ms = d.toMillis();
        if (ms % 3_600_000 == 0 && ms > 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms % 60_000 == 0 && ms > 0) {
            return ms / 60_000 + "m";
        }
        if (ms % 1000 == 0 && ms > 0) {
            return ms / 1000 + "s";
        }
        return ms + "ms";
    }

    static String formatBytes(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        int u = 0;
        long v = bytes;
        while (u < units.length - 1 && v != 0 && (v & 1023) == 0) {
            v >>= 10;
            u++;
        }
        return v + units[u];
    }
}
