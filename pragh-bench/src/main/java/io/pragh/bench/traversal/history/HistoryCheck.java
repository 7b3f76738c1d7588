package io.pragh.bench.traversal.history;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What checking one mode's history found: the report's {@code history} object and its line in the printout.
 *
 * <pre>{@code
 * HistoryCheck h = history.check();
 * if (!h.linearizable()) System.out.println(h.violation());
 * }</pre>
 *
 * @param sampledKeys       keys of the sampled population (the scope's two-hop reads) in the sample
 * @param keys              keys with at least one recorded operation, each checked on its own
 * @param insertedKeys      keys among them with at least one edge insert (the others' lists never changed)
 * @param reads             GETs recorded, each with the value the query read
 * @param inserts           edge inserts recorded
 * @param readsNotRecorded  sampled GETs past the recording budget, not recorded (leaving reads out is sound)
 * @param threads           query-thread recorders the operations came from (a shard move restarts the threads:
 *                          its mode counts each thread once per start)
 * @param violatingKeys     keys with no linearization
 * @param firstViolatingKey the lowest of them, or null
 * @param violation         that key's history narrowed to a window no linearization explains, or null
 * @param undecidedKeys     keys whose search gave up at its state budget: neither proven linearizable nor not
 * @param checkSeconds      how long the check took
 */
public record HistoryCheck(long sampledKeys, long keys, long insertedKeys, long reads, long inserts, long readsNotRecorded, int threads,
                           int violatingKeys, Long firstViolatingKey, String violation, List<Long> undecidedKeys,
                           double checkSeconds) {
    public HistoryCheck {
        undecidedKeys = List.copyOf(undecidedKeys);
    }

    /** Operations recorded and checked (the loader's PUT of each key, which starts its history, aside). */
    public long operations() {
        return reads + inserts;
    }

    /** Whether every key's history has a linearization (undecided keys are reported apart). */
    public boolean linearizable() {
        return violatingKeys == 0;
    }

    /** The report's {@code history} object. */
    public Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sampled_keys", sampledKeys);
        m.put("keys", keys);
        m.put("inserted_keys", insertedKeys);
        m.put("operations", operations());
        m.put("reads", reads);
        m.put("inserts", inserts);
        m.put("reads_not_recorded", readsNotRecorded);
        m.put("threads", threads);
        m.put("linearizable", linearizable());
        m.put("violating_keys", violatingKeys);
        m.put("first_violating_key", firstViolatingKey);
        m.put("violation", violation);
        m.put("undecided_keys", undecidedKeys);
        m.put("check_s", checkSeconds);
        return m;
    }

    /** One line: what was checked and the verdict. */
    public String describe() {
        String verdict = linearizable() ? "linearizable" : "NOT LINEARIZABLE: " + violatingKeys + " key(s), first "
            + firstViolatingKey;
        return String.format(Locale.ROOT, "history: %d keys (%d sampled, %d inserted into), %d operations (%d GETs, %d"
                + " edge inserts) from %d threads%s: %s%s, checked in %.1f s", keys, sampledKeys, insertedKeys,
            operations(), reads, inserts, threads,
            readsNotRecorded == 0 ? "" : ", " + readsNotRecorded + " GETs past the budget not recorded", verdict,
            undecidedKeys.isEmpty() ? "" : "; " + undecidedKeys.size() + " key(s) undecided: " + undecidedKeys,
            checkSeconds);
    }
}
