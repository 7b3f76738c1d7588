package io.pragh.server.rpc;

/**
 * What a DECIDE on the coordinator decided at the end of a monitoring interval: migrations approved (each already
 * sent to its target as a MIGRATE) and keys machines were asked to start or stop counting locally.
 *
 * <pre>{@code
 * Decided d = cluster.machine(coordinator).decide(30_000);
 * System.out.println(d.approvals() + " migrations approved");
 * }</pre>
 */
public record Decided(int approvals, int track, int untrack) {
    /** Encoded length: three 4-byte counts. */
    public static final int BYTES = 12;
}
