package io.pragh.store;

import io.pragh.runtime.DutyExecutor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a durable home tells its peers once its write-ahead log has an update (the CAS that settles the update's
 * record on the host of a migrated value, the ACK to the update's origin), run off the log's thread. A send to a peer
 * that is slow or down waits: the TCP fabric's sender while the peer takes no bytes, a one-sided CAS until its answer
 * or the request timeout, a connection being opened until the connect timeout. Run on the log thread, that wait held
 * up every later record of the machine (unlogged, their records pending and every GET of their keys waiting), so one
 * stuck peer stalled the durability of all its writes.
 *
 * <p>One lane per peer: a bounded queue, run in order by at most one thread at a time (borrowed from this machine's
 * pool, which so has at most one thread per peer busy), so a stuck peer holds up only what is addressed to it. Order:
 * a task is handed over only by the log's acknowledgement of a record, which the log makes after the write (and, by
 * policy, the fsync) that made the record durable, so nothing sent here can announce an update before it is durable;
 * the queue's offer and poll order the handing thread's writes before the task runs. A task that settles a record and
 * then acknowledges it hands the ACK to the origin's lane only once the settle returned, so an update is never
 * acknowledged before its record is readable.
 *
 * <p>What a full lane does depends on whether anything sends the task's message again. A settle is sent again: the host
 * sends its LOG every second while its record is pending, and the home settles and acknowledges it then. So a lane
 * that holds {@link #LANE_CAPACITY} tasks (the peer has not taken anything for a while) drops a settle, counted as a
 * refused send and logged, as a message lost: waiting for room would put the log thread back behind the stuck peer.
 * An answer (the ACK or BATCH_ACK to an origin, {@link #answer}) is sent by nothing else: once its record is settled
 * the host stops sending the LOG, so an answer dropped here left its update done and never acknowledged (a burst of
 * settles on one lane handing ACKs to the origin's lane faster than that lane sent them, on a slow machine: CI,
 * session 17). Answers are therefore taken until the lane holds {@link #ANSWER_CAPACITY} tasks, a peer that has
 * taken nothing for far longer than a burst lasts; only beyond it is an answer dropped (its origin's wait ends by its
 * own timeout, the update's outcome unknown). A drop never acknowledges anything: an ACK is itself a task, or follows
 * its settle in one. A task that throws is counted the same way and never ends its lane, an Error included (it still
 * ends the borrowed thread, and the lane goes on on another).
 *
 * <pre>{@code
 * PeerSends sends = new PeerSends(id, machineCount, store.router()::countRefusedSend);
 * sends.execute(host, () -> settle(host, record));                       // sent again by the host's LOG
 * sends.answer(origin, () -> endpoint.send(origin, ack, 0, ack.capacity())); // sent by nothing else
 * sends.close();
 * }</pre>
 */
final class PeerSends implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PeerSends.class);
    /** Tasks a lane holds before it drops a task the protocol sends again (see the class comment). */
    static final int LANE_CAPACITY = 4_096;
    /**
     * Tasks a lane holds before it drops an answer, which nothing sends again: a few dozen bytes each, so a lane this
     * full holds some megabytes, and its peer has taken nothing while this many updates were logged for it.
     */
    static final int ANSWER_CAPACITY = 1 << 18;
    /** A task that took longer than this is logged, naming the peer: what the log's slow-batch report named before. */
    static final long SLOW_TASK_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final int id;
    private final DutyExecutor threads;
    private final AtomicReferenceArray<Lane> lanes;
    private final Runnable countDropped;

    PeerSends(int id, int machineCount, Runnable countDropped) {
        this.id = id;
        this.threads = DutyExecutor.pool("m" + id + "-peer-sends");
        this.lanes = new AtomicReferenceArray<>(machineCount);
        this.countDropped = countDropped;
    }

    /**
     * Runs {@code task} on {@code peer}'s lane, after every task handed over for that peer before it; dropped when the
     * lane holds {@link #LANE_CAPACITY} tasks, so only for what the protocol sends again (a settle).
     */
    void execute(int peer, Runnable task) {
        lane(peer).offer(task, LANE_CAPACITY);
    }

    /**
     * Runs {@code task}, which answers an origin (nothing sends it again), on {@code peer}'s lane after every task
     * handed over for that peer before it; dropped only when the lane holds {@link #ANSWER_CAPACITY} tasks.
     */
    void answer(int peer, Runnable task) {
        lane(peer).offer(task, ANSWER_CAPACITY);
    }

    /** Tasks queued for {@code peer} and not yet taken by its lane (the one running, if any, not counted). */
    int queued(int peer) {
        Lane lane = lanes.get(peer);
        return lane == null ? 0 : lane.queued.get();
    }

    private Lane lane(int peer) {
        Lane lane = lanes.get(peer);
        if (lane == null) {
            lanes.compareAndSet(peer, null, new Lane(peer));
            lane = lanes.get(peer);
        }
        return lane;
    }

    /** Stops the lanes' threads; tasks still queued are dropped (a restart recovers from the log). */
    @Override
    public void close() {
        threads.close();
    }

    private final class Lane {
        private final int peer;
        /**
         * Linked, not an array: an array sized for {@link #ANSWER_CAPACITY} would hold a megabyte per peer that is
         * almost always empty. Bounded by {@link #queued}.
         */
        private final ManyToOneConcurrentLinkedQueue<Runnable> queue = new ManyToOneConcurrentLinkedQueue<>();
        /** Tasks in {@link #queue}: raised before an offer (so no two offers pass a bound together), lowered on poll. */
        private final AtomicInteger queued = new AtomicInteger();
        /** Set while a drain is scheduled or running: at most one thread runs this lane. */
        private final AtomicBoolean scheduled = new AtomicBoolean();
        /**
         * Whether a drop was logged since the lane was last found empty: one warning per episode (settles dropped while
         * answers are still taken would otherwise log one each).
         */
        private volatile boolean full;

        Lane(int peer) {
            this.peer = peer;
        }

        void offer(Runnable task, int capacity) {
            if (queued.incrementAndGet() > capacity) {
                queued.decrementAndGet();
                drop("its lane holds " + capacity + " tasks: machine " + peer + " has not taken what this machine"
                    + " sent it for a while");
                return;
            }
            queue.offer(task);
            if (scheduled.compareAndSet(false, true)) {
                try {
                    threads.execute(this::drain);
                } catch (RejectedExecutionException closing) {
                    // Closing: what is queued goes as a closing machine's messages in flight do (not worth a warning),
                    // each counted, while this thread holds the flag: it is then the only one taking from the queue.
                    dropQueued();
                    scheduled.set(false);
                }
            }
        }

        /** Closing: counts each queued task as a dropped send; only while holding the flag (one consumer). */
        private void dropQueued() {
            while (queue.poll() != null) {
                queued.decrementAndGet();
                countDropped.run();
            }
        }

        private void drop(String why) {
            countDropped.run();
            if (!full) {
                full = true;
                LOG.warn("machine {} dropped a message to machine {} (as lost): {}", id, peer, why);
            }
        }

        private void drain() {
            boolean ended = false;
            try {
                do {
                    Runnable task;
                    while ((task = queue.poll()) != null) {
                        queued.decrementAndGet();
                        run(task);
                    }
                    full = false; // caught up: the episode, if any, is over
                    // Cleared before looking again: a task offered after the last poll found the flag set and did not
                    // schedule a drain, so this one must take it (the CAS orders the clear before the emptiness check).
                    scheduled.set(false);
                } while (!queue.isEmpty() && scheduled.compareAndSet(false, true));
                ended = true;
            } finally {
                if (!ended) {
                    // An Error out of a task (run catches only RuntimeExceptions) ends this thread. The flag it leaves
                    // set would make every later offer think a drain is on its way: the lane would queue until full
                    // and then drop everything for good. It goes on, on another thread, and the Error on up.
                    scheduled.set(false);
                    if (!queue.isEmpty() && scheduled.compareAndSet(false, true)) {
                        try {
                            threads.execute(this::drain);
                        } catch (RejectedExecutionException closing) {
                            dropQueued();
                            scheduled.set(false);
                        }
                    }
                }
            }
        }

        private void run(Runnable task) {
            long start = System.nanoTime();
            try {
                task.run();
            } catch (RuntimeException e) {
                // Never the end of the lane: the next task may reach the peer. What the task sends is retried by the
                // protocol (a pending record's LOG) or times out at its origin, as a lost message does.
                countDropped.run();
                LOG.warn("machine {} failed to send to machine {}", id, peer, e);
            } catch (Error e) {
                countDropped.run(); // not sent either; the drain hands the lane on (see drain)
                throw e;
            }
            long took = System.nanoTime() - start;
            if (took > SLOW_TASK_NANOS) {
                LOG.warn("machine {} took {} ms to send to machine {} what its log had made durable ({} more queued"
                    + " for it); the log went on meanwhile", id, TimeUnit.NANOSECONDS.toMillis(took), peer,
                    queued.get());
            }
        }
    }
}
