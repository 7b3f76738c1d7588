package io.pragh.fabric.verbs;

import io.pragh.fabric.FabricException;
import io.pragh.fabric.MessageHandler;
import io.pragh.rdma.jni.Completion;
import io.pragh.rdma.jni.NativeBuffer;
import io.pragh.rdma.jni.PraghVerbs;
import io.pragh.rdma.jni.WorkRequest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A machine's two-sided messages over SEND / RECV. Each machine opens one message connection to every peer it sends
 * to (itself included); the peer accepts it, answers with its region table ({@link RegionTable}) and then receives
 * that machine's messages on it. One delivery thread reaps every receive completion and calls the handler, so
 * messages from one sender arrive in order (a reliable connection preserves it). Receive buffers are reposted as
 * soon as the handler returns; a sender that finds none waits in the NIC (infinite RNR retry), not in Java.
 */
final class Messenger implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Messenger.class);

    /** One message connection, incoming or outgoing. */
    final class Link {
        final int id;
        final int peer;
        final boolean incoming;
        final NativeBuffer receive;
        final Transport.Registration receiveRegistration;
        final RegionTable.Builder table;
        volatile Transport.Connection connection;
        volatile boolean down;
        private boolean released;

        Link(int id, int peer, boolean incoming) {
            this.id = id;
            this.peer = peer;
            this.incoming = incoming;
            this.receive = NativeBuffer.allocate(config.receiveSlots() * config.messageBytes());
            try {
                this.receiveRegistration = transport.register(receive.address(), receive.size(),
                    PraghVerbs.ACCESS_LOCAL_WRITE);
            } catch (RuntimeException e) {
                receive.close();
                throw e;
            }
            this.table = incoming ? null : new RegionTable.Builder(peer);
        }

        /** Tears the connection down and frees its buffers; a link replaced by a reconnect is released early. */
        synchronized void release() {
            if (released) {
                return;
            }
            released = true;
            Transport.Connection c = connection;
            if (c != null) {
                transport.disconnect(c);
            }
            transport.deregister(receiveRegistration);
            receive.close();
        }
    }

    private final VerbsEndpoint endpoint;
    private final Transport transport;
    private final VerbsConfig config;
    private final MessageHandler handler;
    private final long sendCq;
    private final long recvCq;
    private final NativeBuffer sendSlots;
    private final Transport.Registration sendRegistration;
    private final NativeBuffer sendDescriptor;
    private final NativeBuffer sendCompletions;
    private final int[] freeSlots; // guarded by sendLock
    private int freeCount; // guarded by sendLock
    private final Object sendLock = new Object();
    private final NativeBuffer receiveDescriptors; // guarded by receiveLock
    private final Object receiveLock = new Object();
    private final WorkRequest sendRequest = new WorkRequest(); // guarded by sendLock
    private final WorkRequest receiveRequest = new WorkRequest(); // guarded by receiveLock
    private final List<Link> links = new CopyOnWriteArrayList<>(); // index = link id; down links stay as tombstones
    private final Map<Transport.Connection, Link> byConnection = new ConcurrentHashMap<>();
    private final AtomicReferenceArray<Link> outgoing;
    private final AtomicReferenceArray<CompletableFuture<RemoteMemory>> tables;
    private final Object[] connectLocks;
    private final Thread delivery;
    private volatile boolean running = true;

    Messenger(VerbsEndpoint endpoint, Transport transport, VerbsConfig config, MessageHandler handler) {
        this.endpoint = endpoint;
        this.transport = transport;
        this.config = config;
        this.handler = handler;
        int machines = config.machineCount();
        this.outgoing = new AtomicReferenceArray<>(machines);
        this.tables = new AtomicReferenceArray<>(machines);
        this.connectLocks = new Object[machines];
        for (int m = 0; m < machines; m++) {
            connectLocks[m] = new Object();
            tables.set(m, new CompletableFuture<>());
        }
        this.sendCq = transport.createCompletionQueue(config.sendSlots());
        this.recvCq = transport.createCompletionQueue(Math.min(1 << 20, config.receiveSlots() * 2 * machines + 16));
        this.sendSlots = NativeBuffer.allocate(config.sendSlots() * config.messageBytes());
        this.sendRegistration = transport.register(sendSlots.address(), sendSlots.size(),
            PraghVerbs.ACCESS_LOCAL_WRITE);
        this.sendDescriptor = NativeBuffer.allocate(WorkRequest.SIZE);
        this.sendCompletions = NativeBuffer.allocate(config.sendSlots() * Completion.SIZE);
        this.receiveDescriptors = NativeBuffer.allocate(config.receiveSlots() * WorkRequest.SIZE);
        this.freeSlots = new int[config.sendSlots()];
        for (int i = 0; i < freeSlots.length; i++) {
            freeSlots[freeCount++] = i;
        }
        this.delivery = new Thread(this::deliver, "pragh-verbs-delivery-" + endpoint.machine());
        delivery.setDaemon(true);
        delivery.start();
    }

    /** Queue pairs of message connections: sends on the shared send queue, receives on the delivery queue. */
    Transport.QueuePairSpec spec() {
        return new Transport.QueuePairSpec(sendCq, recvCq, config.sendSlots(), config.receiveSlots());
    }

    private Link newLink(int peer, boolean incoming) {
        synchronized (links) {
            Link link = new Link(links.size(), peer, incoming);
            links.add(link);
            return link;
        }
    }

    /** The outgoing message connection to {@code target}, opened (and its table requested) on first use. */
    Link outgoing(int target) {
        Link link = outgoing.get(target);
        if (link != null && !link.down) {
            return link;
        }
        synchronized (connectLocks[target]) {
            link = outgoing.get(target);
            if (link != null && !link.down) {
                return link;
            }
            if (link != null) {
                link.release();
            }
            if (tables.get(target).isDone()) {
                tables.set(target, new CompletableFuture<>());
            }
            Link fresh = newLink(target, false);
            CompletableFuture<Transport.Connection> connecting = transport.connect(endpoint.address(target),
                new ConnectionHeader(ConnectionHeader.Kind.MESSAGES, endpoint.machine(), 0).encode(), spec(),
                c -> {
                    fresh.connection = c;
                    postReceives(fresh);
                });
            Transport.Connection c;
            try {
                c = Await.result(connecting, config.connectTimeout(), "opening the message connection from machine "
                    + endpoint.machine() + " to machine " + target);
            } catch (FabricException e) {
                fresh.down = true;
                throw e;
            }
            byConnection.put(c, fresh);
            endpoint.onDisconnect(c, () -> linkDown(fresh));
            outgoing.set(target, fresh);
            return fresh;
        }
    }

    /** The region table of {@code target}, connecting and waiting for it if needed. */
    RemoteMemory remoteMemory(int target) {
        CompletableFuture<RemoteMemory> table = tables.get(target);
        if (table.isDone() && !table.isCompletedExceptionally()) {
            return table.join();
        }
        outgoing(target);
        return Await.result(tables.get(target), config.connectTimeout(), "receiving machine " + target
            + "'s region table");
    }

    boolean isDown(int target) {
        Link link = outgoing.get(target);
        return link != null && link.down;
    }

    /** A peer opened a message connection to this machine: give it receive buffers before it is accepted. */
    void accepted(Transport.Connection connection, int peer) {
        Link link = newLink(peer, true);
        link.connection = connection;
        postReceives(link);
        byConnection.put(connection, link);
        endpoint.onDisconnect(connection, () -> linkDown(link));
    }

    /** An accepted message connection is up: tell the peer where this machine's memory is. */
    void established(Transport.Connection connection) {
        Link link = byConnection.get(connection);
        if (link != null && link.incoming) {
            RegionTable.encode(endpoint.localMemory(), config.messageBytes(), (m, length) -> sendRaw(link, m, length));
        }
    }

    /** The largest user message: a message slot less the header that tells user messages from region tables. */
    int maxMessageBytes() {
        return config.messageBytes() - RegionTable.USER_HEADER;
    }

    /** Sends a user message; returns once the bytes are copied into registered memory and posted. */
    void send(int target, DirectBuffer message, int offset, int length) {
        int max = maxMessageBytes();
        if (length < 0 || length > max) {
            throw new IllegalArgumentException("a message of " + length + " bytes does not fit; the verbs fabric "
                + "carries at most " + max + " bytes per message (messageBytes)");
        }
        Link link = outgoing(target);
        synchronized (sendLock) {
            int slot = acquireSlot();
            int base = slot * config.messageBytes();
            UnsafeBuffer slots = sendSlots.view();
            RegionTable.userHeader(slots, base);
            slots.putBytes(base + RegionTable.USER_HEADER, message, offset, length);
            post(link, slot, length + RegionTable.USER_HEADER);
        }
    }

    private void sendRaw(Link link, DirectBuffer message, int length) {
        synchronized (sendLock) {
            int slot = acquireSlot();
            sendSlots.view().putBytes(slot * config.messageBytes(), message, 0, length);
            post(link, slot, length);
        }
    }

    private int acquireSlot() { // holds sendLock
        long deadline = System.nanoTime() + config.operationTimeout().toNanos();
        while (freeCount == 0) {
            if (reapSends() == 0) {
                if (System.nanoTime() > deadline) {
                    throw new FabricException("no message send buffer of machine " + endpoint.machine()
                        + " became free within " + config.operationTimeout().toMillis() + " ms", true);
                }
                Thread.onSpinWait();
            }
        }
        return freeSlots[--freeCount];
    }

    private int reapSends() { // holds sendLock
        int n = transport.poll(sendCq, sendCompletions, config.sendSlots());
        Completion c = new Completion();
        for (int i = 0; i < n; i++) {
            c.wrap(sendCompletions, i);
            freeSlots[freeCount++] = (int) c.wrId();
            if (!c.succeeded()) {
                Link link = links.get((int) (c.wrId() >>> 32));
                LOG.warn("message to machine {} failed: {}", link.peer,
                    transport.completionStatusText(c.status()));
                linkDown(link);
            }
        }
        return n;
    }

    private void post(Link link, int slot, int length) { // holds sendLock
        Transport.Connection c = link.connection;
        if (link.down || c == null) {
            freeSlots[freeCount++] = slot;
            throw new FabricException("the message connection to machine " + link.peer + " is down", true);
        }
        long wrId = ((long) link.id << 32) | slot;
        sendRequest.wrap(sendDescriptor, 0).send(c.qp(), wrId, sendSlots.address() + (long) slot
            * config.messageBytes(), sendRegistration.lkey(), length, true);
        int posted = transport.postSend(sendDescriptor, 0, 1);
        if (posted < 0) {
            freeSlots[freeCount++] = slot;
            linkDown(link);
            throw new FabricException("sending to machine " + link.peer + " failed: "
                + transport.errnoText(transport.lastPostErrno()), true);
        }
    }

    private void postReceives(Link link) {
        synchronized (receiveLock) {
            for (int slot = 0; slot < config.receiveSlots(); slot++) {
                describeReceive(link, slot, slot);
            }
            submitReceives(link, config.receiveSlots());
        }
    }

    private void repost(Link link, int slot) {
        synchronized (receiveLock) {
            describeReceive(link, slot, 0);
            submitReceives(link, 1);
        }
    }

    private void describeReceive(Link link, int slot, int descriptor) { // holds receiveLock
        receiveRequest.wrap(receiveDescriptors, descriptor).receive(link.connection.qp(), ((long) link.id << 32) | slot,
            link.receive.address() + (long) slot * config.messageBytes(), link.receiveRegistration.lkey(),
            config.messageBytes());
    }

    private void submitReceives(Link link, int count) { // holds receiveLock
        if (transport.postRecv(receiveDescriptors, 0, count) < 0) {
            LOG.warn("posting receive buffers for machine {} failed: {}", link.peer,
                transport.errnoText(transport.lastPostErrno()));
            linkDown(link);
        }
    }

    private void deliver() {
        NativeBuffer completions = NativeBuffer.allocate(64 * Completion.SIZE);
        Completion c = new Completion();
        IdleStrategy idle = new BackoffIdleStrategy(100, 10, TimeUnit.MICROSECONDS.toNanos(1),
            TimeUnit.MILLISECONDS.toNanos(1));
        try {
            while (running) {
                int n = transport.poll(recvCq, completions, 64);
                for (int i = 0; i < n; i++) {
                    c.wrap(completions, i);
                    Link link = links.get((int) (c.wrId() >>> 32));
                    int slot = (int) c.wrId();
                    if (!c.succeeded()) {
                        if (c.status() != Completion.FLUSHED) {
                            LOG.warn("receive from machine {} failed: {}", link.peer,
                                transport.completionStatusText(c.status()));
                        }
                        linkDown(link);
                        continue;
                    }
                    dispatch(link, slot, c.byteLength());
                    if (!link.down) {
                        repost(link, slot);
                    }
                }
                idle.idle(n);
            }
        } catch (RuntimeException e) {
            if (running) {
                LOG.error("message delivery of machine " + endpoint.machine() + " stopped", e);
            }
        } finally {
            completions.close();
        }
    }

    private void dispatch(Link link, int slot, int length) {
        UnsafeBuffer view = link.receive.view();
        int base = slot * config.messageBytes();
        if (length < 1) {
            return;
        }
        if (view.getByte(base) == RegionTable.USER) {
            try {
                handler.onMessage(link.peer, view, base + RegionTable.USER_HEADER, length - RegionTable.USER_HEADER);
            } catch (RuntimeException e) {
                // A handler bug must not stop delivery for every other sender; the handler reports its own errors.
                LOG.error("machine " + endpoint.machine() + " message handler failed", e);
            }
            return;
        }
        if (link.table == null) {
            LOG.warn("machine {} sent a region table on the wrong connection", link.peer);
            return;
        }
        try {
            RemoteMemory table = link.table.accept(view, base, length);
            if (table != null) {
                tables.get(link.peer).complete(table);
            }
        } catch (IllegalArgumentException e) {
            tables.get(link.peer).completeExceptionally(new FabricException(e.getMessage(), false, e));
            linkDown(link);
        }
    }

    private void linkDown(Link link) {
        link.down = true;
        if (!link.incoming) {
            tables.get(link.peer).completeExceptionally(new FabricException("the message connection to machine "
                + link.peer + " went down", true));
        }
    }

    void stopDelivery() {
        running = false;
        if (Thread.currentThread() != delivery) {
            try {
                delivery.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void close() {
        stopDelivery();
        for (Link link : links) {
            link.down = true;
            link.release();
        }
        transport.deregister(sendRegistration);
        sendSlots.close();
        sendDescriptor.close();
        sendCompletions.close();
        receiveDescriptors.close();
        transport.destroyCompletionQueue(sendCq);
        transport.destroyCompletionQueue(recvCq);
    }
}
