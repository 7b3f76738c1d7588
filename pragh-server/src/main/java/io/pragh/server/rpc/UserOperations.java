package io.pragh.server.rpc;

import io.pragh.address.Address;
import io.pragh.embedded.Machine;
import io.pragh.graph.KHopTraversal;
import io.pragh.keys.KeyLayout;
import io.pragh.store.MachineStore;
import io.pragh.store.Mutators;
import io.pragh.store.Session;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The client protocol's own operations on one machine (PING .. DECIDE of {@link ClientProtocol}): each request
 * checked, then run on the machine's workers (reads, traversals, scans) or completed asynchronously (updates,
 * migrations), never on the connection's event loop. An update needing a machine that is down fails at once,
 * retryably, rather than waiting for the timeout; extensions' updates go the same way ({@link #update}).
 *
 * <pre>{@code
 * UserOperations user = new UserOperations(machine, 5_000, restored::get, coordination);
 * CompletableFuture<Reply> r = user.serve(request);        // not bounded: the caller adds the timeout
 * }</pre>
 */
final class UserOperations {
    private final Machine machine;
    private final long timeoutMillis;
    private final int maxValueBytes;
    private final LongSupplier restoredValues;
    private final MigrationDriver migrations;

    UserOperations(Machine machine, long timeoutMillis, LongSupplier restoredValues, MigrationDriver migrations) {
        this.machine = machine;
        this.timeoutMillis = timeoutMillis;
        this.maxValueBytes = machine.store().config().maxValueBytes();
        this.restoredValues = restoredValues;
        this.migrations = java.util.Objects.requireNonNull(migrations, "migrations");
    }

    /** The answer to one request of the protocol's own operations; a malformed one is an ERROR naming its fault. */
    CompletableFuture<Reply> serve(byte[] request) {
        UnsafeBuffer b = new UnsafeBuffer(request);
        String problem = ClientProtocol.check(b, 0, request.length, maxValueBytes);
        if (problem != null) {
            return CompletableFuture.completedFuture(Reply.error(problem));
        }
        byte op = b.getByte(0);
        return switch (op) {
            case ClientProtocol.PING -> CompletableFuture.completedFuture(ping());
            case ClientProtocol.PUT -> updated(b.getLong(1), Mutators.SET, Arrays.copyOfRange(request, 9, request.length));
            case ClientProtocol.DELETE -> updated(b.getLong(1), Mutators.DELETE, new byte[0]);
            case ClientProtocol.ADD_EDGE -> updated(KeyLayout.key(b.getLong(1), b.getInt(9), KeyLayout.OUT),
                Mutators.APPEND, KHopTraversal.encode(b.getLong(13)));
            case ClientProtocol.UPDATES -> updates(UpdatesFrame.decode(b, 0));
            case ClientProtocol.GET -> get(b.getLong(1));
            case ClientProtocol.K_HOP -> kHop(b.getLong(1), b.getInt(9), b.getInt(13), b.getInt(17));
            case ClientProtocol.SCAN_KEYS -> scanKeys(b.getInt(1), b.getLong(5), b.getInt(13));
            case ClientProtocol.MIGRATE -> migrations.migrate(b.getLong(1))
                .thenApply(o -> Reply.ok(new byte[] {(byte) o.ordinal()}));
            case ClientProtocol.HOSTS -> hosts(b);
            case ClientProtocol.PLACE -> place(b);
            case ClientProtocol.STATS -> CompletableFuture.completedFuture(stats());
            case ClientProtocol.MONITOR_START -> migrations.startMonitoring().thenApply(v -> Reply.OK);
            case ClientProtocol.END_INTERVAL -> migrations.endInterval().thenApply(v -> Reply.OK);
            case ClientProtocol.DECIDE -> migrations.decide(b.getLong(1)).thenApply(d -> {
                UnsafeBuffer u = new UnsafeBuffer(new byte[Decided.BYTES]);
                u.putInt(0, d.approvals());
                u.putInt(4, d.track());
                u.putInt(8, d.untrack());
                return Reply.ok(u.byteArray());
            });
            default -> CompletableFuture.completedFuture(Reply.error("unknown operation " + op));
        };
    }

