package io.pragh.rdf.sparql;

import java.util.Arrays;

/**
 * Distinct rows of a {@link Table} over some columns, found with an open-addressing table of row numbers (hash of the
 * row's ids, equality column by column): no object per row, as DISTINCT on millions of id rows needs.
 *
 * <p>Example: {@code int[] firsts = new RowSet(table, columns, table.rows()).distinct();}
 */
final class RowSet {
    private final Table table;
    private final int[] columns;
    private final int rows;

    RowSet(final Table table, final int[] columns, final int rows) {
        this.table = table;
        this.columns = columns;
        this.rows = rows;
    }

    int[] distinct() {
        final int capacity = Integer.highestOneBit(Math.max(4, rows * 2 - 1)) << 1;
        final int[] slots = new int[capacity];
        Arrays.fill(slots, -1);
        final int[] firsts = new int[rows];
        int n = 0;
        for (int r = 0; r < rows; r++) {
            int at = hash(r) & (capacity - 1);
            while (slots[at] >= 0 && !same(slots[at], r)) {
                at = (at + 1) & (capacity - 1);
            }
            if (slots[at] < 0) {
                slots[at] = r;
                firsts[n++] = r;
            }
        }
        return Arrays.copyOf(firsts, n);
    }

    private int hash(final int row) {
        long h = 0x9e3779b97f4a7c15L;
        for (final int c : columns) {
            h = (h ^ (c < 0 ? -1 : table.value(c, row))) * 0xff51afd7ed558ccdL;
        }
        return (int) (h ^ (h >>> 32));
    }

    private boolean same(final int a, final int b) {
        for (final int c : columns) {
            if (c >= 0 && table.value(c, a) != table.value(c, b)) {
                return false;
            }
        }
        return true;
    }
}
