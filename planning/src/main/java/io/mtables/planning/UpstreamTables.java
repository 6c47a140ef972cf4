package io.mtables.planning;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableId;
import io.mtables.schemas.plan.RefreshPlan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.ObjectPath;

/**
 * Declares a materialized table that a query reads as the job manager does: a view under the
 * table's own name over its Paimon table. Here the Paimon table is an empty one of the same shape
 * (columns, key, partitions, changelog producer) in a scratch warehouse of this process, so Flink
 * plans the read exactly as it will run: a changelog in a stream, a snapshot in a batch.
 */
final class UpstreamTables {

    private static final String CATALOG = "mt_planning";

    private final Path warehouse;
    private final Set<TableEnvironment> withCatalog = new HashSet<>();

    UpstreamTables() {
        try {
            warehouse = Files.createTempDirectory("mt-planning-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the planner's scratch warehouse", e);
        }
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(() -> deleteQuietly(warehouse), "planning-scratch-cleanup"));
    }

    /**
     * Whether a table Flink names in a plan is one of the scratch tables: a materialized table read
     * through it is a table of results, not a change stream of a database.
     */
    static boolean isScratch(String table) {
        return table.startsWith(CATALOG + ".");
    }

    void declare(TableEnvironment env, TableDefinition.SourceTable source, RefreshPlan plan) {
        if (withCatalog.add(env)) {
            env.executeSql(
                    "CREATE CATALOG "
                            + PaimonTables.quote(CATALOG)
                            + " WITH ('type' = 'paimon', 'warehouse' = "
                            + PaimonTables.literal(warehouse.toUri().toString())
                            + ", 'cache-enabled' = 'false')");
        }
        TableId id = TableId.of(source.table());
        String paimonName = new TableId(CATALOG, id.database(), id.name()).quoted();
        env.executeSql(
                "CREATE DATABASE IF NOT EXISTS "
                        + PaimonTables.quote(CATALOG)
                        + "."
                        + PaimonTables.quote(id.database()));
        env.executeSql("DROP TABLE IF EXISTS " + paimonName);
        var partitionKeys =
                source.partitionKeys() == null ? List.<String>of() : source.partitionKeys();
        env.executeSql(
                PaimonTables.createTable(
                        paimonName,
                        source.columns(),
                        partitionKeys,
                        PaimonTables.primaryKey(plan, partitionKeys),
                        Map.of()));
        env.executeSql("CREATE DATABASE IF NOT EXISTS " + id.quotedDatabase());
        env.getCatalog(id.catalog())
                .ifPresent(
                        catalog -> {
                            try {
                                catalog.dropTable(new ObjectPath(id.database(), id.name()), true);
                            } catch (Exception e) {
                                throw new IllegalStateException(
                                        "cannot replace "
                                                + source.table()
                                                + " in the planner's catalog",
                                        e);
                            }
                        });
        env.executeSql(
                "CREATE VIEW "
                        + id.quoted()
                        + " AS SELECT "
                        + String.join(
                                ", ",
                                source.columns().stream()
                                        .map(c -> PaimonTables.quote(c.name()))
                                        .toList())
                        + " FROM "
                        + paimonName);
    }

    private static void deleteQuietly(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // a scratch directory in the temp folder: the system cleans it up otherwise
        }
    }
}
