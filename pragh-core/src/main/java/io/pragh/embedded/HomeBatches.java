package io.pragh.embedded;

import io.pragh.PraghException;
import io.pragh.runtime.RequestIds;
import io.pragh.store.HostUnavailableException;
import io.pragh.store.MachineStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Updates of many keys carried to each home machine in one message and acknowledged in one, for loads: the home's
 * delivery thread starts every update of the message through the store's ordinary update path (so each is applied
 * in place, or forwarded where its value has migrated, and logged where the cluster is durable) and answers once all
 * are acknowledged. A load of n updates over m machines then costs about m messages each way instead of n.
 *
 * <pre>
 *  BATCH:     type | origin: int | request: long | count: int | count x (key: long | mutator: int | argLen: int | arg)
 *  BATCH_ACK: type | request: long | status: byte (0 ok, 1 failed, 2 retryable) | message: UTF-8, to the end
 * </pre>
 *
 * <pre>{@code
 * List<CompletableFuture<Void>> acks = machine.homeBatches().issue(keys, mutators, args, n);
 * }</pre>
 */
public final class HomeBatches {
    private static final Logger LOG = LoggerFactory.getLogger(HomeBatches.class);

    /** Extension message types (the server's take 16..19). */
    public static final int BATCH = 20;
    public static final int BATCH_ACK = 21;
    /**
     * Bytes of updates one message carries at most: well inside the TCP fabric's default largest message (an eighth
     * of its 8 MiB inbox), so that a batch never waits for a whole inbox to drain.
     */
    static final int MAX_MESSAGE_BYTES = 256 << 10;
    private static final int HEADER = 1 + 4 + 8 + 4;
    private static final int ENTRY_HEADER = 8 + 4 + 4;
    private static final int ACK_HEADER = 1 + 8 + 1;
    private static final byte OK = 0;
    private static final byte FAILED = 1;
    private static final byte RETRYABLE = 2;

    private final MachineStore store;
    /** From a random start per incarnation, as the store's own: a BATCH_ACK to a previous one must find nothing. */
    private final RequestIds requests = new RequestIds();
    private final ConcurrentHashMap<Long, CompletableFuture<Void>> pending = new ConcurrentHashMap<>();

    HomeBatches(MachineStore store) {
        this.store = store;
        store.registerHandler(BATCH, this::onBatch);
        store.registerHandler(BATCH_ACK, this::onAck);
    }

    /**
     * Starts updates {@code [0, count)}: those homed here in place, the others in one message per home (more when
     * they exceed {@link #MAX_MESSAGE_BYTES}); an update too large to share a message goes alone the ordinary way.
     * Updates of one key may take effect in any order.
     *
     * @return futures that complete once their updates are acknowledged, one per message or local update
     */
    public List<CompletableFuture<Void>> issue(long[] keys, int[] mutators, byte[][] args, int count) {
        List<CompletableFuture<Void>> acks = new ArrayList<>();
        ExpandableArrayBuffer[] messages = new ExpandableArrayBuffer[store.machineCount()];
        int[] sizes = new int[messages.length];
        int[] counts = new int[messages.length];
        for (int i = 0; i < count; i++) {
            int home = store.placement().home(keys[i]);
            byte[] arg = args[i];
            if (home == store.id() || ENTRY_HEADER + arg.length > MAX_MESSAGE_BYTES - HEADER) {
                acks.add(store.update(keys[i], mutators[i], new UnsafeBuffer(arg), 0, arg.length));
                continue;
            }
            if (messages[home] != null && sizes[home] + ENTRY_HEADER + arg.length > MAX_MESSAGE_BYTES) {
                acks.add(send(home, messages[home], sizes[home], counts[home]));
                messages[home] = null;
            }
            if (messages[home] == null) {
                messages[home] = new ExpandableArrayBuffer((int) Math.min(MAX_MESSAGE_BYTES, HEADER + 64L * (count - i)));
                sizes[home] = HEADER;
                counts[home] = 0;
            }
            ExpandableArrayBuffer m = messages[home];
            int at = sizes[home];
            m.putLong(at, keys[i]);
            m.putInt(at + 8, mutators[i]);
            m.putInt(at + 12, arg.length);
            m.putBytes(at + ENTRY_HEADER, arg);
            sizes[home] = at + ENTRY_HEADER + arg.length;
            counts[home]++;
        }
        for (int home = 0; home < messages.length; home++) {
            if (messages[home] != null) {
                acks.add(send(home, messages[home], sizes[home], counts[home]));
            }
        }
        return acks;
    }

    /** Requests still waiting for their BATCH_ACK. */
    int pending() {
        return pending.size();
    }

    /** Forgets a request whose caller stopped waiting: a late acknowledgement then finds nothing. */
    void abandon(CompletableFuture<Void> request) {
        pending.values().remove(request);
    }