    /** How long past the usual timeout a well-formed request may wait by design: a DECIDE, for reports. */
    static long waitMillis(byte[] request) {
        if (request.length != 9 || request[0] != ClientProtocol.DECIDE) {
            return 0;
        }
        long wait = new UnsafeBuffer(request).getLong(1);
        return wait >= 0 && wait <= ClientProtocol.MAX_DECIDE_MILLIS ? wait : 0; // else refused as malformed anyway
    }

    private Reply stats() {
        MachineStats s = new MachineStats(machine.id(), machine.stats().snapshot(), machine.store().forwardedUpdates(),
            migrations.migrationsRequested(), migrations.migrationsDone(), migrations.valuesMigrated(),
            machine.migrationThread().migrator().bytesMoved(), migrations.approvals(), migrations.isCoordinator(),
            machine.store().replication().replicas().counts());
        UnsafeBuffer u = new UnsafeBuffer(new byte[MachineStats.BYTES]);
        s.encode(u, 0);
        return Reply.ok(u.byteArray());
    }

    private Reply ping() {
        byte[] body = new byte[24];
        UnsafeBuffer u = new UnsafeBuffer(body);
        u.putInt(0, machine.id());
        u.putInt(4, machine.store().machineCount());
        u.putLong(8, machine.store().keys().size());
        u.putLong(16, restoredValues.getAsLong());
        return Reply.ok(body);
    }

    private CompletableFuture<Reply> get(long key) {
        return machine.submit(() -> {
            byte[] v = machine.get(key);
            return v == null ? Reply.ABSENT : Reply.ok(v);
        });
    }

    /**
     * HOSTS: each key's host read fresh from the address word at its home (a local slot when this machine is the
     * home, else one bucket read), never from the location cache, which may name a host the value has left.
     */
    private CompletableFuture<Reply> hosts(UnsafeBuffer request) {
        int n = request.getInt(1);
        return machine.submit(() -> {
            Session s = machine.session();
            UnsafeBuffer u = new UnsafeBuffer(new byte[4 * n]);
            for (int i = 0; i < n; i++) {
                u.putInt(4 * i, s.locate(request.getLong(5 + 8 * i), false) ? Address.host(s.address(), s.home()) : -1);
            }
            return Reply.ok(u.byteArray());
        });
    }

    /** PLACE: the moves handed to the migration policy's coordinator (this machine, or an ERROR naming it). */
    private CompletableFuture<Reply> place(UnsafeBuffer request) {
        int n = request.getInt(1);
        long[] keys = new long[n];
        int[] targets = new int[n];
        for (int i = 0; i < n; i++) {
            keys[i] = request.getLong(5 + 12 * i);
            targets[i] = request.getInt(13 + 12 * i);
            if (targets[i] < 0 || targets[i] >= machine.store().machineCount()) {
                return CompletableFuture.completedFuture(Reply.error("PLACE of key " + keys[i] + " on machine "
                    + targets[i] + " (0.." + (machine.store().machineCount() - 1) + ")"));
            }
        }
        return migrations.place(keys, targets).thenApply(placed -> {
            UnsafeBuffer u = new UnsafeBuffer(new byte[4]);
            u.putInt(0, placed);
            return Reply.ok(u.byteArray());
        });
    }

    private CompletableFuture<Reply> scanKeys(int kind, long cursor, int max) {
        return machine.submit(() -> {
            HomeKeyScan.Page page = HomeKeyScan.page(machine.store().keys(), kind, cursor, max);
            byte[] body = new byte[12 + 8 * page.keys().length];
            UnsafeBuffer u = new UnsafeBuffer(body);
            u.putLong(0, page.next());
            u.putInt(8, page.keys().length);
            for (int i = 0; i < page.keys().length; i++) {
                u.putLong(12 + 8 * i, page.keys()[i]);
            }
            return Reply.ok(body);
        });
    }

