package io.pragh.bench.traversal;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The flag reading every benchmark command on the mode machinery shares: {@code --flag value} pairs over a map of
 * defaults (a flag not in it is unknown), typed values that name the flag when they are bad, and the mode list.
 *
 * <pre>{@code
 * Map<String, String> v = new LinkedHashMap<>(Map.of("--machines", "8"));
 * Flags.read(v, args, USAGE);
 * int machines = Flags.integer(v, "--machines");
 * }</pre>
 */
public final class Flags {
    private Flags() {
    }

    /** Puts each {@code --flag value} of {@code args} into {@code values}, refusing flags it has no default for. */
    public static void read(Map<String, String> values, String[] args, String usage) {
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (!values.containsKey(flag)) {
                throw new IllegalArgumentException("unknown flag '" + flag + "'\n" + usage);
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            values.put(flag, args[++i]);
        }
    }

    /** {@code --modes}: comma-separated report names, each once. */
    public static List<Mode> modes(String list) {
        List<Mode> modes = new ArrayList<>();
        for (String name : list.split(",")) {
            Mode m = Mode.byName(name.trim());
            if (modes.contains(m)) {
                throw new IllegalArgumentException("--modes names '" + name.trim() + "' twice");
            }
            modes.add(m);
        }
        return modes;
    }

    public static long whole(Map<String, String> v, String flag) {
        try {
            return Long.parseLong(v.get(flag));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " " + v.get(flag) + " is not a whole number");
        }
    }

    public static int integer(Map<String, String> v, String flag) {
        long n = whole(v, flag);
        if (n != (int) n) {
            throw new IllegalArgumentException(flag + " " + n + " is too large");
        }
        return (int) n;
    }

    public static double decimal(Map<String, String> v, String flag) {
        try {
            double d = Double.parseDouble(v.get(flag));
            if (!Double.isFinite(d)) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " " + v.get(flag) + " is not a number");
        }
    }

    public static Path path(Map<String, String> v, String flag) {
        return v.get(flag) == null ? null : Path.of(v.get(flag));
    }
}
