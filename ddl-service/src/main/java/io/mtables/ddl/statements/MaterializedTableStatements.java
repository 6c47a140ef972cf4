package io.mtables.ddl.statements;

import io.mtables.ddl.domain.AllowedOptions;
import io.mtables.ddl.domain.CanonicalStatement;
import io.mtables.ddl.domain.Catalog;
import io.mtables.ddl.domain.ReservedNames;
import io.mtables.ddl.domain.SchemaEvolution;
import io.mtables.ddl.domain.StatementException;
import io.mtables.ddl.infra.FlinkSql;
import io.mtables.ddl.infra.ParsedStatement;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.Kind;
import io.mtables.schemas.catalog.TableDefinition.Status;
import io.mtables.schemas.catalog.TableDefinitionBuilder;
import io.mtables.schemas.catalog.TableDropped;
import io.mtables.schemas.lifecycle.RefreshRequested;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.flink.sql.parser.ddl.SqlAlterMaterializedTable;
import org.apache.flink.sql.parser.ddl.SqlAlterMaterializedTableAsQuery;
import org.apache.flink.sql.parser.ddl.SqlAlterMaterializedTableFreshness;
import org.apache.flink.sql.parser.ddl.SqlAlterMaterializedTableOptions;
import org.apache.flink.sql.parser.ddl.SqlAlterMaterializedTableRefresh;
import org.apache.flink.sql.parser.ddl.SqlAlterMaterializedTableReset;
import org.apache.flink.sql.parser.ddl.SqlAlterMaterializedTableResume;
import org.apache.flink.sql.parser.ddl.SqlAlterMaterializedTableSuspend;
import org.apache.flink.sql.parser.ddl.SqlCreateMaterializedTable;
import org.apache.flink.sql.parser.ddl.SqlDropMaterializedTable;
import org.apache.flink.sql.parser.ddl.SqlTableOption;

/**
 * CREATE [OR ALTER], ALTER and DROP MATERIALIZED TABLE. Every change of the definition is written
 * back as a canonical CREATE statement and validated again in full, so an ALTER can never produce a
 * table that a CREATE would refuse.
 */
final class MaterializedTableStatements {

    private final FlinkSql flink;
    private final Catalog catalog;
    private final MaterializedTableCompiler compiler;

    /**
     * Whether the job manager suspended a table by itself (after failures): RESUME is then allowed
     * on an ACTIVE definition.
     */
    private final Predicate<String> suspendedByJobManager;

    /**
     * Whether the current version of a table is planned CONTINUOUS: its streaming job keeps it
     * fresh, REFRESH does not apply.
     */
    private final Predicate<TableDefinition> plannedContinuous;

    MaterializedTableStatements(
            FlinkSql flink,
            Catalog catalog,
            Predicate<String> suspendedByJobManager,
            Predicate<TableDefinition> plannedContinuous) {
        this.suspendedByJobManager = suspendedByJobManager;
        this.plannedContinuous = plannedContinuous;
        this.flink = flink;
        this.catalog = catalog;
        this.compiler = new MaterializedTableCompiler(flink, catalog);
    }

    Outcome create(ParsedStatement parsed, String requestId, Instant now) {
        var create = (SqlCreateMaterializedTable) parsed.node();
        String table = Identifiers.qualify(create.fullTableName(), flink, create.getTableName());
        ReservedNames.refuseChange(table, FlinkSql.positionOf(create.getTableName()));
        var existing = catalog.find(table);
        if (existing.isPresent() && existing.get().kind() != Kind.MATERIALIZED_TABLE) {
            throw StatementException.conflict(
                    "TableAlreadyExists",
                    "Table " + table + " already exists and is a source table.");
        }
        if (existing.isPresent() && !parsed.createOrAlter()) {
            throw StatementException.conflict(
                    "TableAlreadyExists",
                    "Materialized table "
                            + table
                            + " already exists. Use CREATE OR ALTER MATERIALIZED TABLE to change"
                            + " it.");
        }
        var compiled = compiler.compile(parsed);
        if (existing.isPresent()) {
            return changeTo(existing.get(), compiled.draft(), requestId, now, "altered");
        }
        TableDefinition definition =
                complete(
                        compiled.draft(),
                        catalog.nextVersion(table),
                        now,
                        now,
                        Status.ACTIVE,
                        null,
                        requestId);
        return new Outcome.Defined(
                definition,
                "Materialized table " + table + " created.",
                () -> flink.register(definition));
    }

