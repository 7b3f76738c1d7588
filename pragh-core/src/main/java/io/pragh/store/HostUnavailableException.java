package io.pragh.store;

import io.pragh.fabric.FabricException;

/**
 * An update could not run because a machine it needed (the key's home, or the host its value had migrated to) is
 * unreachable: crashed, restarting or partitioned away. The update was not acknowledged: it did not take effect, or
 * took effect only on a value host whose home could not log it, which recovery undoes (the home reloads its log and
 * the unlogged copy is reclaimed). It is {@linkplain #retryable() retryable} and succeeds once recovery put the value
 * back or the machine returned. The machine that found the host unreachable refuses the update back to its origin
 * rather than dropping it.
 *
 * <pre>{@code
 * try {
 *     store.update(key, Mutators.APPEND, arg, 0, 8).join();
 * } catch (CompletionException e) {
 *     if (e.getCause() instanceof HostUnavailableException u && u.retryable()) { retryLater(); }
 * }
 * }</pre>
 */
public final class HostUnavailableException extends FabricException {
    private static final long serialVersionUID = 1L;

    public HostUnavailableException(String message) {
        super(message, true);
    }
}
