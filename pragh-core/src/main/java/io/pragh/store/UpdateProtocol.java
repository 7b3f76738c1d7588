package io.pragh.store;

import io.pragh.LimitExceededException;
import io.pragh.PraghException;
import io.pragh.address.Address;
import io.pragh.fabric.FabricException;
import io.pragh.fabric.Region;
import io.pragh.keys.KeyRegion;
import io.pragh.memory.ChunkedRegion;
import io.pragh.reclaim.Leases;
import io.pragh.values.ValueRecord;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * PUT with check-and-forward (paper Fig. 9), generalised to any {@link ValueMutator}: an update starts at the key's
 * home and runs where the value lives. That machine reads the current record locally, writes the new one locally,
 * and installs it by CAS on the home's address word (locally or one-sidedly). A lost CAS (a concurrent update or
 * migration) reruns the mutator on the newer value; finding the value elsewhere forwards the update there. The old
 * record is then invalidated (its header word zeroed) and posted to this machine's own reclaim ring.
 *
 * <p>An update is acknowledged to its origin only after (a) its CAS succeeded, (b) the record it replaced is
 * invalidated, and (c) that record's own predecessor was invalid before the CAS (the record is not replaced while
 * its {@link ValueRecord#INVALIDATION_PENDING} bit is set; the fence orders this machine's own migrations too), so
 * after the acknowledgement no reader anywhere can read an older value as valid. A delete, which publishes no
 * record, sets that bit on the record it removes before its CAS (and clears it if the CAS loses), so that GETs
 * reaching the record through cached addresses wait for its invalidation too (see {@link Session#get}).
 *
 * <p>Runs on the calling thread for updates that originate at the home, and on the delivery thread for forwarded
 * ones; it never waits for another machine's threads, only for one-sided operations.
 */
final class UpdateProtocol {
    /** Forwards an update may take before it is failed: values do not move that often. */
    static final int MAX_HOPS = 64;
    private static final int MAX_ATTEMPTS = 100_000;
    private static final long PENDING_PATIENCE_NANOS = 5_000_000_000L;
    private static final UnsafeBuffer EMPTY = new UnsafeBuffer(new byte[0]);

    private final MachineStore machine;

    UpdateProtocol(MachineStore machine) {
        this.machine = machine;
    }

    /**
     * Applies an update here or forwards it. Completes the origin's request (acknowledgement or error) itself when
     * the update ends here.
     */
    void apply(Session s, int origin, long request, long key, int mutatorId, DirectBuffer arg, int argOff, int argLen,
               int hops) {
        try {
            long version = applyOrForward(s, origin, request, key, mutatorId, arg, argOff, argLen, hops);
            if (version == NOTHING_CHANGED) {
                machine.complete(origin, request, null);
            } else if (version != FORWARDED) {
                machine.applied(s.home, origin, request, key, version, mutatorId, arg, argOff, argLen);
            }
        } catch (FabricException e) {
            String why = e.getMessage() == null ? e.toString() : e.getMessage();
            if (e.retryable()) {
                // A machine the update needs is down (the host it must be forwarded to, or the home its LOG goes
                // to): refuse it back to its origin, which may retry once recovery is done, rather than drop it.
                machine.completeRetryable(origin, request, "update of key " + key + " was not acknowledged: " + why);
            } else {
                machine.complete(origin, request, why);
            }
        } catch (RuntimeException e) {
            machine.complete(origin, request, e.getMessage() == null ? e.toString() : e.getMessage());
        }
    }

    private static final long FORWARDED = -1;
    private static final long NOTHING_CHANGED = -2;

    /** @return the version the update produced here, {@link #FORWARDED}, or {@link #NOTHING_CHANGED} */
    private long applyOrForward(Session s, int origin, long request, long key, int mutatorId, DirectBuffer arg,
                                int argOff, int argLen, int hops) {
        ValueMutator mutator = machine.mutators().get(mutatorId);
        int self = machine.id();
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            boolean present = s.lookup(key, true);
            int home = s.home;
            if (!present) {
                if (home != self) {
                    forward(home, origin, request, key, mutatorId, arg, argOff, argLen, hops);
                    return FORWARDED;
                }
                long version = insertAtHome(key, mutator, arg, argOff, argLen);
                if (version != FORWARDED) {
                    return version;
                }
                continue;
            }
            long address = s.address;
            int host = Address.host(address, home);
            if (host != self) {
                if (s.fromCache) {
                    // A cached address is a hint that only a read of the record validates, and forwarding reads
                    // nothing: two machines whose entries point at each other would bounce the update until
                    // MAX_HOPS. Forward only on the home's own word (one READ of its bucket on the next attempt).
                    s.dropCached(key, address);
                    continue;
                }
                machine.countForwardToHost();
                forward(host, origin, request, key, mutatorId, arg, argOff, argLen, hops);
                return FORWARDED;
            }
            long version = replaceHere(s, key, home, address, mutator, arg, argOff, argLen);
            if (version != FORWARDED) {
                return version;
            }
        }
        throw new PraghException("update of key " + key + " lost its CAS " + MAX_ATTEMPTS + " times in a row");
    }

    /**
     * The key has no value and this is its home: write the first value and claim (or reuse) its slot.
     *
     * @return the new version, {@link #NOTHING_CHANGED} for a delete of an absent key, or {@link #FORWARDED} (reused
     *     here to mean "lost a race, retry")
     */
    private long insertAtHome(long key, ValueMutator mutator, DirectBuffer arg, int argOff, int argLen) {
        int length = mutator.newLength(EMPTY, 0, -1, arg, argOff, argLen);
        if (length == ValueMutator.DELETE) {
            return NOTHING_CHANGED;
        }
        checkValueLength(key, length);
        long units = ValueRecord.unitsFor(length);
        long offsetUnits = machine.values().allocate(units);
        long version = machine.nextFirstVersion();
        machine.writeRecord(key, version, offsetUnits, units, length, 0, mutator, EMPTY, 0, -1, arg, argOff, argLen);
        KeyRegion keys = machine.keys();
        long slot = keys.insert(key, Address.local(units, offsetUnits),
            (at, expected, desired) -> machine.casAddress(machine.id(), at, expected, desired));
        if (slot >= 0) {
            machine.stats().local(KeyRegion.SLOT_BYTES);
            return version;
        }
        machine.values().free(offsetUnits, units);
        return FORWARDED;
    }

    /**
     * The value lives here: replace it by CAS on the home's address word.
     *
     * @return the new version (a delete's too), or {@link #FORWARDED} (here: lost a race, retry)
     */
    private long replaceHere(Session s, long key, int home, long address, ValueMutator mutator, DirectBuffer arg,
                                int argOff, int argLen) {
        int self = machine.id();
        ChunkedRegion values = machine.values().region();
        long oldOffset = Address.byteOffset(address);
        UnsafeBuffer chunk = values.chunkFor(oldOffset);
        int index = values.indexInChunk(oldOffset);
        long header = awaitPredecessorInvalidated(key, chunk, index);
        if (ValueRecord.unitsOf(header) != Address.sizeUnits(address) || chunk.getLong(index + 8) != key) {
            s.dropCached(key, address);
            return FORWARDED;
        }
        int curLen = ValueRecord.payloadLengthOf(header);
        long version = chunk.getLong(index + ValueRecord.VERSION_OFFSET) + 1;
        int curOff = index + ValueRecord.HEADER_BYTES;
        machine.stats().local(curLen + ValueRecord.HEADER_BYTES);
        int length = mutator.newLength(chunk, curOff, curLen, arg, argOff, argLen);
        long desired;
        long offsetUnits = -1;
        long units = 0;
        if (length == ValueMutator.DELETE) {
            // Flagged before the CAS: from the CAS on the key reads absent at its home while this record stays valid
            // until invalidated below, so a GET reaching it through a cached address must wait, not return it.
            if (!chunk.compareAndSetLong(index, header, header | ValueRecord.INVALIDATION_PENDING)) {
                return FORWARDED; // replaced meanwhile by an update on another thread: start again
            }
            desired = Address.NONE;
        } else {
            checkValueLength(key, length);
            units = ValueRecord.unitsFor(length);
            if (self != home && units > Address.MAX_MIGRATED_UNITS) {
                throw new LimitExceededException("value of " + length + " bytes for key " + key + " exceeds the "
                    + Address.MAX_MIGRATED_BYTES + "-byte (32 MiB) limit of a migrated value; it lives on machine "
                    + self + ", not its home " + home);
            }
            offsetUnits = machine.values().allocate(units);
            machine.writeRecord(key, version, offsetUnits, units, length, ValueRecord.INVALIDATION_PENDING, mutator,
                chunk, curOff, curLen, arg, argOff, argLen);
            desired = Address.of(self, home, units, offsetUnits);
        }
        boolean won = false;
        try {
            won = s.leaseHolds() && machine.casAddress(home, s.slot, address, desired);
        } finally {
            if (!won && desired == Address.NONE) {
                chunk.compareAndSetLong(index, header | ValueRecord.INVALIDATION_PENDING, header); // still current
            }
        }
        if (!won) {
            if (offsetUnits >= 0) {
                machine.values().free(offsetUnits, units);
            }
            s.dropCached(key, address);
            return FORWARDED;
        }
        // Passive invalidation (Fig. 9 line 11) and reclaim (line 12): the old record is ours, so both are local.
        values.putLongVolatile(oldOffset, 0);
        // Stamped before the bit clears: from then on the new record may be replaced and invalidated, and a cache
        // entry stamped later than that would outlive the record's reclaim lease.
        long stampMillis = Leases.nowMillis();
        if (offsetUnits >= 0) {
            // Release: whoever sees the bit clear (and may then replace the new record) sees the old one invalid.
            values.putLongVolatile(offsetUnits << 3, ValueRecord.headerWord(length, units));
        }
        machine.reclaimRings().post(self, address);
        machine.fence().await(key);
        if (home != self) {
            if (desired == Address.NONE) {
                machine.cache().invalidate(key, address);
                machine.sendPrune(home, key);
            } else {
                machine.cache().insert(key, desired, s.slot, stampMillis);
            }
        } else if (desired == Address.NONE) {
            machine.keys().prune(key);
        }
        return version;
    }

    /**
     * The header of the local record at {@code index} once the operation that published it has invalidated the
     * record it replaced ({@link ValueRecord#INVALIDATION_PENDING}); that operation is past its CAS and needs one
     * more write, so this wait is short unless its thread died.
     */
    private static long awaitPredecessorInvalidated(long key, UnsafeBuffer chunk, int index) {
        long header = chunk.getLongVolatile(index);
        long deadline = 0;
        while (ValueRecord.isInvalidationPending(header)) {
            long now = System.nanoTime();
            if (deadline == 0) {
                deadline = now + PENDING_PATIENCE_NANOS;
            } else if (now > deadline) {
                throw new PraghException("update of key " + key + " found its value's previous record still not"
                    + " invalidated after " + (PENDING_PATIENCE_NANOS / 1_000_000) + " ms");
            }
            // Yield, not spin: the publisher may be a thread waiting for this core.
            Thread.yield();
            header = chunk.getLongVolatile(index);
        }
        return header;
    }

    private void checkValueLength(long key, int length) {
        if (length > machine.config().maxValueBytes()) {
            throw new LimitExceededException("value of " + length + " bytes for key " + key + " exceeds the"
                + " configured maximum of " + machine.config().maxValueBytes() + " bytes (maxValueBytes)");
        }
    }

    private void forward(int target, int origin, long request, long key, int mutatorId, DirectBuffer arg, int argOff,
                         int argLen, int hops) {
        if (hops >= MAX_HOPS) {
            throw new PraghException("update of key " + key + " was forwarded " + hops + " times without finding its"
                + " value; giving up");
        }
        machine.sendUpdate(target, origin, request, key, mutatorId, arg, argOff, argLen, hops + 1);
    }
}