    Outcome alter(
            ParsedStatement parsed,
            SqlAlterMaterializedTable alter,
            String requestId,
            Instant now) {
        String table = Identifiers.qualify(alter.fullTableName(), flink, alter.getTableName());
        ReservedNames.refuseChange(table, FlinkSql.positionOf(alter.getTableName()));
        TableDefinition current = existingMaterialized(table, alter.getTableName());
        if (alter instanceof SqlAlterMaterializedTableSuspend) {
            return changeStatus(current, Status.SUSPENDED, null, requestId, now);
        }
        if (alter instanceof SqlAlterMaterializedTableResume resume) {
            return changeStatus(
                    current,
                    Status.ACTIVE,
                    resumeOptions(resume.getPropertyList()),
                    requestId,
                    now);
        }
        CanonicalStatement canonical = canonicalOf(current);
        SqlNode changed;
        if (alter instanceof SqlAlterMaterializedTableFreshness freshness) {
            canonical = with(canonical, FreshnessLiteral.parse(freshness.getFreshness()));
            changed = freshness.getFreshness();
        } else if (alter instanceof SqlAlterMaterializedTableOptions set) {
            Map<String, String> options = new TreeMap<>(canonical.options());
            options.putAll(options(set.getPropertyList()));
            canonical = withOptions(canonical, options);
            changed = set.getPropertyList();
        } else if (alter instanceof SqlAlterMaterializedTableReset reset) {
            Map<String, String> options = new TreeMap<>(canonical.options());
            for (SqlNode key : reset.getPropertyKeyList()) {
                options.remove(literal(key));
            }
            canonical = withOptions(canonical, options);
            changed = reset.getPropertyKeyList();
        } else if (alter instanceof SqlAlterMaterializedTableAsQuery as) {
            canonical =
                    withQuery(
                            canonical,
                            MaterializedTableCompiler.queryText(parsed.text(), as.getAsQuery()));
            changed = as.getAsQuery();
        } else {
            throw StatementException.invalidAt(
                    "UnsupportedStatement",
                    "This ALTER MATERIALIZED TABLE form is not supported.",
                    FlinkSql.positionOf(alter),
                    "SUSPEND, RESUME [WITH (...)], REFRESH [PARTITION (...)], SET FRESHNESS = ...,"
                            + " SET (...), RESET (...), AS <query>");
        }
        var compiled = recompile(canonical, changed);
        return changeTo(current, compiled.draft(), requestId, now, "altered");
    }

    /**
     * REFRESH [PARTITION (k = 'v', ...)]: one batch refresh now; the keys must be partition
     * columns.
     */
    Outcome refresh(SqlAlterMaterializedTableRefresh refresh, String requestId, Instant now) {
        String table = Identifiers.qualify(refresh.fullTableName(), flink, refresh.getTableName());
        ReservedNames.refuseChange(table, FlinkSql.positionOf(refresh.getTableName()));
        TableDefinition current = existingMaterialized(table, refresh.getTableName());
        if (plannedContinuous.test(current)) {
            throw StatementException.conflict(
                    "RefreshOfContinuousTable",
                    "Materialized table "
                            + table
                            + " is CONTINUOUS: its streaming job keeps it fresh, and a batch"
                            + " refresh beside it would be a second writer. REFRESH applies to FULL"
                            + " tables; nothing was requested.");
        }
        Map<String, String> partition = new LinkedHashMap<>();
        if (refresh.getPartitionSpec() != null) {
            for (SqlNode entry : refresh.getPartitionSpec()) {
                List<SqlNode> operands = ((SqlCall) entry).getOperandList();
                String key = ((SqlIdentifier) operands.get(0)).getSimple();
                if (!current.partitionKeys().contains(key)) {
                    throw StatementException.invalidAt(
                            "NotAPartitionColumn",
                            "'" + key + "' is not a partition column of " + table + ".",
                            FlinkSql.positionOf(entry),
                            current.partitionKeys().isEmpty()
                                    ? "REFRESH without PARTITION: the table is not partitioned"
                                    : "partition columns " + current.partitionKeys());
                }
                if (partition.put(key, valueOf(operands.get(1))) != null) {
                    throw StatementException.invalidAt(
                            "DuplicatePartitionColumn",
                            "'" + key + "' is named twice.",
                            FlinkSql.positionOf(entry),
                            "each partition column once");
                }
            }
        }
        var request = new RefreshRequested(table, current.version(), partition, now, requestId);
        String what = partition.isEmpty() ? table : table + " partition " + partition;
        return new Outcome.RefreshRequest(request, "Refresh of " + what + " requested.");
    }

