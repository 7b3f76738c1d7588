package io.pragh.server.rpc;

import io.pragh.migration.Migrator;
import java.util.concurrent.CompletableFuture;

/**
 * The migration policy of a machine as its client RPC sees it: the MIGRATEs clients ask for go through it so that
 * they are counted with the policy's own, and with a manual trigger the client drives the policy's phases (monitor,
 * end the interval, decide) as a benchmark across processes does. Implemented by the server node's migration
 * coordination; the RPC knows nothing of monitors or ZooKeeper.
 *
 * <pre>{@code
 * driver.startMonitoring().join();
 * ...                                  // load
 * driver.endInterval().join();
 * Decided d = driver.decide(30_000).join();   // on the coordinator
 * }</pre>
 */
public interface MigrationDriver {
    /** Hands a MIGRATE of {@code key} to this machine's migration thread, counted among the requested ones. */
    CompletableFuture<Migrator.Outcome> migrate(long key);

    /**
     * On the coordinator: moves decided outside the policy (a hot view's placement), handed over so that the
     * coordinator knows where the values go: each {@code keys[i]} is recorded as approved to {@code targets[i]} (in
     * ZooKeeper with membership, before anything moves), the coordinator takes the target as the key's host, and the
     * target is told to MIGRATE it (not awaited). Completes with how many were recorded and sent. On any other
     * machine it fails with an {@link IllegalArgumentException} naming the coordinator.
     */
    CompletableFuture<Integer> place(long[] keys, int[] targets);

    /** MIGRATEs handed to the migration thread so far. */
    long migrationsRequested();

    /** Of those, the ones that completed (with any outcome) or failed. */
    long migrationsDone();

    /** Of those, the ones that moved a value (outcome MIGRATED). */
    long valuesMigrated();

    /** Migrations this machine approved while it coordinated. */
    long approvals();

    /** Whether this machine coordinates now. */
    boolean isCoordinator();

    /**
     * Starts a fresh monitoring interval. This and the two phases below fail with an
     * {@link IllegalArgumentException} naming the setting unless the policy's trigger is manual (the request does
     * not apply to this machine), and with an {@link io.pragh.PraghException} while it may pass (no coordinator
     * elected yet).
     */
    CompletableFuture<Void> startMonitoring();

    /** Ends this machine's monitoring interval and sends its periodic report to the coordinator. */
    CompletableFuture<Void> endInterval();

    /**
     * On the coordinator: waits for a periodic report of every live machine since the last decision (or for
     * {@code timeoutMillis}), decides on what it holds and carries the decisions out. On any other machine it fails
     * with an {@link IllegalArgumentException} naming the coordinator.
     */
    CompletableFuture<Decided> decide(long timeoutMillis);
}
