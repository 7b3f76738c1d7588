package io.pragh.linearizability;

import java.util.List;

/**
 * A key whose history has no linearization, narrowed to a minimal window: the operations up to the first answer
 * that no linearization can explain ({@link #culprit}), from the latest start that still leaves none. When the window
 * does not begin with the key's first operation, it is checked from an unknown value (see {@link Model#unknown}), so
 * the window alone proves the violation whatever came before it.
 *
 * @param key              the key
 * @param culprit          the operation whose answer made the history non-linearizable
 * @param window           the operations checked, by invocation time
 * @param context          other operations of the key in the window's time span that the check does not need
 *                         (MIGRATEs, failed GETs, failed writes whose value nobody read), by invocation time
 * @param fromInitialState whether the window starts from the key's initial state rather than an unknown one
 */
public record Violation(long key, Operation culprit, List<Operation> window, List<Operation> context,
                        boolean fromInitialState) {
    /** The violation as lines of text, times in microseconds from the window's first invocation. */
    public String describe(Operation.ValueFormat format) {
        long origin = window.isEmpty() ? culprit.invoke() : window.get(0).invoke();
        StringBuilder b = new StringBuilder();
        b.append("key ").append(key).append(" (0x").append(Long.toHexString(key))
            .append("): no linearization of these ").append(window.size()).append(" operations, checked from ")
            .append(fromInitialState ? "the key's initial state" : "an unknown value")
            .append("; times in us from the window's start; '*' marks the answer no linearization explains\n");
        for (Operation op : window) {
            b.append(op == culprit ? "  * " : "    ").append(op.describe(format, origin)).append('\n');
        }
        for (Operation op : context) {
            b.append("    (context) ").append(op.describe(format, origin)).append('\n');
        }
        return b.toString();
    }
}
