package io.mtables.ddl.wire;

import io.mtables.ddl.infra.WarehouseReader;
import io.mtables.ddl.pgcatalog.PgCatalog;
import io.mtables.ddl.statements.PageTokens;
import io.mtables.ddl.statements.QueryRunner;
import io.mtables.ddl.statements.StatementService;
import java.util.Map;

/**
 * The SQLSTATE a PostgreSQL client gets for each reason a statement is refused (docs/clients.md):
 * PostgreSQL's own code for the same condition where it has one, so that a client's handling of,
 * say, an undefined table works unchanged.
 */
final class SqlStates {

    static final String SYNTAX_ERROR = "42601";
    static final String FEATURE_NOT_SUPPORTED = "0A000";
    static final String PROTOCOL_VIOLATION = "08P01";
    static final String INVALID_PASSWORD = "28P01";
    static final String INVALID_AUTHORIZATION = "28000";
    static final String TOO_MANY_CONNECTIONS = "53300";
    static final String QUERY_CANCELED = "57014";
    static final String ACTIVE_SQL_TRANSACTION = "25001";
    static final String IN_FAILED_TRANSACTION = "25P02";
    static final String INVALID_PARAMETER_VALUE = "22023";
    static final String UNDEFINED_PREPARED_STATEMENT = "26000";
    static final String UNDEFINED_CURSOR = "34000";
    static final String PROGRAM_LIMIT_EXCEEDED = "54000";
    static final String IO_ERROR = "58030";

    /** Any refusal of the dialect's rules without a closer code. */
    static final String RULE_VIOLATION = "42000";

    private static final Map<String, String> BY_REASON =
            Map.ofEntries(
                    Map.entry("SyntaxError", SYNTAX_ERROR),
                    Map.entry("UnsupportedStatement", FEATURE_NOT_SUPPORTED),
                    Map.entry(PgCatalog.UNSUPPORTED, FEATURE_NOT_SUPPORTED),
                    Map.entry("TableNotFound", "42P01"),
                    Map.entry("TableAlreadyExists", "42P07"),
                    Map.entry("RoleNotFound", "42704"),
                    Map.entry("RoleAlreadyExists", "42710"),
                    Map.entry("PermissionDenied", "42501"),
                    Map.entry("Unauthenticated", INVALID_AUTHORIZATION),
                    Map.entry("InvalidIdentifier", "42602"),
                    Map.entry("UnknownCatalog", "3D000"),
                    Map.entry("WrongTableKind", "42809"),
                    Map.entry("TableInUse", "55006"),
                    Map.entry("AlreadySuspended", "55000"),
                    Map.entry("NotSuspended", "55000"),
                    Map.entry("RefreshOfContinuousTable", "55000"),
                    Map.entry("IncompatibleSchemaChange", "42P16"),
                    Map.entry("InvalidFreshness", INVALID_PARAMETER_VALUE),
                    Map.entry("MissingOption", INVALID_PARAMETER_VALUE),
                    Map.entry("StatementTooLarge", PROGRAM_LIMIT_EXCEEDED),
                    Map.entry("ServiceNotReady", "57P03"),
                    Map.entry(StatementService.BROKER_UNAVAILABLE, "57P03"),
                    Map.entry(StatementService.INTERNAL_ERROR, "XX000"),
                    Map.entry(StatementService.REQUEST_ID_IN_USE, "42710"),
                    Map.entry(QueryRunner.QUERY_TIMEOUT, QUERY_CANCELED),
                    Map.entry(QueryRunner.QUERY_CANCELED, QUERY_CANCELED),
                    Map.entry(QueryRunner.TOO_MANY_QUERIES, "53000"),
                    Map.entry(WarehouseReader.RESULT_TOO_LARGE, PROGRAM_LIMIT_EXCEEDED),
                    Map.entry(WarehouseReader.PAGE_EXPIRED, "55000"),
                    Map.entry(WarehouseReader.READ_FAILED, IO_ERROR),
                    Map.entry(PageTokens.INVALID_PAGE_TOKEN, "22023"));

    private SqlStates() {}

    /** The SQLSTATE of {@code reason}. */
    static String of(String reason) {
        return BY_REASON.getOrDefault(reason, RULE_VIOLATION);
    }
}
