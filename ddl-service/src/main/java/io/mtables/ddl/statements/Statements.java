package io.mtables.ddl.statements;

import io.mtables.ddl.domain.Catalog;
import io.mtables.ddl.domain.StatementException;
import io.mtables.ddl.infra.FlinkSql;
import java.util.List;
import org.apache.calcite.sql.SqlNode;

/** Checks shared by several statements. */
final class Statements {

    /** Every statement the dialect accepts, for "allowed" in errors. */
    static final String ALLOWED =
            "CREATE TABLE, DROP TABLE, SHOW TABLES, DESCRIBE, CREATE [OR ALTER] MATERIALIZED TABLE,"
                + " ALTER MATERIALIZED TABLE ... SUSPEND | RESUME | REFRESH | SET FRESHNESS | SET"
                + " (...) | RESET (...) | AS <query>, DROP MATERIALIZED TABLE, SHOW MATERIALIZED"
                + " TABLES, DESCRIBE MATERIALIZED TABLE, SELECT ... FROM"
                + " information_schema.materialized_tables, CREATE ROLE, DROP ROLE, GRANT, REVOKE,"
                + " SHOW GRANTS, SHOW ROLES";

    private Statements() {}

    static void refuseTemporary(boolean temporary, String what, SqlNode at) {
        if (temporary) {
            throw StatementException.invalidAt(
                    "TemporaryObjectNotAllowed",
                    "Temporary "
                            + what
                            + "s are not supported: every object lives in the persistent catalog,"
                            + " and a materialized table may not depend on an object that"
                            + " disappears with a session.",
                    FlinkSql.positionOf(at),
                    "the same statement without TEMPORARY");
        }
    }

    static void refuseWhenRead(Catalog catalog, String table) {
        List<String> readers = catalog.readersOf(table);
        if (!readers.isEmpty()) {
            throw StatementException.conflict(
                    "TableInUse",
                    table
                            + " is read by "
                            + String.join(", ", readers)
                            + "; drop or change those first.");
        }
    }
}
