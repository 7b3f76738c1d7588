package io.pragh.fabric;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The fabric a user asks for: {@code auto} lets {@link FabricProviders#choose} decide, the others name one. The one
 * enumeration of fabric kinds: configuration files, flags, providers and {@code ./pragh doctor} all speak it.
 *
 * <pre>{@code
 * FabricKind kind = FabricKind.parse("verbs");
 * }</pre>
 */
public enum FabricKind {
    AUTO("auto", true, null),
    VERBS("verbs", true, "pragh-rdma-jni"),
    TCP("tcp", true, "pragh-server"),
    IN_PROCESS("in-process", false, "pragh-core");

    private final String label;
    private final boolean spansProcesses;
    private final String module;

    FabricKind(String label, boolean spansProcesses, String module) {
        this.label = label;
        this.spansProcesses = spansProcesses;
        this.module = module;
    }

    /** The spelling used in configuration files, flags and logs. */
    public String label() {
        return label;
    }

    /** Whether machines in separate processes can reach each other over it: not so for {@code in-process}. */
    public boolean spansProcesses() {
        return spansProcesses;
    }

    /** The module whose jar holds this kind's provider, for "not on the class path" errors; null for auto. */
    public String module() {
        return module;
    }

    /** Parses a label, case-insensitively; an unknown one is an error listing the choices. */
    public static FabricKind parse(String text) {
        if (text != null) {
            String wanted = text.strip().toLowerCase(Locale.ROOT);
            for (FabricKind k : values()) {
                if (k.label.equals(wanted)) {
                    return k;
                }
            }
        }
        throw new IllegalArgumentException("unknown fabric '" + text + "'; choose one of " + choices());
    }

    /** {@code auto | verbs | tcp | in-process}. */
    public static String choices() {
        return Arrays.stream(values()).map(FabricKind::label).collect(Collectors.joining(" | "));
    }

    @Override
    public String toString() {
        return label;
    }
}
