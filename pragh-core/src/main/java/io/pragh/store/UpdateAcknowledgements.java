package io.pragh.store;

import io.pragh.PraghException;
import io.pragh.address.Address;
import io.pragh.fabric.FabricException;
import io.pragh.runtime.DutyExecutor;
import io.pragh.runtime.RequestIds;
import io.pragh.values.ValueRecord;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The acknowledgement side of updates on one machine: the requests this machine started and still waits for, their
 * completion (here, or by an ACK to a peer origin), and, on a durable machine, the LOG/settle path that acknowledges
 * an update only once its home's {@link UpdateLog} has it ({@link #applied}). Owned by {@link MachineStore}.
 *
 * <pre>{@code
 * CompletableFuture<Void> done = new CompletableFuture<>();
 * long request = acks.register(done);
 * // ... the update protocol runs, and eventually:
 * acks.complete(origin, request, null);   // completes done here, or sends an ACK to a peer origin
 * }</pre>
 */
final class UpdateAcknowledgements {
    private static final Logger LOG = LoggerFactory.getLogger(UpdateAcknowledgements.class);
    /** How long a host waits for its home to settle a logged record before it sends the LOG again. */
    private static final long LOG_RESEND_MILLIS = 1_000;

    private final MachineStore store;
    private final int id;
    private final ConcurrentHashMap<Long, CompletableFuture<Void>> pending = new ConcurrentHashMap<>();
    /**
     * From a random start per incarnation: an ACK sent to this machine's previous incarnation (its origin crashed and
     * restarted while the ACK was on its way) must find no request of this one ({@link RequestIds}).
     */
    private final RequestIds requestIds = new RequestIds();
    /** Acknowledgements that named no request waiting here (see {@link #strayAcknowledgements}). */
    private final AtomicLong strayAcks = new AtomicLong();
    /** Set once before serving (null: in-memory only, updates are acknowledged as soon as they took effect). */
    private volatile UpdateLog updateLog;
    /**
     * Where LOGs are sent again, on a durable machine. Not {@code CompletableFuture.delayedExecutor}: with fewer than
     * three cores it starts a thread per task, and a task that cannot start is dropped by its scheduler without a
     * word, which ended resend chains and left records pending for good (the durable soak under partitions).
     */
    private volatile DutyExecutor resends;
    /**
     * Where what the log's acknowledgement of a record tells peers is sent from, off the log's thread (set with the
     * log; see {@link PeerSends}).
     */
    private volatile PeerSends peerSends;
    /** Volatile: installed while serving; null (the usual case) costs one load per acknowledged update. */
    private volatile CommitObserver commitObserver;

    UpdateAcknowledgements(MachineStore store) {
        this.store = store;
        this.id = store.id();
    }

    void setUpdateLog(UpdateLog log) {
        if (resends == null) {
            resends = DutyExecutor.single("m" + id + "-log-resend");
        }
        if (peerSends == null) {
            peerSends = new PeerSends(id, store.machineCount(), () -> store.router().countRefusedSend());
        }
        this.updateLog = log;
    }

    /**
     * Stops sending LOGs again and what logged records tell peers (a restart recovers from the home's log); part of
     * the store's quiesce.
     */
    void close() {
        DutyExecutor r = resends;
        if (r != null) {
            r.close();
        }
        PeerSends p = peerSends;
        if (p != null) {
            p.close();
        }
    }

    void setCommitObserver(CommitObserver observer) {
        this.commitObserver = observer;
    }

    /**
     * Tells the commit observer, if any, of a committed update. What the observer throws is its own failure, not the
     * update's, which took effect (and, on a durable machine, is logged): it is logged here and the update goes on to
     * be settled and acknowledged. On a durable home this runs on the log's thread, in the step that then settles the
     * record and answers the origin; let through, the exception ended in that completion's own future, which nobody
     * reads, and skipped both: a record the home published for itself (no host sends its LOG again) stayed pending
     * for good, its origin waited out its timeout, and every later update of the key was refused, with nothing in any
     * log ({@code LoggedUpdatesSettleWhateverTheCommitObserverDoesTest}).
     */
    private void committed(long key, long version, int mutatorId, DirectBuffer arg, int argOff, int argLen,
                           int length) {
        CommitObserver observer = commitObserver;
        if (observer == null) {
            return;
        }
        try {
            observer.onCommit(key, version, mutatorId, arg, argOff, argLen, length == ValueMutator.DELETE);
        } catch (RuntimeException | Error e) {
            LOG.error("machine {}: the commit observer failed on key {} version {}; the update is settled and"
                + " acknowledged all the same", id, key, Long.toHexString(version), e);
        }
    }

