package io.pragh.fabric;

/**
 * How the machines of a cluster are laid out, which decides what {@code auto} falls back to without RDMA and which
 * fabrics can connect them at all.
 *
 * <pre>{@code
 * FabricChoice c = FabricProviders.load(loader).choose(FabricKind.AUTO, Deployment.MULTI_PROCESS);
 * }</pre>
 */
public enum Deployment {
    /** Every machine in one JVM (EmbeddedCluster): without RDMA, the in-process fabric. */
    EMBEDDED("embedded cluster", FabricKind.IN_PROCESS),
    /** One machine per process ({@code ./pragh server}): without RDMA, TCP. */
    MULTI_PROCESS("multi-process server", FabricKind.TCP);

    private final String description;
    private final FabricKind fallback;

    Deployment(String description, FabricKind fallback) {
        this.description = description;
        this.fallback = fallback;
    }

    public String description() {
        return description;
    }

    /** What {@code auto} takes when verbs cannot run. */
    public FabricKind fallback() {
        return fallback;
    }
}
