package io.pragh.tier;

import java.util.Locale;

/**
 * What a machine is for. A compute machine homes keys, runs queries and analytics and keeps its working set in its
 * local memory; a memory node homes no key and runs no query: it only hosts values (moved there by MIGRATE) and
 * answers the one-sided operations and forwarded updates that reach them, as a far-memory server does.
 *
 * <pre>{@code
 * MachineRole role = MachineRole.parse("memory");   // MEMORY; "compute" is the default role
 * }</pre>
 */
public enum MachineRole {
    COMPUTE, MEMORY;

    /** The role named {@code name} ({@code compute} or {@code memory}, any case); a clear error for anything else. */
    public static MachineRole parse(String name) {
        for (MachineRole r : values()) {
            if (r.configName().equalsIgnoreCase(String.valueOf(name).strip())) {
                return r;
            }
        }
        throw new IllegalArgumentException("unknown machine role '" + name + "': expected compute or memory");
    }

    /** The name a configuration file uses. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
