package io.mtables.planning;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableId;
import java.util.List;
import java.util.Set;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.flink.sql.parser.ddl.SqlCreateTable;
import org.apache.flink.sql.parser.ddl.SqlCreateTableAs;
import org.apache.flink.sql.parser.ddl.SqlCreateTableLike;
import org.apache.flink.sql.parser.ddl.SqlTableOption;

/**
 * The SQL a definition on {@code mt.table.definitions} carries, checked before a service hands it
 * to Flink: anyone who can produce to the topic could otherwise run any statement (ADD JAR, SET,
 * CREATE FUNCTION ... USING JAR) in every service that reads it and on the Flink cluster. Only what
 * ddl-service itself writes passes: a source table's statement is one CREATE TABLE of that table
 * (not TEMPORARY, not AS or LIKE) with a connector and options {@link SourceConnectors} allows, and
 * a materialized table's expanded query is one query that sets no table's options.
 */
public final class StoredStatements {

    private StoredStatements() {}

    /** Thrown for a definition ddl-service would not have written. */
    public static final class ForgedStatementException extends IllegalArgumentException {

        ForgedStatementException(String table, String what) {
            super(
                    "the definition of "
                            + table
                            + " carries SQL that ddl-service does not write ("
                            + what
                            + "): not run");
        }
    }

    /**
     * The Flink options {@code RESUME WITH (...)} may set, which the job manager applies over its
     * own (ddl-service's {@code AllowedOptions.RESUME} also checks their values): anything else in
     * a definition read from the topic was not written by ddl-service.
     */
    public static final String RESUME_STATE_TTL = "table.exec.state.ttl";

    private static final Set<String> RESUME_OPTIONS = Set.of(RESUME_STATE_TTL);

    /**
     * Checks the definition's own statement when it is a source table, every source table it reads,
     * its query, and its RESUME options.
     *
     * @throws ForgedStatementException naming what is wrong
     */
    public static void check(TableDefinition definition) {
        check(definition, Set.of());
    }

    /**
     * As {@link #check(TableDefinition)}, with {@code moreResumeOptions} accepted besides {@link
     * #RESUME_STATE_TTL} (a job manager configured so, for an allow-list its ddl-service widened).
     */
    public static void check(TableDefinition definition, Set<String> moreResumeOptions) {
        checkStatements(definition);
        if (definition.resumeOptions() != null) {
            for (String key : definition.resumeOptions().keySet()) {
                if (!RESUME_OPTIONS.contains(key) && !moreResumeOptions.contains(key)) {
                    throw new ForgedStatementException(
                            definition.table(),
                            "the RESUME option '" + key + "', which ddl-service does not accept");
                }
            }
        }
    }

    /**
     * Checks only the SQL a definition carries (its own statement as a source table, its sources',
     * its query): what ddl-service registers in its Flink catalog when it reads its catalog back.
     * Its RESUME options it never applies, and a table stored before their allow-list stays in its
     * catalog (to be altered or dropped).
     *
     * @throws ForgedStatementException naming what is wrong
     */
    public static void checkStatements(TableDefinition definition) {
        if (definition.kind() == TableDefinition.Kind.SOURCE_TABLE) {
            checkSourceTable(definition.table(), definition.statement());
        }
        for (TableDefinition.SourceTable source :
                definition.sources() == null
                        ? List.<TableDefinition.SourceTable>of()
                        : definition.sources()) {
            if (source.kind() == TableDefinition.Kind.SOURCE_TABLE) {
                checkSourceTable(source.table(), source.statement());
            }
        }
        if (definition.query() != null) {
            checkQuery(definition.table(), definition.query().expanded()); // what jobs run
        }
    }

    private static void checkSourceTable(String table, String statement) {
        SqlNode node = single(table, statement);
        if (!(node instanceof SqlCreateTable create)
                || node instanceof SqlCreateTableAs
                || node instanceof SqlCreateTableLike) {
            throw new ForgedStatementException(
                    table,
                    "a source table's statement is a " + node.getKind() + ", not CREATE TABLE");
        }
        if (create.isTemporary()) {
            throw new ForgedStatementException(table, "a TEMPORARY table");
        }
        // Written as ddl-service accepted it: name, database.name or catalog.database.name, each
        // part the table's own.
        List<String> declared = create.getTableName().names;
        TableId id = TableId.of(table);
        List<String> own = List.of(id.catalog(), id.database(), id.name());
        if (declared.size() > own.size()
                || !declared.equals(own.subList(own.size() - declared.size(), own.size()))) {
            throw new ForgedStatementException(
                    table, "its statement creates '" + create.getTableName() + "', another table");
        }
        checkSourceOptions(table, create);
    }

    /** The connector and options ddl-service allows (it also checks the Kafka cluster). */
    private static void checkSourceOptions(String table, SqlCreateTable create) {
        List<SqlTableOption> options =
                create.getPropertyList().getList().stream()
                        .map(SqlTableOption.class::cast)
                        .toList();
        SourceConnectors.repeatedKey(options.stream().map(SqlTableOption::getKeyString).toList())
                .ifPresent(
                        key -> {
                            throw new ForgedStatementException(table, "option '" + key + "' twice");
                        });
        String connector =
                options.stream()
                        .filter(o -> o.getKeyString().equals("connector"))
                        .map(SqlTableOption::getValueString)
                        .findFirst()
                        .orElseThrow(() -> new ForgedStatementException(table, "no connector"));
        SourceConnectors.checkConnector(connector)
                .ifPresent(
                        refusal -> {
                            throw new ForgedStatementException(table, refusal.reason());
                        });
        for (SqlTableOption option : options) {
            SourceConnectors.checkOption(connector, option.getKeyString(), option.getValueString())
                    .ifPresent(
                            refusal -> {
                                throw new ForgedStatementException(table, refusal.reason());
                            });
        }
    }

    private static void checkQuery(String table, String query) {
        if (query == null) {
            return;
        }
        SqlNode node;
        try {
            node = SqlParser.create(query, FlinkSyntax.PARSER).parseQuery();
        } catch (SqlParseException e) {
            throw new ForgedStatementException(table, "its query does not parse as one query");
        }
        if (!node.getKind().belongsTo(SqlKind.QUERY)) {
            throw new ForgedStatementException(table, "its query is a " + node.getKind());
        }
        if (!TableOptionHints.in(node).isEmpty()) {
            throw new ForgedStatementException(table, "its query sets a table's OPTIONS");
        }
    }

    private static SqlNode single(String table, String statement) {
        if (statement == null) {
            throw new ForgedStatementException(table, "no statement");
        }
        SqlNodeList nodes;
        try {
            nodes = SqlParser.create(statement, FlinkSyntax.PARSER).parseStmtList();
        } catch (SqlParseException e) {
            throw new ForgedStatementException(table, "its statement does not parse");
        }
        if (nodes.size() != 1) {
            throw new ForgedStatementException(
                    table, nodes.size() + " statements where there is one");
        }
        return nodes.get(0);
    }
}
