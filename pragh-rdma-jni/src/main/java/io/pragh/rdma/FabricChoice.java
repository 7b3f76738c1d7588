package io.pragh.rdma;

/**
 * The fabric selection settled on, and why, for the log and {@code ./pragh doctor}.
 *
 * <pre>{@code
 * FabricChoice c = FabricSelection.resolve(FabricKind.AUTO, Deployment.EMBEDDED);
 * if (c.kind() == FabricKind.VERBS) ...
 * }</pre>
 *
 * @param kind   a concrete kind, never {@link FabricKind#AUTO}
 * @param reason one sentence a user can act on
 */
public record FabricChoice(FabricKind kind, String reason) {
    public FabricChoice {
        if (kind == FabricKind.AUTO) {
            throw new IllegalArgumentException("a choice names a concrete fabric, not auto");
        }
    }

    @Override
    public String toString() {
        return kind.label() + " (" + reason + ")";
    }
}
