package io.pragh.fabric;

import java.util.Objects;

/**
 * The fabric a selection settled on, and why: {@code ./pragh doctor} prints it, a server logs it once.
 *
 * <pre>{@code
 * FabricChoice c = providers.choose(FabricKind.AUTO, Deployment.MULTI_PROCESS);
 * if (c.kind() == FabricKind.VERBS) ...
 * }</pre>
 *
 * @param provider builds the chosen fabric
 * @param reason   one sentence a user can act on
 * @param fallback whether {@code auto} settled for less than verbs
 */
public record FabricChoice(FabricProvider provider, String reason, boolean fallback) {
    public FabricChoice {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(reason, "reason");
    }

    /** A concrete kind, never {@link FabricKind#AUTO}. */
    public FabricKind kind() {
        return provider.kind();
    }

    @Override
    public String toString() {
        return kind().label() + " (" + reason + ")";
    }
}
