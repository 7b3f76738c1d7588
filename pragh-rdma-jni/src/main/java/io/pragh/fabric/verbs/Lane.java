package io.pragh.fabric.verbs;

import io.pragh.fabric.FabricException;
import io.pragh.rdma.jni.Completion;
import io.pragh.rdma.jni.NativeBuffer;
import io.pragh.rdma.jni.WorkRequest;
import java.util.ArrayDeque;

/**
 * Everything one posting thread needs to issue one-sided operations without sharing: its own completion queue, its
 * own reliable connection to each peer it has addressed, registered bounce memory, and native buffers for work
 * descriptors and completions. The thread that posts is the thread that polls: a completion is handed to the
 * {@link VerbsOpBatch} named in its work request id, which belongs to this thread too, so nothing here is locked.
 *
 * <p>Flow control: a connection never has more than sendQueueDepth requests outstanding. An unsignalled WRITE
 * produces no completion; it is retired with the next signalled request on its connection (a reliable connection
 * completes in order), so every post ends each connection's run with a signalled request, and at least every half
 * queue of unsignalled ones is signalled as well.
 */
final class Lane implements AutoCloseable {
    static final int DESCRIPTORS = 256;
    static final int COMPLETIONS = 64;
    private static final int MAX_BATCHES = 1 << 16;

    /** This lane's connection to one peer. */
    static final class Link {
        final int target;
        final Transport.Connection connection;
        final RemoteMemory remote;
        volatile boolean down;
        int inFlight;
        /** Op indices, in the posting batch, of unsignalled requests since the last signalled one. */
        final org.agrona.collections.IntArrayList uncovered = new org.agrona.collections.IntArrayList();

        Link(int target, Transport.Connection connection, RemoteMemory remote) {
            this.target = target;
            this.connection = connection;
            this.remote = remote;
        }
    }

    private final VerbsEndpoint endpoint;
    private final Transport transport;
    private final VerbsConfig config;
    private final int id;
    private final Thread owner;
    private final long cq;
    private final NativeBuffer descriptors;
    private final NativeBuffer completions;
    private final WorkRequest request = new WorkRequest();
    private final Completion completion = new Completion();
    private final Link[] links;
    private VerbsOpBatch[] batches = new VerbsOpBatch[16];
    private final ArrayDeque<Integer> freeTokens = new ArrayDeque<>();
    private int nextToken = 1;
    private ScratchArena scratch;
    private int written;
    private int signalledOutstanding;
    private final VerbsOpBatch single;
    private boolean closed;

    Lane(VerbsEndpoint endpoint, Transport transport, VerbsConfig config, int id) {
        this.endpoint = endpoint;
        this.transport = transport;
        this.config = config;
        this.id = id;
        this.owner = Thread.currentThread();
        this.links = new Link[config.machineCount()];
        this.cq = transport.createCompletionQueue(Math.min(1 << 16, config.sendQueueDepth() * config.machineCount()));
        this.descriptors = NativeBuffer.allocate(DESCRIPTORS * WorkRequest.SIZE);
        this.completions = NativeBuffer.allocate(COMPLETIONS * Completion.SIZE);
        this.scratch = new ScratchArena(transport, config.scratchBytes());
        this.single = new VerbsOpBatch(this, 1);
    }

    VerbsEndpoint endpoint() {
        return endpoint;
    }

    VerbsConfig config() {
        return config;
    }

    VerbsOpBatch single() {
        return single;
    }

    void checkOwner() {
        if (Thread.currentThread() != owner) {
            throw new IllegalStateException("a verbs batch belongs to the thread that created it (" + owner.getName()
                + "), not " + Thread.currentThread().getName());
        }
        if (closed) {
            throw new FabricException("fabric is closed", false);
        }
    }

    /** This lane's live connection to {@code target}, connecting first if there is none. */
    Link link(int target) {
        Link link = links[target];
        if (link != null && !link.down) {
            return link;
        }
        if (link != null) {
            abandon(link, "the connection to machine " + target + " went down");
        }
        RemoteMemory remote = endpoint.remoteMemory(target);
        Transport.Connection connection = Await.result(transport.connect(endpoint.address(target),
                new ConnectionHeader(ConnectionHeader.Kind.LANE, endpoint.machine(), id).encode(),
                new Transport.QueuePairSpec(cq, cq, config.sendQueueDepth(), 1), c -> { }),
            config.connectTimeout(), "connecting lane " + id + " of machine " + endpoint.machine() + " to machine "
                + target);
        Link fresh = new Link(target, connection, remote);
        endpoint.onDisconnect(connection, () -> fresh.down = true);
        links[target] = fresh;
        return fresh;
    }

    int register(VerbsOpBatch batch) {
        int token;
        if (!freeTokens.isEmpty()) {
            token = freeTokens.pop();
        } else {
            if (nextToken == MAX_BATCHES) {
                throw new IllegalStateException("more than " + (MAX_BATCHES - 1) + " batches with operations in "
                    + "flight on one thread");
            }
            token = nextToken++;
            if (token >= batches.length) {
                batches = java.util.Arrays.copyOf(batches, batches.length * 2);
            }
        }
        batches[token] = batch;
        return token;
    }