    /** The log updates are made durable in, or null on an in-memory machine. */
    UpdateLog updateLog() {
        return updateLog;
    }

    /** Whether updates are made durable ({@link #setUpdateLog}): their new records then stay pending until logged. */
    boolean durable() {
        return updateLog != null;
    }

    /** Registers a request this machine waits for; returns its id, which its acknowledgement names. */
    long register(CompletableFuture<Void> done) {
        long request = requestIds.next();
        pending.put(request, done);
        return request;
    }

    /**
     * Acknowledgements that reached this machine naming no request it waits for: repeats of one already answered, ones
     * whose caller gave up waiting, and ones addressed to a previous incarnation of this machine id.
     */
    long strayAcknowledgements() {
        return strayAcks.get();
    }

    /** Forgets a request whose start failed here (its future is completed by the caller). */
    void forget(long request) {
        pending.remove(request);
    }

    /** Fails a still-pending request, e.g. when its caller gave up waiting. */
    void abandon(CompletableFuture<Void> request) {
        pending.values().remove(request);
    }

    /**
     * An update took effect here with {@code version}, publishing {@code fresh} (for a delete, {@code length} is
     * {@link ValueMutator#DELETE} and {@code fresh} the record it removed): acknowledge it, after making it durable at
     * the key's home when this cluster is durable. A durable update's new record stays
     * {@link ValueRecord#INVALIDATION_PENDING} (GETs wait for it, and nothing replaces or migrates it) until the home's
     * log has it: a GET must never observe a value that a restart, or a restore from the home's log after this host is
     * lost, could take back. The home clears the bit (one-sidedly, so that no thread here waits for a message) and then
     * acknowledges the origin; until it has, the LOG is sent again (recovery applies a version once, however often it
     * was logged). A durable delete's removed record stays valid and pending the same way (GETs that find its
     * tombstone wait for it), and the home invalidates it once logged, then prunes the tombstone.
     */
    void applied(int home, int origin, long request, long key, long version, int mutatorId, DirectBuffer arg,
                 int argOff, int argLen, long fresh, int length) {
        UpdateLog log = updateLog;
        if (log == null) {
            committed(key, version, mutatorId, arg, argOff, argLen, length);
            complete(origin, request, null);
        } else if (home == id) {
            logThenSettle(log, id, origin, request, key, version, mutatorId, arg, argOff, argLen, fresh, length);
        } else {
            UnsafeBuffer msg = StoreMessages.log(origin, request, key, version, mutatorId, arg, argOff, argLen, fresh,
                length);
            try {
                store.endpoint().send(home, msg, 0, msg.capacity());
            } catch (FabricException unreachable) {
                // Not an answer to the origin: the update took effect, and its record stays pending until logged, so
                // the LOG must go again until the home has it (the origin's own timeout ends its wait meanwhile).
                store.router().countRefusedSend();
            }
            resendUntilSettled(home, msg, fresh, length);
        }
    }

