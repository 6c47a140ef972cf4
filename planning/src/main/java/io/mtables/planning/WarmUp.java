package io.mtables.planning;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinitionBuilder;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.RefreshPlanBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The table a service plans or compiles once at its start, so that the first user's table does not
 * pay for loading and compiling Flink's planner, its code generator, the connectors and Paimon
 * (bin/bench control-plane: the first table after a start took 18 s, the next ones 2-3 s). It has
 * the shape of the common case: two change streams from Debezium, joined and aggregated. Its
 * database is a scratch one, declared only in environments of the service's own and removed after.
 */
public final class WarmUp {

    /** The scratch database; a name no statement of ours creates (double underscore). */
    public static final String DATABASE = "__mt_warm_up";

    public static final String TABLE = "default_catalog." + DATABASE + ".user_domains";

    private static final String USERS = "default_catalog." + DATABASE + ".users";
    private static final String DOMAINS = "default_catalog." + DATABASE + ".domains";

    private WarmUp() {}

    /** The warm-up table's definition, as ddl-service would write it. */
    public static TableDefinition definition() {
        String query =
                "SELECT `u`.`id` AS `user_id`, `u`.`name`, COUNT(`d`.`id`) AS `domains` FROM "
                        + quoted(USERS)
                        + " AS `u` INNER JOIN "
                        + quoted(DOMAINS)
                        + " AS `d` ON `d`.`user_id` = `u`.`id` GROUP BY `u`.`id`, `u`.`name`";
        return TableDefinitionBuilder.builder()
                .table(TABLE)
                .version(1)
                .kind(TableDefinition.Kind.MATERIALIZED_TABLE)
                .statement(
                        "CREATE MATERIALIZED TABLE "
                                + quoted(TABLE)
                                + " FRESHNESS = INTERVAL '1' SECOND AS "
                                + query)
                .columns(
                        List.of(
                                new TableDefinition.Column("user_id", "BIGINT", false),
                                new TableDefinition.Column("name", "STRING", true),
                                new TableDefinition.Column("domains", "BIGINT", false)))
                .primaryKey(List.of())
                .partitionKeys(List.of())
                .distribution(null)
                .options(Map.of())
                .comment(null)
                .freshness(new TableDefinition.Freshness(1, "SECOND"))
                .refreshMode(TableDefinition.RefreshMode.AUTO)
                .query(new TableDefinition.Query(query, query))
                .sources(
                        List.of(
                                source(
                                        USERS,
                                        "`id` BIGINT NOT NULL, `name` STRING",
                                        List.of(
                                                new TableDefinition.Column("id", "BIGINT", false),
                                                new TableDefinition.Column(
                                                        "name", "STRING", true))),
                                source(
                                        DOMAINS,
                                        "`id` BIGINT NOT NULL, `user_id` BIGINT, `domain` STRING",
                                        List.of(
                                                new TableDefinition.Column("id", "BIGINT", false),
                                                new TableDefinition.Column(
                                                        "user_id", "BIGINT", true),
                                                new TableDefinition.Column(
                                                        "domain", "STRING", true)))))
                .status(TableDefinition.Status.ACTIVE)
                .resumeOptions(Map.of())
                .createdAt(Instant.EPOCH)
                .updatedAt(Instant.EPOCH)
                .requestId(null)
                .build();
    }

    /** The plan planner-service makes of {@link #definition()}: a stream keyed by the user. */
    public static RefreshPlan plan() {
        return RefreshPlanBuilder.builder()
                .table(TABLE)
                .definitionVersion(1)
                .status(RefreshPlan.Status.ACTIVE)
                .mode(RefreshPlan.Mode.CONTINUOUS)
                .freshness(new RefreshPlan.Freshness(1, "SECOND"))
                .freshnessDeclared(true)
                .checkpointInterval(Duration.ofMillis(500))
                .cron(null)
                .partitionFormatters(Map.of())
                .changelogMode("[I,UA,D]")
                .upsertKey(
                        new RefreshPlan.UpsertKey(
                                List.of("user_id"), RefreshPlan.UpsertKey.Origin.DERIVED))
                .upstreamTables(List.of())
                .reasons(List.of("the warm-up table"))
                .warnings(List.of())
                .plannedAt(Instant.EPOCH)
                .build();
    }

    /**
     * A Debezium change stream read from Kafka; nothing connects to the broker named while a job is
     * only planned or compiled.
     */
    private static TableDefinition.SourceTable source(
            String table, String columns, List<TableDefinition.Column> described) {
        String statement =
                "CREATE TABLE "
                        + quoted(table)
                        + " ("
                        + columns
                        + ", PRIMARY KEY (`id`) NOT ENFORCED) WITH ('connector' = 'kafka',"
                        + " 'topic' = '"
                        + table
                        + "', 'format' = 'debezium-json', 'properties.bootstrap.servers' ="
                        + " '127.0.0.1:9', 'properties.isolation.level' = 'read_committed',"
                        + " 'scan.startup.mode' = 'earliest-offset')";
        return new TableDefinition.SourceTable(
                table, TableDefinition.Kind.SOURCE_TABLE, 1, statement, described, List.of());
    }

    private static String quoted(String table) {
        return io.mtables.schemas.catalog.TableId.of(table).quoted();
    }
}
