package io.mtables.ddl.access;

/**
 * What a grant allows, on a schema (every table in it, present and future) or on one table.
 *
 * <ul>
 *   <li>SELECT: read the table (SELECT, DESCRIBE), and build a materialized table from it (any
 *       privilege on a table lets SHOW and information_schema list it);
 *   <li>CREATE: create tables in the schema (on a schema only);
 *   <li>ALTER: change the table: ALTER MATERIALIZED TABLE (SET, RESET, AS, FRESHNESS, SUSPEND,
 *       RESUME, REFRESH), CREATE OR ALTER of it;
 *   <li>DROP: drop the table.
 * </ul>
 */
public enum Privilege {
    SELECT,
    CREATE,
    ALTER,
    DROP
}