    private static String valueOf(SqlNode value) {
        if (value instanceof SqlLiteral literal) {
            Object text = literal.getValueAs(String.class);
            if (text != null) {
                return text.toString();
            }
        }
        return value.toString();
    }

    Outcome drop(SqlDropMaterializedTable drop, String requestId, Instant now) {
        SqlIdentifier name = (SqlIdentifier) drop.getOperandList().get(0);
        String table = Identifiers.qualify(drop.fullTableName(), flink, name);
        ReservedNames.refuseChange(table, FlinkSql.positionOf(name));
        var existing = catalog.find(table);
        if (existing.isEmpty()) {
            if (drop.getIfExists()) {
                return new Outcome.Unchanged(
                        table,
                        "Materialized table "
                                + table
                                + " does not exist; nothing changed (IF EXISTS).");
            }
            throw StatementException.notFound("Materialized table " + table + " does not exist.");
        }
        if (existing.get().kind() != Kind.MATERIALIZED_TABLE) {
            throw StatementException.invalid(
                    "WrongTableKind",
                    table + " is a source table, not a materialized table.",
                    "DROP TABLE " + table);
        }
        Statements.refuseWhenRead(catalog, table);
        return new Outcome.Dropped(
                new TableDropped(
                        table, catalog.nextVersion(table), Kind.MATERIALIZED_TABLE, now, requestId),
                "Materialized table " + table + " dropped; its refresh pipeline stops first.");
    }

    /** The current definition of a materialized table known to exist. */
    TableDefinition current(String table) {
        return catalog.find(table).orElseThrow();
    }

    /**
     * The current definition of a table, if it exists (a dropped one does not, though its versions
     * go on).
     */
    Optional<TableDefinition> find(String table) {
        return catalog.find(table);
    }

    private TableDefinition existingMaterialized(String table, SqlNode at) {
        TableDefinition current =
                catalog.find(table)
                        .orElseThrow(
                                () ->
                                        StatementException.notFound(
                                                "Materialized table "
                                                        + table
                                                        + " does not exist."));
        if (current.kind() != Kind.MATERIALIZED_TABLE) {
            throw StatementException.invalidAt(
                    "WrongTableKind",
                    table + " is a source table, not a materialized table.",
                    FlinkSql.positionOf(at),
                    "a materialized table");
        }
        return current;
    }

    private Outcome changeStatus(
            TableDefinition current,
            Status status,
            Map<String, String> resumeOptions,
            String requestId,
            Instant now) {
        boolean autoSuspended =
                status == Status.ACTIVE && suspendedByJobManager.test(current.table());
        if (current.status() == status && !autoSuspended) {
            throw StatementException.conflict(
                    status == Status.SUSPENDED ? "AlreadySuspended" : "NotSuspended",
                    "Materialized table "
                            + current.table()
                            + (status == Status.SUSPENDED
                                    ? " is already suspended."
                                    : " is not suspended."));
        }
        TableDefinition next =
                complete(
                        current,
                        catalog.nextVersion(current.table()),
                        current.createdAt(),
                        now,
                        status,
                        resumeOptions,
                        requestId);
        String verb = status == Status.SUSPENDED ? "suspended" : "resumed";
        return new Outcome.Defined(
                next, "Materialized table " + current.table() + " " + verb + ".", () -> {});
    }

