package io.pragh.server.metrics;

/**
 * The migration counts a machine's control plane keeps (the coordinator's approvals, MIGRATEs that failed), which
 * the store itself does not know: a server's {@code MigrationCoordination} or an embedded cluster's
 * {@code MigrationControl} supplies them.
 *
 * <pre>{@code
 * MigrationCounts counts = MigrationCounts.of(coordination::approvals, coordination::migrationsFailed);
 * }</pre>
 */
public interface MigrationCounts {
    /** None: for a machine whose control plane is off. */
    MigrationCounts NONE = of(() -> 0, () -> 0);

    /** Migrations this machine approved while it coordinated. */
    long approved();

    /** MIGRATEs run on this machine that ended with an error (an unreachable host, a timeout). */
    long failed();

    static MigrationCounts of(java.util.function.LongSupplier approved, java.util.function.LongSupplier failed) {
        return new MigrationCounts() {
            @Override
            public long approved() {
                return approved.getAsLong();
            }

            @Override
            public long failed() {
                return failed.getAsLong();
            }
        };
    }
}