    private CompletableFuture<Void> send(int home, ExpandableArrayBuffer message, int size, int count) {
        long request = requests.next();
        message.putByte(0, (byte) BATCH);
        message.putInt(1, store.id());
        message.putLong(5, request);
        message.putInt(13, count);
        CompletableFuture<Void> done = new CompletableFuture<>();
        pending.put(request, done);
        try {
            store.send(home, message, 0, size);
        } catch (RuntimeException e) {
            pending.remove(request);
            done.completeExceptionally(e);
        }
        return done;
    }

    /** At the home: starts every update of the batch, then answers once all are acknowledged (never waits here). */
    private void onBatch(int from, DirectBuffer msg, int off, int len) {
        String problem = check(msg, off, len);
        if (problem != null) {
            LOG.warn("machine {} dropped a malformed BATCH from machine {}: {}", store.id(), from, problem);
            return;
        }
        int origin = msg.getInt(off + 1);
        long request = msg.getLong(off + 5);
        int count = msg.getInt(off + 13);
        CompletableFuture<?>[] started = new CompletableFuture<?>[count];
        AtomicReference<Throwable> firstFailure = new AtomicReference<>();
        int at = off + HEADER;
        for (int i = 0; i < count; i++) {
            int argLen = msg.getInt(at + 12);
            try {
                // The update path reads its argument before it returns (applied here, copied into a forward or a
                // log record), so the delivery buffer may be reused once this loop is done.
                started[i] = store.update(msg.getLong(at), msg.getInt(at + 8), msg, at + ENTRY_HEADER, argLen);
            } catch (RuntimeException e) {
                started[i] = CompletableFuture.failedFuture(e);
            }
            at += ENTRY_HEADER + argLen;
        }
        for (CompletableFuture<?> f : started) {
            f.whenComplete((v, t) -> {
                if (t != null) {
                    firstFailure.compareAndSet(null, t);
                }
            });
        }
        CompletableFuture.allOf(started).whenComplete((v, t) -> answer(origin, request, firstFailure.get()));
    }

    /** Why the batch is malformed, or null: every length is checked against the message before anything runs. */
    private String check(DirectBuffer msg, int off, int len) {
        if (len < HEADER) {
            return "BATCH of " + len + " bytes is shorter than its " + HEADER + "-byte header";
        }
        int origin = msg.getInt(off + 1);
        if (origin < 0 || origin >= store.machineCount()) {
            return "origin " + origin + " is not a machine of this " + store.machineCount() + "-machine cluster";
        }
        int count = msg.getInt(off + 13);
        if (count < 0) {
            return "negative update count " + count;
        }
        long at = off + HEADER;
        for (int i = 0; i < count; i++) {
            if (at + ENTRY_HEADER > off + len) {
                return "update " + i + " of " + count + " starts past the end of the message";
            }
            int argLen = msg.getInt((int) at + 12);
            if (argLen < 0 || at + ENTRY_HEADER + argLen > off + len) {
                return "update " + i + " of " + count + " claims an argument of " + argLen + " bytes past the end";
            }
            at += ENTRY_HEADER + argLen;
        }
        return at == off + len ? null : (off + len - at) + " bytes follow the last update";
    }

    private void answer(int origin, long request, Throwable failure) {
        byte status = failure == null ? OK
            : unwrap(failure) instanceof HostUnavailableException ? RETRYABLE : FAILED;
        byte[] text = failure == null ? new byte[0] : String.valueOf(unwrap(failure).getMessage())
            .getBytes(StandardCharsets.UTF_8);
        UnsafeBuffer ack = new UnsafeBuffer(new byte[ACK_HEADER + text.length]);
        ack.putByte(0, (byte) BATCH_ACK);
        ack.putLong(1, request);
        ack.putByte(9, status);
        ack.putBytes(ACK_HEADER, text);
        try {
            // Not on this thread, which on a durable home is the log's (it completed the batch's last update): an
            // origin that takes no bytes would hold up every later record of this machine.
            store.sendLater(origin, ack, 0, ack.capacity());
        } catch (RuntimeException e) {
            // The origin is unreachable: it times its request out and says so; nobody here is waiting.
        }
    }

    private static Throwable unwrap(Throwable t) {
        return t instanceof java.util.concurrent.CompletionException && t.getCause() != null ? t.getCause() : t;
    }

    private void onAck(int from, DirectBuffer msg, int off, int len) {
        if (len < ACK_HEADER) {
            LOG.warn("machine {} dropped a BATCH_ACK of {} bytes from machine {}", store.id(), len, from);
            return;
        }
        CompletableFuture<Void> done = pending.remove(msg.getLong(off + 1));
        if (done == null) {
            return; // abandoned by a caller that stopped waiting
        }
        byte status = msg.getByte(off + 9);
        if (status == OK) {
            done.complete(null);
            return;
        }
        String why = "a batch of updates sent to machine " + from + " failed: "
            + msg.getStringWithoutLengthUtf8(off + ACK_HEADER, len - ACK_HEADER);
        done.completeExceptionally(status == RETRYABLE ? new HostUnavailableException(why) : new PraghException(why));
    }
}
