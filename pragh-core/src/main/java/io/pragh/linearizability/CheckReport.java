package io.pragh.linearizability;

import java.util.List;

/**
 * What {@link LinearizabilityChecker#check} found.
 *
 * @param operations    operations in the history (every kind)
 * @param checked       operations the search had to place (writes, and reads that answered)
 * @param keys          keys checked
 * @param violations    keys with no linearization, each with a minimal window, by key
 * @param undecidedKeys keys whose search gave up at the state budget: neither proven linearizable nor not
 */
public record CheckReport(long operations, long checked, int keys, List<Violation> violations,
                          List<Long> undecidedKeys) {
    /** Whether no key was found non-linearizable (undecided keys are reported apart). */
    public boolean linearizable() {
        return violations.isEmpty();
    }

    /** Every violation, described; at most {@code max} of them. */
    public String describe(Operation.ValueFormat format, int max) {
        StringBuilder b = new StringBuilder();
        b.append(violations.size()).append(" key(s) not linearizable among ").append(keys).append(" keys, ")
            .append(checked).append(" operations checked of ").append(operations);
        if (!undecidedKeys.isEmpty()) {
            b.append("; ").append(undecidedKeys.size()).append(" key(s) undecided (state budget): ")
                .append(undecidedKeys);
        }
        b.append('\n');
        for (int i = 0; i < Math.min(max, violations.size()); i++) {
            b.append(violations.get(i).describe(format));
        }
        return b.toString();
    }
}