    /**
     * A LOG from {@code host}: appends the update it carries to this home's log and settles it
     * ({@link #logThenSettle}), or refuses it when this machine has no log.
     */
    void onLog(int host, int origin, long request, long key, long version, int mutatorId, DirectBuffer arg,
               int argOff, int argLen, long fresh, int length) {
        UpdateLog log = updateLog;
        if (log == null) {
            complete(origin, request, "machine " + id + " received an update to log but has no log configured");
            return;
        }
        if (!namesRecord(host, key, fresh, length)) {
            // The update took effect on a value this home no longer names: the home restarted since (and reloaded
            // the key from its log, without this update), or restored it from its log after losing the host. Logged
            // now, it would be acknowledged and yet missing from the value every later read sees, and a later
            // recovery would replay it among versions it was never applied to. Refused, and its record invalidated.
            // A known limit: a LOG the home's previous incarnation wrote but had not settled when it crashed is
            // refused too, although the reloaded value holds it; this home cannot tell it from one that never
            // reached the log (its word names the reloaded record either way), and refusing never loses an
            // acknowledged update, whereas acknowledging could.
            // A repeat of a LOG logged and answered already (sent again as the first was settling; the word has
            // moved on since) is refused too: its origin no longer waits for it, and its record is settled, so the
            // invalidation below changes nothing. Whether the record is still pending cannot decide it: a crashed
            // host's memory, where a held LOG's record lived, answers nothing.
            LOG.info("machine {} refused a LOG from machine {}: key {} version {} record {}, home word {}", id, host,
                key, Long.toHexString(version), Address.toString(fresh), Address.toString(homeWord(key)));
            // Invalidated and answered as a logged record is settled: this delivery thread, which hands this machine
            // every message, must not wait for the host or the origin either.
            settleAndAnswer(host, origin, request, key, fresh, length, new HostUnavailableException("update of key "
                + key + " (version " + Long.toHexString(version) + ") was not acknowledged: it took effect on machine "
                + host + " on a value its home, machine " + id + ", no longer names (the home restarted, or restored"
                + " the key from its log, before the update reached its log)"));
            return;
        }
        logThenSettle(log, host, origin, request, key, version, mutatorId, arg, argOff, argLen, fresh, length);
    }

    /**
     * Whether this home's address word still names the record a LOG from {@code host} published: the host CASed the
     * word to it (or, for a DELETE, to its tombstone) before it sent the LOG, and nothing replaces that word while
     * the record is pending. Any other word means the update was applied to a value this home has since replaced
     * without it: a restart reloaded the key from the log, or a restore put it back from there.
     */
    private boolean namesRecord(int host, long key, long published, int length) {
        long word = homeWord(key);
        return length == ValueMutator.DELETE ? word == Address.tombstone(published)
            : word == Address.at(host, id, published);
    }

    private long homeWord(long key) {
        long slot = store.keys().find(key);
        return slot < 0 ? Address.NONE : store.keys().address(slot);
    }

    /**
     * Appends an update to this home's log; once the log has it, clears the pending bit of the record it published on
     * {@code host} and answers its origin. A retryable refusal (the key's value was restored from this log since the
     * update's host was lost, so this home's word no longer names the record) invalidates the record instead: its
     * origin is told it did not take effect, so nobody may read it through a cached address. Any other refusal (the
     * log failed) clears the bit too, as before logging existed, so that the key stays updatable.
     */
    private void logThenSettle(UpdateLog log, int host, int origin, long request, long key, long version,
                               int mutatorId, DirectBuffer arg, int argOff, int argLen, long fresh, int length) {
        CompletableFuture<Void> logged = new CompletableFuture<>();
        long logRequest = register(logged);
        // The argument is the delivering message's buffer, reused once this returns: the observer gets a copy.
        UnsafeBuffer argCopy = null;
        if (commitObserver != null) {
            byte[] copy = new byte[argLen];
            arg.getBytes(argOff, copy);
            argCopy = new UnsafeBuffer(copy);
        }
        UnsafeBuffer observed = argCopy;
        // Completed by the log's thread once the record is durable: nothing here may wait for a peer on it. The commit
        // observer runs here, so it sees a home's commits in log order, as before any of this left the log thread (a
        // key's next update waits until this record is settled, so it is logged after). A record published here is
        // then settled here (a CPU CAS) and its origin answered on (answer); one on another host is settled, then
        // answered, on that host's lane.
        logged.whenComplete((ok, refused) -> {
            try {
                if (refused == null && observed != null) {
                    committed(key, version, mutatorId, observed, 0, observed.capacity(), length);
                }
                settleAndAnswer(host, origin, request, key, fresh, length, refused);
            } catch (RuntimeException | Error e) {
                // Never a silent end: thrown on, it would end in this completion's own future, which nobody reads,
                // and a record of this home's own would stay pending with nothing said anywhere.
                LOG.error("machine {} failed to settle and answer the logged update of key {} (record {} on machine"
                    + " {}); the record may stay pending", id, key, Address.toString(fresh), host, e);
            }
        });
        try {
            log.append(key, version, mutatorId, arg, argOff, argLen, id, logRequest);
        } catch (RuntimeException | Error e) {
            // The record is published and pending: refused as a log that failed is (its bit cleared, its origin told
            // it failed), never left pending with nobody to settle it. A home's own record has no host that sends
            // its LOG again.
            if (pending.remove(logRequest, logged)) {
                logged.completeExceptionally(e);
            }
            if (e instanceof Error err) {
                throw err;
            }
        }
    }

