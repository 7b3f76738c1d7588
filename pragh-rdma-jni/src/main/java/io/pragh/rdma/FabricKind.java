package io.pragh.rdma;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The fabric a user asks for: {@code auto} lets {@link FabricSelection} decide, the others name one.
 *
 * <pre>{@code
 * FabricKind kind = FabricKind.parse(config.getOrDefault("fabric", "auto"));
 * }</pre>
 */
public enum FabricKind {
    AUTO("auto"),
    VERBS("verbs"),
    TCP("tcp"),
    IN_PROCESS("in-process");

    private final String label;

    FabricKind(String label) {
        this.label = label;
    }

    /** The spelling used in configuration files, flags and logs. */
    public String label() {
        return label;
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
        throw new IllegalArgumentException("unknown fabric '" + text + "'; choose one of "
            + Arrays.stream(values()).map(FabricKind::label).collect(Collectors.joining(" | ")));
    }

    @Override
    public String toString() {
        return label;
    }
}
