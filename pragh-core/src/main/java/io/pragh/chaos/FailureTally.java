package io.pragh.chaos;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.LongAdder;

/**
 * The failed operations of a {@link ChaosWorkload} window, counted by what they were and their exception's kind, with
 * the first exception of each kind and where it was thrown: what a report needs to tell a fault's symptom from a bug.
 *
 * <pre>{@code
 * tally.count(failures, "GET", e);
 * Map<String, String> examples = tally.drainExamples();   // at the window's end
 * }</pre>
 */
final class FailureTally {
    /** The first exception of each kind of failure in the current window. */
    private final Map<String, String> examples = new ConcurrentHashMap<>();

    /** Counts a failed operation by what it was and its exception's kind; keeps the first example of each. */
    void count(Map<String, LongAdder> failures, String what, Throwable e) {
        Throwable c = e;
        while (c.getCause() != null && (c instanceof ExecutionException || c instanceof CompletionException)) {
            c = c.getCause();
        }
        String kind = what + " " + c.getClass().getSimpleName();
        failures.computeIfAbsent(kind, k -> new LongAdder()).increment();
        Throwable example = c;
        examples.computeIfAbsent(kind, k -> describe(example));
    }

    /** An exception and where it was thrown: what a report needs to tell a fault's symptom from a bug. */
    private static String describe(Throwable e) {
        StringBuilder b = new StringBuilder(String.valueOf(e));
        StackTraceElement[] frames = e.getStackTrace();
        for (int i = 0; i < Math.min(4, frames.length); i++) {
            b.append(i == 0 ? " at " : " < ").append(frames[i]);
        }
        return b.toString();
    }

    /** The examples of the window, by kind, sorted; the next window starts without any. */
    Map<String, String> drainExamples() {
        Map<String, String> out = new TreeMap<>(examples);
        examples.clear();
        return out;
    }
}
