package io.pragh.gremlin.distributed;

import io.pragh.fabric.Endpoint;

import java.util.ArrayList;
import java.util.List;

/**
 * Which machines of the cluster this one cannot reach now, asked of its fabric: a peer whose connection broke and
 * whose port refuses a new one (a killed process) is unreachable, and the fabric remembers a failed connect for its
 * back-off period, so asking costs microseconds for a known-dead peer and nothing for a connected one. It also words
 * the retryable errors that name them, with the addresses a user can check.
 *
 * <p>Example: {@code List<Integer> down = peers.unreachable(); if (!down.isEmpty()) throw peers.error(down, "");}
 */
final class PeerReachability {
    private final int self;
    private final Endpoint endpoint;
    private final List<String> addresses;

    /** @param addresses every machine's fabric address as {@code host:port}, by id */
    PeerReachability(final int self, final Endpoint endpoint, final List<String> addresses) {
        this.self = self;
        this.endpoint = endpoint;
        this.addresses = List.copyOf(addresses);
    }

    /** Whether machine {@code m} answers (this machine always does). */
    boolean reachable(final int m) {
        return m == self || endpoint.isReachable(m);
    }

    /** The machines this one cannot reach now, in id order. */
    List<Integer> unreachable() {
        final List<Integer> out = new ArrayList<>();
        for (int m = 0; m < addresses.size(); m++) {
            if (!reachable(m)) {
                out.add(m);
            }
        }
        return out;
    }

    /** {@code machine 2 (127.0.0.1:7402)}. */
    String name(final int m) {
        return "machine " + m + " (" + addresses.get(m) + ")";
    }

    /**
     * The retryable error for {@code machines} (not empty): "machine 2 (127.0.0.1:7402) is unreachable; retry once it
     * is back" followed by {@code detail} when not empty.
     */
    MachineUnavailableException error(final List<Integer> machines, final String detail) {
        final StringBuilder s = new StringBuilder(machines.size() == 1 ? "" : "machines ");
        for (int i = 0; i < machines.size(); i++) {
            s.append(i == 0 ? "" : ", ").append(machines.size() == 1 ? name(machines.get(i))
                : machines.get(i) + " (" + addresses.get(machines.get(i)) + ")");
        }
        s.append(machines.size() == 1 ? " is" : " are").append(" unreachable; retry once ")
            .append(machines.size() == 1 ? "it is" : "they are").append(" back");
        if (!detail.isEmpty()) {
            s.append(" (").append(detail).append(')');
        }
        return new MachineUnavailableException(s.toString());
    }
}
