package io.pragh.rdma;

/**
 * How the machines of a cluster are laid out, which decides the fallback when there is no RDMA device.
 *
 * <pre>{@code
 * FabricSelection.resolve(FabricKind.AUTO, Deployment.MULTI_PROCESS);
 * }</pre>
 */
public enum Deployment {
    /** Every machine in one JVM (EmbeddedCluster): without RDMA, the in-process fabric. */
    EMBEDDED("embedded cluster"),
    /** One machine per process ({@code ./pragh server}): without RDMA, TCP. */
    MULTI_PROCESS("multi-process server");

    private final String description;

    Deployment(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
