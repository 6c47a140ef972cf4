package io.mtables.ddl.statements;

import io.mtables.ddl.domain.StatementException;
import io.mtables.ddl.infra.FlinkSql;
import io.mtables.schemas.catalog.SwitchOverNames;
import org.apache.calcite.sql.SqlIdentifier;

/**
 * Qualifies table names as Flink does: missing parts come from the current catalog and database.
 */
final class Identifiers {

    private Identifiers() {}

    /** {@code catalog.database.name} for a name written with one, two or three parts. */
    static String qualify(String[] parts, FlinkSql flink, SqlIdentifier at) {
        String[] current = flink.currentCatalogAndDatabase();
        String[] full =
                switch (parts.length) {
                    case 1 -> new String[] {current[0], current[1], parts[0]};
                    case 2 -> new String[] {current[0], parts[0], parts[1]};
                    case 3 -> parts;
                    default ->
                            throw StatementException.invalidAt(
                                    "InvalidIdentifier",
                                    "Table name "
                                            + String.join(".", parts)
                                            + " has "
                                            + parts.length
                                            + " parts.",
                                    FlinkSql.positionOf(at),
                                    "name, database.name or catalog.database.name");
                };
        for (String part : full) {
            if (part.contains(".") || part.contains("`") || part.isBlank()) {
                throw StatementException.invalidAt(
                        "InvalidIdentifier",
                        "Name part '" + part + "' contains a dot, a backtick or nothing.",
                        FlinkSql.positionOf(at),
                        "names without dots or backticks");
            }
        }
        if (SwitchOverNames.reserved(full[2])) {
            throw StatementException.invalidAt(
                    "InvalidIdentifier",
                    "Table name "
                            + full[2]
                            + " ends with "
                            + SwitchOverNames.STAGED_SUFFIX
                            + "<number> or "
                            + SwitchOverNames.RETIRED_SUFFIX
                            + ", which the warehouse keeps for the tables of a query change"
                            + " (docs/evolution.md).",
                    FlinkSql.positionOf(at),
                    "a name without those endings");
        }
        if (!full[0].equals(current[0])) {
            throw StatementException.invalidAt(
                    "UnknownCatalog",
                    "Catalog " + full[0] + " does not exist.",
                    FlinkSql.positionOf(at),
                    current[0]);
        }
        return String.join(".", full);
    }
}
