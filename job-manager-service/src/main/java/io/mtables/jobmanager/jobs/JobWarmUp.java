package io.mtables.jobmanager.jobs;

import io.mtables.jobmanager.flink.FlinkTarget;
import io.mtables.planning.Warehouse;
import io.mtables.planning.WarmUp;
import io.mtables.planning.WrittenRows;
import io.mtables.schemas.catalog.TableDefinition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;

/**
 * Compiles {@link WarmUp}'s streaming job once at the job manager's start, as a table's job is
 * compiled (its Paimon table created, the sources declared, the INSERT planned, code generated, the
 * job graph built), and a batch rewrite of its rows (as a restore compiles its rewrite; a FULL
 * refresh's batch planning is the same Flink code), but into a scratch warehouse of its own and
 * never submitted: the first user's table then finds Flink's planner, the connectors and Paimon
 * loaded and compiled, and so does the first batch job (a FULL refresh, or the rewrite of a
 * restore, which readers wait for: compiled cold it took 3.8 s in {@code bin/bench evolution}).
 */
public final class JobWarmUp {

    private JobWarmUp() {}

    /**
     * Compiles the warm-up job with {@code jobOptions} (a table's streaming options) and the
     * rewrite of its rows with {@code refreshOptions} (a rewrite's) for {@code target}, then the
     * streaming job {@code repeats} times more, each once {@code idle} (the service acts on no
     * record: a user's table is compiled first), then deletes the scratch warehouse.
     *
     * <p>One compile loads the classes; the JIT needs more. Compiled in a loop, the warm-up job
     * took 4.7 s, then 256, 196, 171 ms, about 110 ms from the 10th on and 60-80 ms from the 40th
     * (2 cores, nothing else running); after one warm-up compile a user's table compiled in 150-360
     * ms (bin/bench control-plane, 2026-12-04).
     */
    public static void run(
            FlinkTarget target,
            Map<String, String> jobOptions,
            Map<String, String> refreshOptions,
            int repeats,
            BooleanSupplier idle) {
        Path scratch = scratch();
        try {
            Warehouse warehouse = Warehouse.at(scratch.toUri().toString());
            JobSubmitter submitter = new JobSubmitter(target, warehouse);
            submitter.tables().ensureTable(WarmUp.definition(), WarmUp.plan());
            Configuration configuration = target.clientConfiguration();
            jobOptions.forEach(configuration::setString);
            StreamingGraphs graphs = new StreamingGraphs(warehouse, KafkaSourceCredentials.NONE);
            if (compile(graphs, configuration) == 0) {
                throw new IllegalStateException("the warm-up job's graph is empty");
            }
            List<String> columns =
                    WarmUp.definition().columns().stream()
                            .map(TableDefinition.Column::name)
                            .toList();
            // The rewrite of a query into itself: the written rows as they are.
            String writtenRows =
                    "SELECT "
                            + String.join(", ", columns.stream().map(JobSql::quote).toList())
                            + " FROM "
                            + JobSql.quote(WrittenRows.WRITTEN);
            new WrittenRowsRewrites(target, warehouse)
                    .compile(
                            WarmUp.definition(),
                            WarmUp.plan(),
                            writtenRows,
                            columns,
                            refreshOptions);
            for (int i = 0; i < repeats; i++) {
                awaitIdle(idle);
                compile(graphs, configuration);
            }
        } finally {
            delete(scratch);
        }
    }

    /** The warm-up table's streaming job graph, compiled; its number of vertices. */
    private static int compile(StreamingGraphs graphs, Configuration configuration) {
        return graphs.prepare(WarmUp.definition(), WarmUp.plan(), configuration, WarmUp.TABLE)
                .graph()
                .getJobGraph()
                .getNumberOfVertices();
    }

    /** Returns once {@code idle} says so, asking every 20 ms. */
    static void awaitIdle(BooleanSupplier idle) {
        while (!idle.getAsBoolean()) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while warming up", e);
            }
        }
    }

    static Path scratch() {
        try {
            return Files.createTempDirectory("mt-warm-up-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the warm-up's scratch warehouse", e);
        }
    }

    static void delete(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the warm-up's scratch warehouse", e);
        }
    }
}
