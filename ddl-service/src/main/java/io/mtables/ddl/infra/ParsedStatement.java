package io.mtables.ddl.infra;

import org.apache.calcite.sql.SqlNode;

/**
 * A statement parsed by Flink's parser, with the extensions of our dialect that Flink's grammar
 * lacks recorded as flags (see {@link DialectExtensions}).
 *
 * @param text the text Flink parsed: the user's statement with extension words blanked out, so
 *     every position still points into the user's text
 * @param node the syntax tree
 * @param createOrAlter {@code CREATE OR ALTER MATERIALIZED TABLE} was written
 * @param autoRefreshMode {@code REFRESH_MODE = AUTO} was written
 * @param describeMaterialized {@code DESCRIBE MATERIALIZED TABLE} was written
 * @param explain {@code EXPLAIN CREATE [OR ALTER] | ALTER MATERIALIZED TABLE} was written: plan,
 *     change nothing
 */
public record ParsedStatement(
        String text,
        SqlNode node,
        boolean createOrAlter,
        boolean autoRefreshMode,
        boolean describeMaterialized,
        boolean explain) {}
