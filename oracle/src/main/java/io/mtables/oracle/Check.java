package io.mtables.oracle;

/**
 * One materialized table compared with PostgreSQL.
 *
 * @param table the materialized table, {@code database.name}
 * @param materializedQuery our SELECT over it (through ddl-service), columns in the oracle's order
 * @param postgresQuery the same query run by PostgreSQL over the source rows
 * @param refreshFirst a FULL table: ask for a refresh (ALTER ... REFRESH) before comparing
 */
public record Check(
        String table, String materializedQuery, String postgresQuery, boolean refreshFirst) {}