    /**
     * Settles (or, refused retryably, invalidates) a record a LOG published on {@code host} and then answers its
     * origin, never waiting for a peer on the calling thread: here for a record of this machine, on the host's lane
     * otherwise, the answer to a peer origin on the origin's lane.
     */
    private void settleAndAnswer(int host, int origin, long request, long key, long fresh, int length,
                                 Throwable refused) {
        if (host == id) {
            settleThenAnswer(host, origin, request, key, fresh, length, refused);
        } else {
            peerSends.execute(host, () -> settleThenAnswer(host, origin, request, key, fresh, length, refused));
        }
    }

    /** {@link #settleAndAnswer} on the thread it chose. */
    private void settleThenAnswer(int host, int origin, long request, long key, long fresh, int length,
                                  Throwable refused) {
        settleIfOpen(host, key, fresh, length, refused instanceof HostUnavailableException);
        if (refused == null) {
            answer(origin, request, StoreMessages.ACK_OK, null);
        } else if (refused instanceof HostUnavailableException) {
            answer(origin, request, StoreMessages.ACK_RETRYABLE, refused.getMessage());
        } else {
            answer(origin, request, StoreMessages.ACK_FAILED, refused.getMessage());
        }
    }

    /**
     * Answers a request from a thread that must not wait for a peer (the log's, or a lane of another peer): a request
     * of this machine is completed here, and an ACK to a peer origin goes on that peer's lane. On a machine without a
     * log (no lanes), as {@link #complete}.
     */
    void answer(int origin, long request, int status, String error) {
        PeerSends p = peerSends;
        if (origin == id || p == null) {
            complete(origin, request, status, error);
        } else {
            p.answer(origin, () -> complete(origin, request, status, error));
        }
    }

    /**
     * Sends {@code message} to {@code target} from that peer's lane when this machine has a log (see
     * {@link MachineStore#sendLater}), at once otherwise.
     */
    void sendLater(int target, DirectBuffer message, int offset, int length) {
        PeerSends p = peerSends;
        if (p == null) {
            store.endpoint().send(target, message, offset, length);
            return;
        }
        p.answer(target, () -> {
            try {
                store.endpoint().send(target, message, offset, length);
            } catch (FabricException unreachable) {
                store.router().countRefusedSend(); // a message lost: its waiter times out
            }
        });
    }

    /** See {@link MachineStore#queuedPeerSends}. */
    int queuedPeerSends(int peer) {
        PeerSends p = peerSends;
        return p == null ? 0 : p.queued(peer);
    }

