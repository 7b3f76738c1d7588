package io.pragh.server.node;

import io.pragh.embedded.Machine;
import io.pragh.migration.Migrator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every MIGRATE this machine's migration thread is handed, by a coordinator's decision or by a client, with what
 * became of them: the figures STATS reports and a benchmark waits on (a waiter compares a coordinator's approvals
 * with the MIGRATEs its targets requested and finished).
 *
 * <pre>{@code
 * CountedMigrations migrations = new CountedMigrations(machine);
 * migrations.migrate(key).join();
 * assert migrations.done() == migrations.requested();
 * }</pre>
 */
final class CountedMigrations {
    private final Machine machine;
    private final AtomicLong requested = new AtomicLong();
    private final AtomicLong done = new AtomicLong();
    private final AtomicLong migrated = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();

    CountedMigrations(Machine machine) {
        this.machine = machine;
    }

    /** Hands a MIGRATE of {@code key} to the migration thread; the stage completes after it is counted. */
    CompletableFuture<Migrator.Outcome> migrate(long key) {
        requested.incrementAndGet();
        // The returned stage completes after the counts: whoever awaits the outcome sees it counted.
        return machine.migrateAsync(key).whenComplete((outcome, failure) -> {
            if (outcome == Migrator.Outcome.MIGRATED) {
                migrated.incrementAndGet();
            } else if (failure != null) {
                failed.incrementAndGet();
            }
            done.incrementAndGet();
        });
    }

    long requested() {
        return requested.get();
    }

    /** Of the requested ones, those that completed (with any outcome) or failed. */
    long done() {
        return done.get();
    }

    /** Of the requested ones, those that moved a value (outcome MIGRATED). */
    long migrated() {
        return migrated.get();
    }

    /** Of the requested ones, those that ended with an error rather than an outcome. */
    long failed() {
        return failed.get();
    }
}
