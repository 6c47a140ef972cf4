package io.mtables.ddl.infra;

import java.util.List;

/**
 * A SELECT that only picks columns of one materialized table's rows: no join, grouping, ordering or
 * expression, and a WHERE wholly made of comparisons of a column with a literal. Its rows go
 * straight from Paimon's read to the caller ({@link RowCursor}), never held together.
 *
 * @param columns the table's columns the answer shows, in the answer's order
 * @param labels the answer's names for them ({@code col AS label})
 * @param pushed the WHERE's comparisons (its whole WHERE)
 * @param offset rows of the answer skipped first (OFFSET)
 * @param fetch the most rows of the answer (LIMIT), or -1
 */
public record PlainScan(
        List<String> columns, List<String> labels, PushedDown pushed, long offset, long fetch) {

    public PlainScan {
        columns = List.copyOf(columns);
        labels = List.copyOf(labels);
    }
}