    /** Sends a LOG again every {@link #LOG_RESEND_MILLIS} while the record it publishes is pending here. */
    private void resendUntilSettled(int home, UnsafeBuffer msg, long fresh, int length) {
        try {
            resends.schedule(() -> resendIfPending(home, msg, fresh, length), LOG_RESEND_MILLIS, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            // Closing: a restart recovers from the home's log, without this record.
        }
    }

    private void resendIfPending(int home, UnsafeBuffer msg, long fresh, int length) {
        try {
            int stripe = store.session().gateStripe;
            if (!store.gate().tryEnter(stripe)) {
                return; // closing: a restart recovers from the home's log, without this record
            }
            try {
                long header = store.values().region().getLongVolatile(Address.byteOffset(fresh));
                if (!ValueRecord.isInvalidationPending(header) || !ValueRecord.isLiveAt(header, fresh)
                    || length != ValueMutator.DELETE
                    && (ValueRecord.isDeleting(header) || ValueRecord.payloadLengthOf(header) != length)) {
                    // Settled; or marked by a DELETE (which marks only a settled record: its pending bit is the
                    // DELETE's); or grown in place since, pending for a later append whose own LOG settles it.
                    return;
                }
                try {
                    store.endpoint().send(home, msg, 0, msg.capacity());
                } catch (FabricException unreachable) {
                    store.router().countRefusedSend(); // the home is down or cut off: the next attempt may reach it
                }
            } finally {
                store.gate().exit(stripe);
            }
        } catch (RuntimeException unexpected) {
            // Never a silent end: the record would stay pending for good, and every GET of its key wait for it.
            LOG.warn("machine {} failed to send the LOG of its record at {} again; trying again", id,
                Address.byteOffset(fresh), unexpected);
        }
        resendUntilSettled(home, msg, fresh, length);
    }

    /**
     * Clears a logged record's pending bit on {@code host} (or invalidates it), unless this machine is closing. For a
     * logged DELETE the record is the one it removed: invalidated (generation-checked, so a repeat is harmless) and
     * handed to its host's GC, then the tombstone is pruned here, at the key's home.
     */
    private void settleIfOpen(int host, long key, long address, int length, boolean invalidate) {
        int stripe = store.session().gateStripe;
        if (!store.gate().tryEnter(stripe)) {
            return;
        }
        try {
            if (length == ValueMutator.DELETE) {
                if (store.regions().invalidate(host, address)) {
                    store.reclaimRings().post(host, address);
                }
                store.keys().prune(key, Address.tombstone(address));
                return;
            }
            long header = ValueRecord.headerWord(length, address);
            // Exactly the header this update left: a late repeat of its LOG finds a DELETE's mark (or a later
            // record) there instead, and changes nothing (ValueRecord#DELETING).
            long pendingHeader = header | ValueRecord.INVALIDATION_PENDING;
            if (!invalidate) {
                store.regions().casHeader(host, Address.byteOffset(address), pendingHeader, header);
            } else if (store.regions().casHeader(host, Address.byteOffset(address), pendingHeader,
                ValueRecord.invalidated(pendingHeader)) == pendingHeader) {
                store.reclaimRings().post(host, address);
            }
        } catch (FabricException unreachable) {
            // The host keeps sending the LOG while its record is pending: the next one settles it.
        } finally {
            store.gate().exit(stripe);
        }
    }

    void complete(int origin, long request, String error) {
        complete(origin, request, error == null ? StoreMessages.ACK_OK : StoreMessages.ACK_FAILED, error);
    }

    /**
     * Refuses an update back to its origin as retryable: a machine it needed is unreachable, so it did not take
     * effect (a {@link HostUnavailableException} there).
     */
    void completeRetryable(int origin, long request, String why) {
        complete(origin, request, StoreMessages.ACK_RETRYABLE, why);
    }

    void complete(int origin, long request, int status, String error) {
        if (origin == id) {
            CompletableFuture<Void> done = pending.remove(request);
            if (done == null) {
                strayAcks.incrementAndGet();
            } else {
                if (status == StoreMessages.ACK_OK) {
                    done.complete(null);
                } else if (status == StoreMessages.ACK_RETRYABLE) {
                    done.completeExceptionally(new HostUnavailableException(error));
                } else {
                    done.completeExceptionally(new PraghException(error));
                }
            }
        } else {
            UnsafeBuffer ack = StoreMessages.ack(request, status, error);
            try {
                store.endpoint().send(origin, ack, 0, ack.capacity());
            } catch (FabricException e) {
                // The origin is unreachable: the acknowledgement is lost, as a dropped message would be, and the
                // origin's caller times out. Thrown on, it would stop whoever acknowledges (the log's thread).
                store.router().countRefusedSend();
            }
        }
    }

    /** Fails every request still waiting: the machine is closing, so no acknowledgement will come. */
    void failPending() {
        for (Long request : pending.keySet()) {
            CompletableFuture<Void> f = pending.remove(request);
            if (f != null) {
                f.completeExceptionally(new PraghException("machine " + id
                    + " closed before the update was acknowledged; it may or may not have taken effect"));
            }
        }
    }
    /**
     * {@link BulkInsert}'s way into the write-ahead log: logs a loaded record as a SET at {@code version}; the future
     * completes once it is durable, at once on a machine without a log.
     */
    CompletableFuture<Void> logLoaded(long key, long version, DirectBuffer value, int offset, int length) {
        UpdateLog log = updateLog;
        if (log == null) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> durable = new CompletableFuture<>();
        log.append(key, version, Mutators.SET, value, offset, length, id, register(durable));
        return durable;
    }
}
