package io.pragh.coordinator;

import java.util.List;

/**
 * What the coordinator decided after a report or an interval: migrations to run, and keys machines should start or
 * stop counting locally.
 *
 * <pre>{@code
 * for (Decisions.Approval a : decisions.approvals()) { cluster.machine(a.target()).migrateAsync(a.key()); }
 * for (Decisions.Track t : decisions.track()) { monitors[t.machine()].track(t.key()); }
 * }</pre>
 */
public record Decisions(List<Approval> approvals, List<Track> track, List<Track> untrack) {
    public static final Decisions NONE = new Decisions(List.of(), List.of(), List.of());

    public Decisions {
        approvals = List.copyOf(approvals);
        track = List.copyOf(track);
        untrack = List.copyOf(untrack);
    }

    /** Move {@code key}'s value from {@code source} to {@code target} (MIGRATE runs on the target). */
    public record Approval(long key, int source, int target, double targetRate, double sourceRate) {
    }

    /** Machine {@code machine} should (stop) count(ing) its local accesses to {@code key}. */
    public record Track(long key, int machine) {
    }

    public boolean isEmpty() {
        return approvals.isEmpty() && track.isEmpty() && untrack.isEmpty();
    }
}
