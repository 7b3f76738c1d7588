package io.pragh.store;

import org.agrona.DirectBuffer;

/**
 * Sees every update of one machine once it is committed: in memory, when it took effect on this machine (the key's
 * home, or the host of a migrated value); on a durable machine, at the key's home once its log has it. Installed by
 * whoever turns updates into events (the graph provider's view event handlers). Runs on the thread that committed the
 * update, before its origin hears of it, so it must only copy what it needs and hand it off: never block, never run
 * work of its own there. The argument buffer is valid only during the call.
 *
 * <p>A durable home may be told of one version twice (its host sent the LOG again before the first was settled): an
 * observer that needs exactly once drops a version of a key it has seen.
 *
 * <p>Example: {@code machine.store().setCommitObserver((key, version, m, arg, off, len, deleted) -> queue.offer(key));}
 */
@FunctionalInterface
public interface CommitObserver {
    void onCommit(long key, long version, int mutatorId, DirectBuffer arg, int argOff, int argLen, boolean deleted);
}