    private CompletableFuture<Reply> kHop(long start, int label, int hops, int fanout) {
        return machine.submit(() -> {
            long[] vids = KHopTraversal.toArray(new KHopTraversal(machine.session()).run(start, label, hops, fanout));
            Arrays.sort(vids);
            byte[] body = new byte[4 + 8 * vids.length];
            UnsafeBuffer u = new UnsafeBuffer(body);
            u.putInt(0, vids.length);
            for (int i = 0; i < vids.length; i++) {
                u.putLong(4 + 8 * i, vids[i]);
            }
            return Reply.ok(body);
        });
    }

    /**
     * An update, failed at once (retryably) when the key's home or its value's host is unreachable: the store would
     * otherwise forward it into a dead peer and the client would learn only from the timeout.
     */
    CompletableFuture<Void> update(long key, int mutator, byte[] arg) {
        return machine.submit(() -> {
            String down = unreachableFor(key);
            if (down != null) {
                return CompletableFuture.<Void>failedFuture(new io.pragh.PraghException(down));
            }
            CompletableFuture<Void> f = machine.updateAsync(key, mutator, arg);
            return f.orTimeout(timeoutMillis, TimeUnit.MILLISECONDS).whenComplete((ok, e) -> {
                if (e != null) {
                    machine.store().abandon(f);
                }
            });
        }).thenCompose(f -> f);
    }

    /**
     * An UPDATES frame's updates, issued together (one message per home machine from a few dozen on, as
     * {@code Machine.updateAll}) and answered once all are acknowledged; refused whole when it names a mutator this
     * machine does not know, failed at once (retryably) when a home it needs is unreachable.
     */
    private CompletableFuture<Reply> updates(UpdatesFrame.Updates u) {
        MachineStore store = machine.store();
        for (int i = 0; i < u.count(); i++) {
            if (!store.mutators().has(u.mutators()[i])) {
                return CompletableFuture.completedFuture(Reply.error("UPDATES entry " + i + " names mutator "
                    + u.mutators()[i] + ", which machine " + machine.id() + " does not know (a front end registers"
                    + " it: is it on the server's class path?)"));
            }
        }
        return machine.submit(() -> {
            for (int i = 0; i < u.count(); i++) {
                int home = store.placement().home(u.keys()[i]);
                if (home != store.id() && !store.endpoint().isReachable(home)) {
                    return CompletableFuture.<Void>failedFuture(new io.pragh.PraghException("machine " + home
                        + ", home of key " + u.keys()[i] + ", is unreachable"));
                }
            }
            java.util.List<CompletableFuture<Void>> issued = machine.updateAllAsync(u.keys(), u.mutators(),
                u.arguments(), u.count());
            CompletableFuture<Void> all = CompletableFuture.allOf(issued.toArray(new CompletableFuture[0]));
            return all.orTimeout(timeoutMillis, TimeUnit.MILLISECONDS).whenComplete((ok, e) -> {
                if (e != null) {
                    machine.abandon(issued);
                }
            });
        }).thenCompose(f -> f).thenApply(v -> Reply.OK);
    }

    private CompletableFuture<Reply> updated(long key, int mutator, byte[] arg) {
        return update(key, mutator, arg).thenApply(v -> Reply.OK);
    }

    /** Which machine the key needs and cannot reach, or null. */
    private String unreachableFor(long key) {
        MachineStore store = machine.store();
        int home = store.placement().home(key);
        if (home != store.id() && !store.endpoint().isReachable(home)) {
            return "machine " + home + ", home of key " + key + ", is unreachable";
        }
        Session s = machine.session();
        if (s.locate(key, true)) {
            int host = Address.host(s.address(), s.home());
            if (host != store.id() && !store.endpoint().isReachable(host)) {
                return "machine " + host + ", which holds the value of key " + key + ", is unreachable";
            }
        }
        return null;
    }
}
