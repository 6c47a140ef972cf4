package io.mtables.ddl.domain;

import io.mtables.schemas.catalog.TableId;
import java.util.Locale;

/**
 * The names the system keeps for itself. The schema {@code mt_system} holds its own tables in the
 * warehouse (the refresh history, the audit trail), and names starting with {@code __mt_} are its
 * scratch objects (the warm-up's database, a query's written rows). A table declared there would be
 * a Paimon table that the job manager writes, overwrites or drops in place of the system's, so no
 * statement creates, alters or drops one; reading what the system exposes (information_schema) is
 * unchanged.
 */
public final class ReservedNames {

    /** The schema (Flink database, Paimon database) of the system's own tables. */
    public static final String SYSTEM_SCHEMA = "mt_system";

    /** The prefix of the system's scratch schemas and tables. */
    public static final String SYSTEM_PREFIX = "__mt_";

    private ReservedNames() {}

    /** Whether a schema or table name is the system's (compared ignoring case, as stores may). */
    public static boolean reserved(TableId table) {
        String database = table.database().toLowerCase(Locale.ROOT);
        return database.equals(SYSTEM_SCHEMA)
                || database.startsWith(SYSTEM_PREFIX)
                || table.name().toLowerCase(Locale.ROOT).startsWith(SYSTEM_PREFIX);
    }

    /**
     * Refuses a CREATE, ALTER or DROP of {@code table} when its name is the system's.
     *
     * @param table the qualified name, {@code catalog.database.name}
     * @param at the name in the statement, for the message
     */
    public static void refuseChange(String table, SourcePosition at) {
        if (!reserved(TableId.of(table))) {
            return;
        }
        throw StatementException.invalidAt(
                "ReservedName",
                "Table "
                        + table
                        + " has a reserved name: the schema "
                        + SYSTEM_SCHEMA
                        + " holds the system's own tables and names starting with "
                        + SYSTEM_PREFIX
                        + " are the system's, so no table is created, altered or dropped there."
                        + " Nothing was changed.",
                at,
                "a schema other than "
                        + SYSTEM_SCHEMA
                        + ", and schema and table names that do not start with "
                        + SYSTEM_PREFIX
                        + "; the system's tables are read through information_schema (e.g."
                        + " information_schema.refresh_history)");
    }
}