    void release(int token) {
        batches[token] = null;
        freeTokens.push(token);
    }

    /** Bounce memory for {@code bytes}; may post, drain and reset, or grow the arena, all before returning. */
    int scratch(int bytes) {
        int offset = scratch.allocate(bytes);
        if (offset >= 0) {
            return offset;
        }
        flush();
        drainSignalled();
        scratch.reset();
        offset = scratch.allocate(bytes);
        if (offset >= 0) {
            return offset;
        }
        ScratchArena larger = new ScratchArena(transport, Math.max(bytes, scratch.capacity() * 2));
        scratch.close(); // nothing outstanding can touch it: drained above
        scratch = larger;
        return scratch.allocate(bytes);
    }

    ScratchArena arena() {
        return scratch;
    }

    /** Called at the start of a post: an idle lane starts with an empty arena. */
    void resetScratchIfIdle() {
        if (signalledOutstanding == 0 && written == 0) {
            scratch.reset();
        }
    }

    /** The descriptor slot for the next request; posts the full buffer first if needed. */
    WorkRequest nextDescriptor() {
        if (written == DESCRIPTORS) {
            flush();
        }
        return request.wrap(descriptors, written++);
    }

    /** Waits, reaping completions, until {@code link} may take one more request. */
    void awaitCredit(Link link) {
        long deadline = 0;
        while (link.inFlight >= config.sendQueueDepth() && !link.down) {
            flush();
            if (pollOnce() == 0) {
                long now = System.nanoTime();
                if (deadline == 0) {
                    deadline = now + config.operationTimeout().toNanos();
                } else if (now > deadline) {
                    abandon(link, "machine " + link.target + " completed nothing within "
                        + config.operationTimeout().toMillis() + " ms");
                }
                Thread.onSpinWait();
            }
        }
    }

    void signalled() {
        signalledOutstanding++;
    }

    void retired() {
        signalledOutstanding--;
    }

    /** Posts every written descriptor. A refusal abandons the connection of the refused request. */
    void flush() {
        if (written == 0) {
            return;
        }
        int count = written;
        written = 0;
        int posted = transport.postSend(descriptors, 0, count);
        if (posted >= 0) {
            return;
        }
        int sent = -(posted + 1);
        String reason = "posting to the NIC failed: " + transport.errnoText(transport.lastPostErrno());
        for (int i = sent; i < count; i++) {
            long wrId = request.wrap(descriptors, i).wrId();
            VerbsOpBatch batch = batches[(int) (wrId >>> 32)];
            if (batch != null) {
                Link link = batch.linkOf((int) wrId);
                if (link != null) {
                    abandon(link, reason);
                }
            }
        }
    }

    /** Reaps what has completed; returns how many completions it handled. */
    int pollOnce() {
        int n = transport.poll(cq, completions, COMPLETIONS);
        for (int i = 0; i < n; i++) {
            completion.wrap(completions, i);
            long wrId = completion.wrId();
            VerbsOpBatch batch = batches[(int) (wrId >>> 32)];
            if (batch == null) {
                continue; // its operations were abandoned already
            }
            if (completion.succeeded()) {
                batch.completed((int) wrId);
            } else {
                Link link = batch.linkOf((int) wrId);
                String status = transport.completionStatusText(completion.status());
                batch.failed((int) wrId, status, completion.status(), completion.vendorError());
                if (link != null) {
                    abandon(link, "machine " + link.target + " operation failed: " + status);
                }
            }
        }
        return n;
    }

    /** Polls until no signalled request is outstanding, so that the bounce memory is free. */
    void drainSignalled() {
        long deadline = System.nanoTime() + config.operationTimeout().toNanos();
        while (signalledOutstanding > 0) {
            if (pollOnce() == 0) {
                if (System.nanoTime() > deadline) {
                    for (Link link : links) {
                        if (link != null && link.inFlight > 0) {
                            abandon(link, "machine " + link.target + " completed nothing within "
                                + config.operationTimeout().toMillis() + " ms");
                        }
                    }
                    return;
                }
                Thread.onSpinWait();
            }
        }
    }

    /**
     * Gives a connection up: tears it down (after which the NIC no longer touches this lane's memory for it) and fails
     * every operation still outstanding on it, in every batch of this lane.
     */
    void abandon(Link link, String reason) {
        if (links[link.target] == link) {
            links[link.target] = null;
        }
        link.down = true;
        transport.disconnect(link.connection);
        for (VerbsOpBatch batch : batches) {
            if (batch != null) {
                batch.abandonOn(link, reason);
            }
        }
        link.inFlight = 0;
        link.uncovered.clear();
    }

    /** Abandons the connections of every outstanding operation of {@code batch}. */
    void abandonAll(VerbsOpBatch batch, String reason) {
        for (Link link : links) {
            if (link != null && batch.hasOutstandingOn(link)) {
                abandon(link, reason);
            }
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Link link : links) {
            if (link != null) {
                transport.disconnect(link.connection);
            }
        }
        scratch.close();
        descriptors.close();
        completions.close();
        transport.destroyCompletionQueue(cq);
    }
}
