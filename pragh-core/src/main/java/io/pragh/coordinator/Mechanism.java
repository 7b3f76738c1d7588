package io.pragh.coordinator;

/**
 * How the coordinator treats a key whose current host has not measured its own accesses to it (paper section 4.4).
 *
 * <pre>{@code
 * CoordinatorConfig c = CoordinatorConfig.defaults().withMechanism(Mechanism.DEFERRED);
 * }</pre>
 */
public enum Mechanism {
    /** Approve at once; the old host then tracks its accesses, and a later interval may move the value again. */
    EAGER,
    /** Ask the host to track its accesses for one interval first, then decide on both sides' figures. */
    DEFERRED
}
