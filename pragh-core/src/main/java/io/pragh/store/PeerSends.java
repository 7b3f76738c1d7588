package io.pragh.store;

import io.pragh.runtime.DutyExecutor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
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
 * <p>A full lane (thousands of tasks for one peer: it has not taken anything for a while) drops the task, counted as a
 * refused send and logged: as a message lost, which the protocol tolerates (the host sends its LOG again every second
 * while its record is pending, and the home settles and acknowledges it then; an origin without its ACK times out,
 * its update's outcome unknown). Waiting for room would put the log thread back behind the stuck peer. A drop never
 * acknowledges anything: an ACK is itself a task, or follows its settle in one. A task that throws is counted the same
 * way and never ends its lane, an Error included (it still ends the borrowed thread, and the lane goes on on another).
 *
 * <pre>{@code
 * PeerSends sends = new PeerSends(id, machineCount, store.router()::countRefusedSend);
 * sends.execute(origin, () -> endpoint.send(origin, ack, 0, ack.capacity()));
 * sends.close();
 * }</pre>
 */
final class PeerSends implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PeerSends.class);
    /** Tasks one lane holds at most; a full lane drops what comes (see the class comment). */
    static final int LANE_CAPACITY = 4_096;
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

    /** Runs {@code task} on {@code peer}'s lane, after every task handed over for that peer before it. */
    void execute(int peer, Runnable task) {
        Lane lane = lanes.get(peer);
        if (lane == null) {
            lanes.compareAndSet(peer, null, new Lane(peer));
            lane = lanes.get(peer);
        }
        lane.offer(task);
    }

    /** Stops the lanes' threads; tasks still queued are dropped (a restart recovers from the log). */
    @Override
    public void close() {
        threads.close();
    }

    private final class Lane {
        private final int peer;
        private final ManyToOneConcurrentArrayQueue<Runnable> queue =
            new ManyToOneConcurrentArrayQueue<>(LANE_CAPACITY);
        /** Set while a drain is scheduled or running: at most one thread runs this lane. */
        private final AtomicBoolean scheduled = new AtomicBoolean();
        /** Whether the last offer found the lane full: the next drop of the episode is not logged again. */
        private volatile boolean full;

        Lane(int peer) {
            this.peer = peer;
        }

        void offer(Runnable task) {
            if (!queue.offer(task)) {
                drop("its lane holds " + LANE_CAPACITY + " tasks: machine " + peer + " has not taken what this"
                    + " machine sent it for a while");
                return;
            }
            full = false;
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
                        run(task);
                    }
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
                    queue.size());
            }
        }
    }
}
