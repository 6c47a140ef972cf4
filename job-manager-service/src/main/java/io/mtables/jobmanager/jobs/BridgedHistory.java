package io.mtables.jobmanager.jobs;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.HistoryBridge;
import io.mtables.schemas.refresh.SwitchedOver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * Seed 004's bridge, run at a switch-over whose sources lost their oldest changes: the new query's
 * staged table, its job stopped, is overwritten in one batch job with its own rows of the windows
 * after the cut-over and the old query's rows of the windows up to it (the columns the new query
 * adds NULL). The cut-over is the newest window end the old query wrote: the old job, stopped
 * before this, closed every window up to it from all the changes, which the new job can no longer
 * read; the windows after it are the new job's, from changes its sources still hold. Where the new
 * job had fired fewer windows at its savepoint (its watermark a periodic emission behind), the
 * cut-over is its newest window end instead: a window it fires after the switch is then never one
 * the old rows already hold (a duplicate in a table without a key).
 */
public final class BridgedHistory {

    private final JobSubmitter submitter;

    public BridgedHistory(JobSubmitter submitter) {
        this.submitter = submitter;
    }

    /**
     * Bridges the staged table of {@code definition} with the rows of the table's own Paimon table
     * (the old query's); empty when the old query wrote no row to keep. Waits for the batch job, at
     * most {@code timeout}.
     *
     * @throws IllegalStateException when a job fails or takes longer
     */
    public Optional<SwitchedOver.Bridged> bridge(
            TableDefinition definition,
            HistoryBridge bridge,
            Map<String, String> jobOptions,
            Duration timeout) {
        String old = JobSql.paimonName(definition.table());
        String staged =
                JobSql.paimonName(JobSql.stagedTable(definition.table(), definition.version()));
        String column = JobSql.quote(bridge.column());
        Started started =
                submitter.inBatch(
                        jobOptions,
                        env -> {
                            List<String> ends = windowEnds(env, column, old, staged);
                            String cutOver = ends.get(0);
                            if (cutOver == null) {
                                return null;
                            }
                            String newFrom = ends.get(1);
                            return new Started(
                                    JobSubmitter.jobOf(
                                            env.executeSql(
                                                    overwrite(
                                                            env,
                                                            old,
                                                            staged,
                                                            bridge.column(),
                                                            cutOver))),
                                    new SwitchedOver.Bridged(bridge.column(), cutOver, newFrom));
                        });
        if (started == null) {
            return Optional.empty();
        }
        submitter.awaitOrCancel(started.job(), timeout, "the bridge of the old rows");
        return Optional.of(started.bridged());
    }

    /** The bridge's batch job, submitted, and what it keeps. */
    private record Started(JobClient job, SwitchedOver.Bridged bridged) {}

    /**
     * The staged table's rows after the cut-over and the old table's up to it, by the staged
     * table's columns (the old table's of the same name, NULL for those it lacks).
     */
    private static String overwrite(
            TableEnvironment env, String old, String staged, String column, String cutOver) {
        List<Column> columns = env.from(staged).getResolvedSchema().getColumns();
        List<String> oldColumns = env.from(old).getResolvedSchema().getColumnNames();
        LogicalType cutType =
                columns.stream()
                        .filter(c -> c.getName().equals(column))
                        .findFirst()
                        .orElseThrow(
                                () ->
                                        new IllegalStateException(
                                                "the new query's table has no column " + column))
                        .getDataType()
                        .getLogicalType()
                        .copy(true);
        String cut =
                "CAST('"
                        + cutOver.replace("'", "''")
                        + "' AS "
                        + cutType.asSerializableString()
                        + ")";
        List<String> own = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        for (Column c : columns) {
            String name = JobSql.quote(c.getName());
            own.add(name);
            kept.add(
                    oldColumns.contains(c.getName())
                            ? name
                            : "CAST(NULL AS "
                                    + c.getDataType()
                                            .getLogicalType()
                                            .copy(true)
                                            .asSerializableString()
                                    + ") AS "
                                    + name);
        }
        String quoted = JobSql.quote(column);
        return "INSERT OVERWRITE "
                + staged
                + " /*+ OPTIONS('dynamic-partition-overwrite' = 'false') */\n"
                + "SELECT "
                + String.join(", ", own)
                + " FROM "
                + staged
                + " WHERE "
                + quoted
                + " > "
                + cut
                + "\nUNION ALL\nSELECT "
                + String.join(", ", kept)
                + " FROM "
                + old
                + " WHERE "
                + quoted
                + " <= "
                + cut;
    }

    /**
     * The cut-over (the older of the newest {@code column} in {@code old} and the newest in {@code
     * staged}; the old one when {@code staged} has none) and the oldest {@code column} in {@code
     * staged}, as Flink's STRING (null for none): one batch job, as readers wait for the switch
     * meanwhile.
     */
    private static List<String> windowEnds(
            TableEnvironment env, String column, String old, String staged) {
        String query =
                "SELECT CAST(CASE WHEN n.newest < o.e THEN n.newest ELSE o.e END AS STRING),"
                        + " CAST(n.oldest AS STRING) FROM (SELECT MAX("
                        + column
                        + ") AS e FROM "
                        + old
                        + ") AS o CROSS JOIN (SELECT MIN("
                        + column
                        + ") AS oldest, MAX("
                        + column
                        + ") AS newest FROM "
                        + staged
                        + ") AS n";
        try (CloseableIterator<Row> rows = env.executeSql(query).collect()) {
            Row row = rows.next();
            List<String> ends = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                Object value = row.getField(i);
                ends.add(value == null ? null : value.toString());
            }
            return ends;
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the window ends of " + old, e);
        }
    }
}
