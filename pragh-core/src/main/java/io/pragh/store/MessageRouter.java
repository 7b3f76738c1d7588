package io.pragh.store;

import io.pragh.address.Address;
import io.pragh.fabric.FabricException;
import io.pragh.fabric.MessageHandler;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The routing of one machine's two-sided messages: the fabric hands every message to {@link #onMessage}, which admits
 * it through the store's operation gate, checks its shape and dispatches it by type (UPDATE to the update protocol,
 * ACK and LOG to the acknowledgements, PRUNE to the key region, anything else to a registered extension). A malformed
 * message is dropped, counted and named; a send refused while handling one is counted as a message lost.
 *
 * <pre>{@code
 * router.register(StoreMessages.FIRST_EXTENSION_TYPE, (from, msg, off, len) -> handle(msg, off, len));
 * endpoint = fabric.attach(id, memory, router::onMessage);
 * }</pre>
 */
final class MessageRouter {
    private static final Logger LOG = LoggerFactory.getLogger(MessageRouter.class);

    private final MachineStore store;
    private final int id;
    private final UpdateProtocol updates;
    private final UpdateAcknowledgements acks;
    private final AtomicReferenceArray<MessageHandler> extensions = new AtomicReferenceArray<>(256);
    private final AtomicLong malformedMessages = new AtomicLong();
    private final LongAdder refusedSends = new LongAdder();

    MessageRouter(MachineStore store, UpdateProtocol updates, UpdateAcknowledgements acks) {
        this.store = store;
        this.id = store.id();
        this.updates = updates;
        this.acks = acks;
    }

    /** Registers the handler of an extension message type ({@link StoreMessages#FIRST_EXTENSION_TYPE} and up). */
    void register(int type, MessageHandler handler) {
        if (type < StoreMessages.FIRST_EXTENSION_TYPE || type > 255) {
            throw new IllegalArgumentException("extension message type " + type + " is outside "
                + StoreMessages.FIRST_EXTENSION_TYPE + "..255");
        }
        if (!extensions.compareAndSet(type, null, handler)) {
            throw new IllegalStateException("message type " + type + " already has a handler on machine " + id);
        }
    }

    /** Messages dropped because they were malformed (each one also logged). */
    long malformedMessages() {
        return malformedMessages.get();
    }

    /** Sends this machine made that the fabric refused (a peer unreachable): lost, as the protocol allows. */
    long refusedSends() {
        return refusedSends.sum();
    }

    void countRefusedSend() {
        refusedSends.increment();
    }

    /** Sends an UPDATE on towards the key's home or the value's host. */
    void sendUpdate(int target, int origin, long request, long key, int mutatorId, DirectBuffer arg, int argOff,
                    int argLen, int hops) {
        UnsafeBuffer msg = StoreMessages.update(origin, request, key, mutatorId, hops, arg, argOff, argLen);
        store.endpoint().send(target, msg, 0, msg.capacity());
    }

    /** Asks the key's home to prune its tombstone. */
    void sendPrune(int home, long key, long tombstone) {
        UnsafeBuffer msg = StoreMessages.prune(key, tombstone);
        store.endpoint().send(home, msg, 0, msg.capacity());
    }

    /** The fabric's entry point for every message addressed to this machine. */
    void onMessage(int from, DirectBuffer msg, int off, int len) {
        int stripe = store.session().gateStripe;
        if (!store.gate().tryEnter(stripe)) {
            return; // closing: the machine is going away, and its callers are told so by the close
        }
        try {
            dispatch(from, msg, off, len);
        } catch (FabricException e) {
            // A message the handler sent on (a forward, a log record) was refused: for the protocol that is a message
            // lost, which it tolerates anyway (the waiting operation times out). Counted, not logged: under a
            // partition it happens all the time.
            refusedSends.increment();
        } finally {
            store.gate().exit(stripe);
        }
    }

    private void dispatch(int from, DirectBuffer msg, int off, int len) {
        if (len < 1) {
            malformed(from, "empty message");
            return;
        }
        int type = msg.getByte(off) & 0xFF;
        switch (type) {
            case StoreMessages.UPDATE -> onUpdate(from, msg, off, len);
            case StoreMessages.ACK -> onAck(from, msg, off, len);
            case StoreMessages.LOG -> onLog(from, msg, off, len);
            case StoreMessages.PRUNE -> onPrune(from, msg, off, len);
            case ReplicaMessages.REPLICATE, ReplicaMessages.ANSWER -> onReplica(from, msg, off, len);
            default -> {
                MessageHandler h = type < extensions.length() ? extensions.get(type) : null;
                if (h == null) {
                    malformed(from, "message of unknown type " + type);
                } else {
                    h.onMessage(from, msg, off, len);
                }
            }
        }
    }

