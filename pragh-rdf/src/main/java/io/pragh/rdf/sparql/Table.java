package io.pragh.rdf.sparql;

import org.apache.jena.sparql.core.Var;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Partial solutions kept by column: one {@code long[]} of term ids per bound variable, row {@code r} across them. A
 * step makes a new table by gathering the old columns through the rows each new row came from, and adding the new
 * variable's column, so a step costs a few array passes whatever the number of variables. Terms stay ids until the
 * answer is written.
 *
 * <p>Example: {@code Table t = Table.unit().extend(parents, values, n, var);}
 */
final class Table {
    private final List<Var> vars;
    private final long[][] columns;
    private final int rows;

    private Table(final List<Var> vars, final long[][] columns, final int rows) {
        this.vars = vars;
        this.columns = columns;
        this.rows = rows;
    }

    /** One row binding nothing: where every exploration starts. */
    static Table unit() {
        return new Table(List.of(), new long[0][], 1);
    }

    /** No row. */
    static Table empty() {
        return new Table(List.of(), new long[0][], 0);
    }

    int rows() {
        return rows;
    }

    List<Var> vars() {
        return vars;
    }

    /** The column of {@code var}, or -1 when no step bound it. */
    int column(final Var var) {
        return vars.indexOf(var);
    }

    long value(final int column, final int row) {
        return columns[column][row];
    }

    long[] columnValues(final int column) {
        return columns[column];
    }

    /** Row {@code i} of the new table is old row {@code parents[i]} with {@code var} bound to {@code values[i]}. */
    Table extend(final int[] parents, final long[] values, final int count, final Var var) {
        final List<Var> v = new ArrayList<>(vars);
        v.add(var);
        final long[][] c = new long[columns.length + 1][];
        for (int k = 0; k < columns.length; k++) {
            c[k] = gather(columns[k], parents, count);
        }
        c[columns.length] = Arrays.copyOf(values, count);
        return new Table(v, c, count);
    }

    /** The rows {@code keep[0..count)}, in that order. */
    Table select(final int[] keep, final int count) {
        final long[][] c = new long[columns.length][];
        for (int k = 0; k < columns.length; k++) {
            c[k] = gather(columns[k], keep, count);
        }
        return new Table(vars, c, count);
    }

    private static long[] gather(final long[] column, final int[] rows, final int count) {
        final long[] out = new long[count];
        for (int i = 0; i < count; i++) {
            out[i] = column[rows[i]];
        }
        return out;
    }
}
