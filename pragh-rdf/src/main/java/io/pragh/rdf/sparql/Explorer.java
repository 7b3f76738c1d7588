package io.pragh.rdf.sparql;

import io.pragh.gremlin.structure.GraphStore;
import io.pragh.rdf.store.RdfKeys;
import io.pragh.rdf.store.TermLists;
import io.pragh.rdf.store.TermSegments;
import org.agrona.collections.Long2LongHashMap;
import org.apache.jena.sparql.core.Var;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Answers a basic graph pattern by exploring the store, as Wukong does: the walk starts at the pattern whose constant
 * has the shortest list (one batch of GETs measures them all), or at the index vertex's list of a predicate when no
 * pattern has a constant; then each step takes a pattern touching what is bound and issues one batch of GETs, the
 * distinct {@code (term, p, OUT|IN)} keys of the whole table, at their homes (and one more of the sealed segments of
 * the supernodes among them, {@link TermLists}):
 * <ul>
 *   <li>both ends bound: a check, rows whose object is in the subject's list stay;</li>
 *   <li>one end bound: an expansion, each row repeated for each term of the bound end's list;</li>
 *   <li>neither (a pattern disconnected from the rest): the predicate's subjects from the index vertex, crossed with
 *       the table, and then the pattern is an expansion.</li>
 * </ul>
 * The walk runs on the home machine of its start key ({@link GraphStore#callOnHome}), so the first step's GET is
 * local; FILTERs are applied to the finished table.
 *
 * <p>Example: {@code Table t = new Explorer(store).explore(patterns, filters);}
 */
final class Explorer {
    /** A triple pattern with its constants as ids: a var null where the position is the constant beside it. */
    record Pattern(Var sVar, long s, int p, Var oVar, long o) {
        @Override
        public String toString() {
            return (sVar != null ? sVar : s) + " " + p + " " + (oVar != null ? oVar : o);
        }
    }

    /** A FILTER with its constant as an id (-1 when the store has no such term). */
    record Filter(Var var, long id, boolean equal) {
    }

    private final GraphStore store;

    Explorer(final GraphStore store) {
        this.store = store;
    }

    Table explore(final List<Pattern> patterns, final List<Filter> filters) {
        final List<Pattern> remaining = new ArrayList<>(patterns);
        final Pattern start = mostSelective(remaining);
        final long startKey = start == null ? RdfKeys.out(RdfKeys.INDEX, remaining.get(0).p())
            : start.sVar() == null ? RdfKeys.out(start.s(), start.p()) : RdfKeys.in(start.o(), start.p());
        if (start != null) {
            remaining.remove(start);
            remaining.add(0, start);
        }
        return store.callOnHome(startKey, () -> applyFilters(walk(remaining), filters));
    }

    /** The pattern with a constant end whose list is shortest (one batch of GETs), or null when none has one. */
    private Pattern mostSelective(final List<Pattern> patterns) {
        final List<Pattern> anchored = new ArrayList<>();
        for (final Pattern p : patterns) {
            if (p.sVar() == null || p.oVar() == null) {
                anchored.add(p);
            }
        }
        if (anchored.isEmpty()) {
            return null;
        }
        final long[] keys = new long[anchored.size()];
        for (int i = 0; i < keys.length; i++) {
            final Pattern p = anchored.get(i);
            keys[i] = p.sVar() == null ? RdfKeys.out(p.s(), p.p()) : RdfKeys.in(p.o(), p.p());
        }
        final long[] sizes = new long[keys.length];
        store.getAllViews(keys, keys.length, (i, list) -> sizes[i] = TermSegments.total(list));
        int best = 0;
        for (int i = 1; i < sizes.length; i++) {
            if (sizes[i] < sizes[best]) {
                best = i;
            }
        }
        return anchored.get(best);
    }

    private Table walk(final List<Pattern> remaining) {
        Table table = Table.unit();
        while (!remaining.isEmpty() && table.rows() > 0) {
            // A query given up on (the HTTP endpoint's timeout interrupts its thread) stops at its next step
            // rather than exploring on for nobody. This runs on the querying thread where the store's callOnHome
            // runs work on the caller (a cluster machine); an embedded store's wait for its worker is interrupted
            // instead.
            if (Thread.currentThread().isInterrupted()) {
                throw new QueryInterruptedException(remaining.size());
            }
            final Pattern next = next(table, remaining);
            final boolean sKnown = known(table, next.sVar());
            final boolean oKnown = known(table, next.oVar());
            if (sKnown && oKnown) {
                table = check(table, next);
                remaining.remove(next);
            } else if (sKnown || oKnown) {
                table = expand(table, next, sKnown);
                remaining.remove(next);
            } else {
                table = fromIndex(table, next);
            }
        }
        return table;
    }

    /** A check if any, else an expansion from what is bound, else (disconnected) the first pattern left. */
    private static Pattern next(final Table table, final List<Pattern> remaining) {
        Pattern expansion = null;
        for (final Pattern p : remaining) {
            final boolean s = known(table, p.sVar());
            final boolean o = known(table, p.oVar());
            if (s && o) {
                return p;
            }
            if ((s || o) && expansion == null) {
                expansion = p;
            }
        }
        return expansion != null ? expansion : remaining.get(0);
    }

    private static boolean known(final Table table, final Var var) {
        return var == null || table.column(var) >= 0;
    }

    /** The term at one end of a pattern in one row: the constant, or the row's binding. */
    private static long value(final Table table, final Var var, final long constant, final int row) {
        return var == null ? constant : table.value(table.column(var), row);
    }

    /** The lists under the distinct keys of every row: {@code slot[row]} indexes {@code lists}. */
    private long[][] lists(final long[] rowKeys, final int rows, final int[] slot) {
        final Long2LongHashMap slots = new Long2LongHashMap(Math.max(16, rows), 0.65f, -1);
        final long[] keys = new long[rows];
        int distinct = 0;
        for (int r = 0; r < rows; r++) {
            long s = slots.get(rowKeys[r]);
            if (s < 0) {
                s = distinct;
                slots.put(rowKeys[r], s);
                keys[distinct++] = rowKeys[r];
            }
            slot[r] = (int) s;
        }
        return TermLists.readAll(store, keys, distinct);
    }

    private Table check(final Table table, final Pattern p) {
        final int rows = table.rows();
        final long[] keys = new long[rows];
        for (int r = 0; r < rows; r++) {
            keys[r] = RdfKeys.out(value(table, p.sVar(), p.s(), r), p.p());
        }
        final int[] slot = new int[rows];
        final long[][] lists = lists(keys, rows, slot);
        for (final long[] list : lists) {
            Arrays.sort(list); // a list appended by several loads is sorted per run only
        }
        final int[] keep = new int[rows];
        int kept = 0;
        for (int r = 0; r < rows; r++) {
            if (Arrays.binarySearch(lists[slot[r]], value(table, p.oVar(), p.o(), r)) >= 0) {
                keep[kept++] = r;
            }
        }
        return table.select(keep, kept);
    }

    private Table expand(final Table table, final Pattern p, final boolean fromSubject) {
        final int rows = table.rows();
        final long[] keys = new long[rows];
        for (int r = 0; r < rows; r++) {
            keys[r] = fromSubject ? RdfKeys.out(value(table, p.sVar(), p.s(), r), p.p())
                : RdfKeys.in(value(table, p.oVar(), p.o(), r), p.p());
        }
        final int[] slot = new int[rows];
        final long[][] lists = lists(keys, rows, slot);
        long total = 0;
        for (int r = 0; r < rows; r++) {
            total += lists[slot[r]].length;
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("the pattern " + p + " would make " + total + " partial solutions");
        }
        final int[] parents = new int[(int) total];
        final long[] values = new long[(int) total];
        int n = 0;
        for (int r = 0; r < rows; r++) {
            for (final long term : lists[slot[r]]) {
                parents[n] = r;
                values[n++] = term;
            }
        }
        return table.extend(parents, values, n, fromSubject ? p.oVar() : p.sVar());
    }

    /** Binds a disconnected pattern's subject to the predicate's subjects (the index vertex's list), crossed. */
    private Table fromIndex(final Table table, final Pattern p) {
        // an index list is a set only per load: a subject two loads gave the predicate is in it twice
        final long[][] subjects = {Arrays.stream(TermLists.readAll(store, new long[] {RdfKeys.out(RdfKeys.INDEX,
            p.p())}, 1)[0]).sorted().distinct().toArray()};
        final long total = (long) table.rows() * subjects[0].length;
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("the pattern " + p + " would make " + total + " partial solutions");
        }
        final int[] parents = new int[(int) total];
        final long[] values = new long[(int) total];
        int n = 0;
        for (int r = 0; r < table.rows(); r++) {
            for (final long s : subjects[0]) {
                parents[n] = r;
                values[n++] = s;
            }
        }
        return table.extend(parents, values, n, p.sVar());
    }

    private static Table applyFilters(final Table table, final List<Filter> filters) {
        Table t = table;
        for (final Filter f : filters) {
            final int column = t.column(f.var());
            if (column < 0) {
                return Table.empty(); // comparing an unbound variable is an error: no solution passes
            }
            final int[] keep = new int[t.rows()];
            int kept = 0;
            for (int r = 0; r < t.rows(); r++) {
                if ((t.value(column, r) == f.id()) == f.equal()) {
                    keep[kept++] = r;
                }
            }
            t = t.select(keep, kept);
        }
        return t;
    }
}