    private void onUpdate(int from, DirectBuffer msg, int off, int len) {
        String problem = StoreMessages.checkUpdate(msg, off, len, store.machineCount());
        if (problem != null) {
            malformed(from, problem);
            return;
        }
        // This thread delivers the messages that end an update's waits: what must wait goes to DeferredUpdates.
        updates.apply(store.session(), msg.getInt(off + StoreMessages.UPDATE_ORIGIN),
            msg.getLong(off + StoreMessages.UPDATE_REQUEST), msg.getLong(off + StoreMessages.UPDATE_KEY),
            msg.getInt(off + StoreMessages.UPDATE_MUTATOR), msg, off + StoreMessages.UPDATE_ARG,
            msg.getInt(off + StoreMessages.UPDATE_ARG_LENGTH), msg.getInt(off + StoreMessages.UPDATE_HOPS));
    }

    private void onLog(int from, DirectBuffer msg, int off, int len) {
        String problem = StoreMessages.checkLog(msg, off, len, store.machineCount());
        if (problem != null) {
            malformed(from, problem);
            return;
        }
        acks.onLog(from, msg.getInt(off + StoreMessages.LOG_ORIGIN), msg.getLong(off + StoreMessages.LOG_REQUEST),
            msg.getLong(off + StoreMessages.LOG_KEY), msg.getLong(off + StoreMessages.LOG_VERSION),
            msg.getInt(off + StoreMessages.LOG_MUTATOR), msg, off + StoreMessages.LOG_ARG,
            msg.getInt(off + StoreMessages.LOG_ARG_LENGTH), msg.getLong(off + StoreMessages.LOG_PUBLISHED),
            msg.getInt(off + StoreMessages.LOG_PUBLISHED_LENGTH));
    }

    private void onAck(int from, DirectBuffer msg, int off, int len) {
        String problem = StoreMessages.checkAck(msg, off, len);
        if (problem != null) {
            malformed(from, problem);
            return;
        }
        int status = msg.getInt(off + StoreMessages.ACK_STATUS);
        acks.complete(id, msg.getLong(off + StoreMessages.ACK_REQUEST), status,
            status == StoreMessages.ACK_OK ? null : StoreMessages.ackText(msg, off));
    }

    private void onPrune(int from, DirectBuffer msg, int off, int len) {
        if (len != StoreMessages.PRUNE_LENGTH) {
            malformed(from, "PRUNE of " + len + " bytes (expected " + StoreMessages.PRUNE_LENGTH + ")");
        } else if (store.placement().home(msg.getLong(off + StoreMessages.PRUNE_KEY)) == id
            && Address.isNone(msg.getLong(off + StoreMessages.PRUNE_WORD))) {
            store.keys().prune(msg.getLong(off + StoreMessages.PRUNE_KEY), msg.getLong(off + StoreMessages.PRUNE_WORD));
        }
    }

    private void onReplica(int from, DirectBuffer msg, int off, int len) {
        String problem = ReplicaMessages.check(msg, off, len);
        if (problem != null) {
            malformed(from, problem);
        } else if (msg.getByte(off) == ReplicaMessages.REPLICATE) {
            store.replication().registry().onRequests(from, msg, off, len);
        } else {
            Replicas replicas = store.replication().replicas();
            for (int at = off; at < off + len; at += ReplicaMessages.ANSWER_BYTES) {
                replicas.onAnswer(msg.getLong(at + ReplicaMessages.KEY), msg.getLong(at + ReplicaMessages.ANSWER_REPLICA),
                    msg.getLong(at + ReplicaMessages.ANSWER_STAMP), msg.getByte(at + ReplicaMessages.GRANTED) == 1);
            }
        }
    }

    private void malformed(int from, String why) {
        malformedMessages.incrementAndGet();
        LOG.warn("machine {} dropped a malformed message from machine {}: {}", id, from, why);
    }
}