    private Outcome changeTo(
            TableDefinition current,
            TableDefinition draft,
            String requestId,
            Instant now,
            String verb) {
        SchemaEvolution.check(current, draft);
        if (draft.statement().equals(current.statement())) {
            return new Outcome.Unchanged(
                    current.table(),
                    "Materialized table "
                            + current.table()
                            + " is already defined this way; nothing changed.");
        }
        TableDefinition next =
                complete(
                        draft,
                        catalog.nextVersion(current.table()),
                        current.createdAt(),
                        now,
                        current.status(),
                        current.resumeOptions(),
                        requestId);
        return new Outcome.Defined(
                next,
                "Materialized table " + current.table() + " " + verb + ".",
                () -> flink.register(next));
    }

    private MaterializedTableCompiler.Compiled recompile(
            CanonicalStatement canonical, SqlNode changed) {
        try {
            return compiler.compile(flink.parse(canonical.text()));
        } catch (StatementException e) {
            // The positions point into the canonical statement: point at the changed clause
            // instead.
            var at = FlinkSql.positionOf(changed);
            var error = e.toError();
            throw new StatementException(
                    e.category(),
                    e.reason(),
                    e.getMessage(),
                    at == null ? null : at.line(),
                    at == null ? null : at.column(),
                    error.allowed());
        }
    }

    private static CanonicalStatement canonicalOf(TableDefinition d) {
        return new CanonicalStatement(
                d.table(),
                d.primaryKey(),
                d.comment(),
                d.distribution(),
                d.partitionKeys(),
                d.options(),
                d.freshness(),
                d.refreshMode(),
                d.query().original());
    }

    private static CanonicalStatement with(
            CanonicalStatement c, TableDefinition.Freshness freshness) {
        return new CanonicalStatement(
                c.table(),
                c.primaryKey(),
                c.comment(),
                c.distribution(),
                c.partitionKeys(),
                c.options(),
                freshness,
                c.refreshMode(),
                c.query());
    }

    private static CanonicalStatement withOptions(
            CanonicalStatement c, Map<String, String> options) {
        return new CanonicalStatement(
                c.table(),
                c.primaryKey(),
                c.comment(),
                c.distribution(),
                c.partitionKeys(),
                options,
                c.freshness(),
                c.refreshMode(),
                c.query());
    }

    private static CanonicalStatement withQuery(CanonicalStatement c, String query) {
        return new CanonicalStatement(
                c.table(),
                c.primaryKey(),
                c.comment(),
                c.distribution(),
                c.partitionKeys(),
                c.options(),
                c.freshness(),
                c.refreshMode(),
                query);
    }

    private static TableDefinition complete(
            TableDefinition d,
            long version,
            Instant createdAt,
            Instant updatedAt,
            Status status,
            Map<String, String> resumeOptions,
            String requestId) {
        return TableDefinitionBuilder.builder(d)
                .version(version)
                .status(status)
                .resumeOptions(resumeOptions == null ? Map.of() : resumeOptions)
                .createdAt(createdAt)
                .updatedAt(updatedAt)
                .requestId(requestId)
                // Added later: the owner (Authorization), the query's change (StatementRouter).
                .queryChange(null)
                .previewedPlan(null)
                .owner(null)
                .build();
    }

    /**
     * RESUME's options, each one allowed ({@link AllowedOptions#RESUME}): the job manager applies
     * them over its own configuration of the table's jobs.
     */
    private static Map<String, String> resumeOptions(SqlNodeList list) {
        if (list != null) {
            for (SqlNode node : list) {
                SqlTableOption option = (SqlTableOption) node;
                AllowedOptions.RESUME.check(
                        option.getKeyString(),
                        option.getValueString(),
                        FlinkSql.positionOf(option.getKey()));
            }
        }
        return options(list);
    }

    private static Map<String, String> options(SqlNodeList list) {
        Map<String, String> options = new TreeMap<>();
        if (list != null) {
            for (SqlNode node : list) {
                SqlTableOption option = (SqlTableOption) node;
                options.put(option.getKeyString(), option.getValueString());
            }
        }
        return options;
    }

    private static String literal(SqlNode node) {
        return ((SqlLiteral) node).getValueAs(String.class);
    }
}
