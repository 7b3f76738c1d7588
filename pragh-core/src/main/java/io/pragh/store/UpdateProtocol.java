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
 * record is then invalidated (by a CAS of its header that checks its generation) and handed to this machine's GC.
 * No lease is checked before the CAS: the expected word names the old record's allocation by its generation, so a
 * CAS that lands however late cannot succeed once that record was replaced, freed and its memory reused.
 *
 * <p>The host locks the record before it reads it ({@link ValueRecord#LOCKED}, set by CAS):
 * updates of one record at its host run one at a time, so the value a replacement was computed from is the one its
 * CAS replaces. An append that fits the record's slack is then written in place ({@link InPlaceAppend}) and needs no
 * CAS of the home's word; one that does not fit moves the list into a record of the next power-of-two size
 * ({@link #grownUnits}), so appends cost O(1) amortized. Only at the key's home: a value migrated elsewhere is
 * appended to by writing a new record, as any update.
 *
 * <p>An update is acknowledged to its origin only after (a) its CAS succeeded, (b) the record it replaced is
 * invalidated, and (c) that record's own predecessor was invalid before the CAS (the record is not replaced while
 * its {@link ValueRecord#INVALIDATION_PENDING} bit is set; the fence orders this machine's own migrations too), so
 * after the acknowledgement no reader anywhere can read an older value as valid. A delete, which publishes no
 * record, sets that bit on the record it removes before its CAS (and clears it if the CAS loses), so that GETs
 * reaching the record through cached addresses wait for its invalidation too (see {@link Session#get}), and installs
 * a {@linkplain Address#tombstone tombstone}: a word that reads as "no value" but is unique to the record removed.
 *
 * <p>On a durable cluster a new record stays pending past the acknowledgement's other conditions, until the key's
 * home has logged the update ({@link MachineStore#applied}): a GET must not observe what a restart could take back.
 * A DELETE is held the same way: the record it removes stays valid and pending until the home has logged the
 * DELETE and invalidated it, and a GET (or insert) that finds the tombstone waits for that invalidation, so no
 * client sees a key absent that a restart could bring back.
 *
 * <p>A one-sided CAS can fail without saying whether it took effect (its reply lost). Since the word it installs is
 * unique to this update (a new record's address, or a tombstone) and nothing replaces that word while the update is
 * unsettled, a second CAS of the same words decides: its witness is the expected word (it takes effect now), the
 * desired one (the first did), or another (neither ever will). Only while the home does not answer at all is the
 * outcome unknown; the update then goes to {@link UncertainUpdates}, which settles and completes it later, so the
 * key is never left with a pending bit nobody will clear.
 *
 * <p>Runs on the calling thread for updates that originate at the home, and on the delivery thread for forwarded
 * ones; it never waits for another machine's threads, only for one-sided operations.
 */
final class UpdateProtocol {
    /** Forwards an update may take before it is failed: values do not move that often. */
    static final int MAX_HOPS = 64;
    private static final int MAX_ATTEMPTS = 100_000;
    private static final UnsafeBuffer EMPTY = new UnsafeBuffer(new byte[0]);

    private final MachineStore machine;
    private final InPlaceAppend appends;
    private final PreviousUpdateChecks previous;

    UpdateProtocol(MachineStore machine) {
        this.machine = machine;
        this.appends = new InPlaceAppend(machine);
        this.previous = new PreviousUpdateChecks(machine);
    }

    /**
     * Applies an update here or forwards it. Completes the origin's request (acknowledgement or error) itself when
     * the update ends here.
     */
    void apply(Session s, int origin, long request, long key, int mutatorId, DirectBuffer arg, int argOff, int argLen,
               int hops) {
        // Behind an update of the key already handed over: in line after it, so that one thread's updates of a key
        // take effect in the order it made them.
        if (machine.deferredUpdates().holds(key)
            || !applyIfSettled(s, origin, request, key, mutatorId, arg, argOff, argLen, hops)) {
            machine.deferredUpdates().defer(origin, request, key, mutatorId, arg, argOff, argLen, hops);
        }
    }

    /**
     * Applies the update or forwards it, as {@link #apply}, unless it must first wait for the key's previous update
     * ({@link PreviousUpdateChecks}): then nothing happened, and the caller hands it to (or keeps it in)
     * {@link DeferredUpdates}.
     *
     * @return false when nothing happened because the update must wait; true when it ended here (acknowledged or
     *     refused) or went on to another machine
     */
    boolean applyIfSettled(Session s, int origin, long request, long key, int mutatorId, DirectBuffer arg, int argOff,
                           int argLen, int hops) {
        try {
            long version = applyOrForward(s, origin, request, key, mutatorId, arg, argOff, argLen, hops);
            if (version == DEFERRED) {
                return false;
            }
            if (version == NOTHING_CHANGED) {
                machine.acks().complete(origin, request, null);
            } else if (version != FORWARDED && version != HANDED_OFF) {
                machine.acks().applied(s.home, origin, request, key, version, mutatorId, arg, argOff, argLen,
                    s.published, s.publishedLength);
            }
        } catch (FabricException e) {
            String why = e.getMessage() == null ? e.toString() : e.getMessage();
            if (e.retryable()) {
                // A machine the update needs is down (the host it must be forwarded to, or the home its LOG goes
                // to): refuse it back to its origin, which may retry once recovery is done, rather than drop it.
                machine.acks().completeRetryable(origin, request, "update of key " + key + " was not acknowledged: "
                    + why);
            } else {
                machine.acks().complete(origin, request, why);
            }
        } catch (RuntimeException e) {
            machine.acks().complete(origin, request, e.getMessage() == null ? e.toString() : e.getMessage());
        }
        return true;
    }

    static final long FORWARDED = -1;
    private static final long NOTHING_CHANGED = -2;
    /** The CAS's outcome is unknown: {@link UncertainUpdates} completes the update once it is known. */
    private static final long HANDED_OFF = -3;
    /** Nothing happened: the update must wait for the key's previous one; {@link DeferredUpdates} tries it again. */
    private static final long DEFERRED = -4;

    static final int WON = 0;
    static final int LOST = 1;
    static final int UNKNOWN = 2;

    /**
     * @return the version the update produced here, {@link #FORWARDED}, {@link #NOTHING_CHANGED},
     *     {@link #HANDED_OFF} or {@link #DEFERRED}
     */
    private long applyOrForward(Session s, int origin, long request, long key, int mutatorId, DirectBuffer arg,
                                int argOff, int argLen, int hops) {
        ValueMutator mutator = machine.mutators().get(mutatorId);
        int self = machine.id();
        s.published = Address.NONE;
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            boolean present = s.lookup(key, true);
            int home = s.home;
            if (!present) {
                if (home != self) {
                    forward(home, origin, request, key, mutatorId, arg, argOff, argLen, hops);
                    return FORWARDED;
                }
                long version = insertAtHome(s, key, mutator, arg, argOff, argLen);
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
            long version = replaceHere(s, origin, request, key, home, address, mutatorId, mutator, arg, argOff, argLen);
            if (version != FORWARDED) {
                return version;
            }
        }
        throw new PraghException("update of key " + key + " lost its CAS " + MAX_ATTEMPTS + " times in a row");
    }

    /**
     * The key has no value and this is its home: write the first value and claim (or reuse) its slot. A tombstone in
     * the word is taken over only once its DELETE has invalidated the record it removed ({@link PreviousUpdateChecks#deleteFinished}):
     * until then the deleter may still need the tombstone to tell that its CAS took effect.
     *
     * @return the new version, {@link #NOTHING_CHANGED} for a delete of an absent key, {@link #DEFERRED}, or
     *     {@link #FORWARDED} (reused here to mean "lost a race, retry")
     */
    private long insertAtHome(Session s, long key, ValueMutator mutator, DirectBuffer arg, int argOff, int argLen) {
        long absent = s.slot >= 0 ? s.address : Address.NONE;
        if (Address.isTombstone(absent)) {
            // Also before answering a DELETE "nothing changed": on a durable cluster the previous DELETE may not be
            // logged yet, and a restart could still bring the value back.
            if (!previous.deleteFinished(absent)) {
                return DEFERRED; // the LOG that finishes it may be queued behind this very message
            }
        }
        int length = mutator.newLength(EMPTY, 0, -1, arg, argOff, argLen);
        if (length == ValueMutator.DELETE) {
            return NOTHING_CHANGED;
        }
        checkValueLength(key, length);
        long address = machine.values().allocate(ValueRecord.unitsFor(length));
        long version = machine.incarnations().nextFirstVersion();
        long slot;
        try {
            // Pending until named, so that the leak scan leaves it alone while this thread may still publish it.
            machine.regions().writeRecord(key, version, address, length, ValueRecord.INVALIDATION_PENDING, mutator,
                EMPTY, 0, -1, arg, argOff, argLen);
            slot = machine.keys().insert(key, absent, address,
                (at, expected, desired) -> machine.regions().casAddress(machine.id(), at, expected, desired));
        } catch (RuntimeException | Error e) {
            // A mutator that failed, or a full key region: the record was never named, and being pending, the leak
            // scan would never take it.
            machine.values().release(address);
            throw e;
        }
        if (slot < 0) {
            machine.values().release(address);
            return FORWARDED;
        }
        if (!machine.acks().durable()) {
            machine.regions().settled(address, length); // a durable one settles once its home's log has it
        }
        s.published = address;
        s.publishedLength = length;
        machine.stats().local(KeyRegion.SLOT_BYTES);
        return version;
    }

    /**
     * The value lives here: replace it by CAS on the home's address word.
     *
     * @return the new version (a delete's too), {@link #FORWARDED} (here: lost a race, retry), {@link #HANDED_OFF}
     *     or {@link #DEFERRED}
     */
    private long replaceHere(Session s, int origin, long request, long key, int home, long address, int mutatorId,
                             ValueMutator mutator, DirectBuffer arg, int argOff, int argLen) {
        int self = machine.id();
        ChunkedRegion values = machine.values().region();
        long oldOffset = Address.byteOffset(address);
        UnsafeBuffer chunk = values.chunkFor(oldOffset);
        int index = values.indexInChunk(oldOffset);
        long header = chunk.getLongVolatile(index);
        if (PreviousUpdateChecks.pending(header, address)) {
            return DEFERRED; // what clears it (a LOG's settle, an invalidation) may need this very thread
        }
        if (machine.putBacks().holdsBack(header)) {
            return DEFERRED; // put back from the log while older records of it may be read elsewhere (PutBackFence)
        }
        if (!ValueRecord.isLiveAt(header, address) || chunk.getLong(index + ValueRecord.KEY_OFFSET) != key) {
            s.dropCached(key, address);
            return FORWARDED;
        }
        // Locked before it is read (ValueRecord#LOCKED): the record's other updaters here (an append in place among
        // them) wait until this one is settled, so the value computed below is the one the CAS replaces.
        if (machine.regions().casHeader(self, oldOffset, header, header | ValueRecord.LOCKED) != header) {
            return FORWARDED; // replaced or locked meanwhile by an update on another thread: start again
        }
        long fresh = Address.NONE;
        long desired;
        int length;
        long version;
        try {
            int curLen = ValueRecord.payloadLengthOf(header);
            version = ValueRecord.version(chunk, index, header) + 1;
            int curOff = index + ValueRecord.HEADER_BYTES;
            machine.stats().local(curLen + ValueRecord.HEADER_BYTES);
            // Grown in place only at the key's home (see ValueRecord, "Appends in place": what can grow a migration's
            // source then dies with the word that names its successor); elsewhere an append writes a new record.
            int appended = home == self ? mutator.appendedLength(arg, argOff, argLen) : -1;
            if (appended >= 0 && curLen + (long) appended <= ValueRecord.capacityOf(header)) {
                checkValueLength(key, curLen + appended);
                return appends.append(s, key, address, chunk, index, header, mutator, arg, argOff, argLen);
            }
            length = mutator.newLength(chunk, curOff, curLen, arg, argOff, argLen);
            if (length == ValueMutator.DELETE) {
                // Flagged before the CAS: from the CAS on the key reads absent at its home while this record stays
                // valid until invalidated below, so a GET reaching it through a cached address must wait, not
                // return it. The flag also keeps migrations off it until this delete is settled. Marked as the
                // DELETE's (not only pending): a late settle of the update that published the record expects the
                // plain pending header, and must not clear this one (ValueRecord#DELETING).
                long locked = header | ValueRecord.LOCKED;
                if (machine.regions().casHeader(self, oldOffset, locked, ValueRecord.deleting(locked)) != locked) {
                    return FORWARDED; // invalidated meanwhile by a migration that moved it on: start again
                }
                desired = Address.tombstone(address);
            } else {
                checkValueLength(key, length);
                fresh = machine.values().allocate(appended >= 0 ? grownUnits(length) : ValueRecord.unitsFor(length));
                machine.regions().writeRecord(key, version, fresh, length, ValueRecord.INVALIDATION_PENDING,
                    mutator, chunk, curOff, curLen, arg, argOff, argLen);
                desired = Address.at(self, home, fresh);
            }
        } catch (RuntimeException | Error e) {
            // A mutator that failed, or a full region: nothing was published. The new record, never named and
            // pending, would never be taken by the leak scan.
            undo(key, address, fresh, header);
            throw e;
        }
        int outcome;
        try {
            outcome = machine.regions().casAddress(home, s.slot, address, desired) ? WON : LOST;
        } catch (FabricException uncertain) {
            // The CAS may have taken effect (a reply lost on the way back): ask the word again.
            outcome = recas(home, s.slot, address, desired);
        }
        if (outcome == UNKNOWN) {
            byte[] argCopy = new byte[argLen];
            arg.getBytes(argOff, argCopy);
            machine.uncertainUpdates().add(new UncertainUpdates.Entry(origin, request, key, home, s.slot, address,
                desired, fresh, length, header, version, mutatorId, argCopy));
            return HANDED_OFF;
        }
        if (outcome == LOST) {
            undo(key, address, fresh, header);
            s.dropCached(key, address);
            return FORWARDED;
        }
        finishWon(key, home, s.slot, address, desired, fresh, length);
        s.published = published(address, fresh);
        s.publishedLength = length;
        return version;
    }

    /**
     * Record units to allocate for an appended value of {@code length} bytes that no longer fits its record: the
     * smallest power of two that holds it (within the configured maximum), so a list of n entries has moved O(log n)
     * times and copied O(n) bytes in all, and each append costs O(1) amortized. Powers of two rather than twice the
     * old length: every list grows through the same few size classes, whose superseded records the next lists reuse;
     * sizes that depended on each list's history would scatter them over classes nobody else asks for.
     */
    long grownUnits(int length) {
        long units = ValueRecord.unitsFor(length);
        long powerOfTwo = Long.highestOneBit(units - 1) << 1;
        return Math.max(units, Math.min(powerOfTwo, ValueRecord.unitsFor(machine.config().maxValueBytes())));
    }

    /**
     * The record a durable update leaves pending until its home has logged it: the new one, or for a DELETE
     * ({@code fresh} is {@link Address#NONE}) the one it removed, which the home then invalidates.
     */
    static long published(long replaced, long fresh) {
        return fresh != Address.NONE ? fresh : replaced;
    }

    /**
     * A CAS of the home's word from {@code expected} to {@code desired} failed without saying whether it took effect:
     * CAS again. The word moves off {@code expected} only once and never comes back to it (an address names one
     * allocation by its generation), and nothing replaces {@code desired} while this update is unsettled (a new record
     * is pending; a tombstone is kept until its DELETE has invalidated the old record), so the witness decides.
     *
     * @return {@link #WON}, {@link #LOST} or {@link #UNKNOWN} (the home still does not answer)
     */
    int recas(int home, long slot, long expected, long desired) {
        long witness;
        try {
            witness = machine.endpoint().compareAndSwap(home, Region.KEYS, slot, expected, desired);
        } catch (FabricException stillUnanswered) {
            return UNKNOWN;
        }
        return witness == expected || witness == desired ? WON : LOST;
    }

    /**
     * After a won CAS: invalidate the old record (Fig. 9 line 11) and hand it to this machine's GC (line 12), clear
     * the new record's pending bit, wait for any migration of the key to finish its own invalidation, then update the
     * cache (or prune the deleted key's slot).
     */
    void finishWon(long key, int home, long slot, long address, long desired, long fresh, int length) {
        int self = machine.id();
        if (fresh == Address.NONE && machine.acks().durable()) {
            // A durable DELETE: the removed record stays valid and pending until the home has logged the DELETE; the
            // home then invalidates it, hands it to this machine's GC and prunes the tombstone (MachineStore#applied).
            // The replicas go first: the LOG that lets the home make the DELETE visible is sent after this returns.
            machine.replication().registry().invalidateReplicas(key);
            machine.fence().await(key);
            if (home != self) {
                machine.cache().invalidate(key, address);
            }
            return;
        }
        machine.replication().registry().invalidateReplicas(key); // before any of this update is readable (replicas.md)
        // Generation-checked (and whatever its lock): if the leak scan took the superseded record meanwhile, it is
        // invalid already and the scan handed it to the GC, so it is not handed over twice.
        boolean invalidatedHere = machine.invalidate(self, address);
        // Stamped before the bit clears: from then on the new record may be replaced and invalidated, and a cache
        // entry stamped later than that would outlive the record.
        long stampMillis = Leases.nowMillis();
        if (fresh != Address.NONE && !machine.acks().durable()) {
            // Release: whoever sees the bit clear (and may then replace the new record) sees the old one invalid.
            // A durable update's record stays pending until its home's log has it (MachineStore#applied).
            machine.regions().settled(fresh, length);
        }
        if (invalidatedHere) {
            machine.reclaimRings().post(self, address);
        }
        machine.fence().await(key);
        if (fresh == Address.NONE) {
            // The DELETE is done: the tombstone can go (a lost PRUNE leaves it for the next insert to replace).
            if (home == self) {
                machine.keys().prune(key, desired);
            } else {
                machine.cache().invalidate(key, address);
                try {
                    machine.router().sendPrune(home, key, desired);
                } catch (FabricException homeUnreachable) {
                    // The delete took effect; only the slot stays until the next insert replaces the tombstone.
                }
            }
        } else if (home != self) {
            machine.cache().insert(key, desired, slot, stampMillis);
        }
    }

    /**
     * After a lost CAS (or a failure before it): the new record was never published; the update's lock, and a
     * delete's pending flag, come off the record it kept, unless a migration invalidated that meanwhile.
     */
    void undo(long key, long address, long fresh, long header) {
        if (fresh != Address.NONE) {
            machine.values().release(fresh);
        }
        long offset = Address.byteOffset(address);
        long locked = header | ValueRecord.LOCKED;
        if (machine.regions().casHeader(machine.id(), offset, locked, header) != locked) {
            machine.regions().casHeader(machine.id(), offset, ValueRecord.deleting(locked), header);
        }
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
        machine.router().sendUpdate(target, origin, request, key, mutatorId, arg, argOff, argLen, hops + 1);
    }
}
