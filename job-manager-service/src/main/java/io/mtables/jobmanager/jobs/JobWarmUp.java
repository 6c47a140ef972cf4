package io.mtables.jobmanager.jobs;

import io.mtables.jobmanager.flink.FlinkTarget;
import io.mtables.planning.Warehouse;
import io.mtables.planning.WarmUp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;

/**
 * Compiles {@link WarmUp}'s streaming job once at the job manager's start, as a table's job is
 * compiled (its Paimon table created, the sources declared, the INSERT planned, code generated, the
 * job graph built) but into a scratch warehouse of its own and never submitted: the first user's
 * table then finds Flink's planner, the connectors and Paimon loaded and compiled.
 */
public final class JobWarmUp {

    private JobWarmUp() {}

    /**
     * Compiles the warm-up job with {@code jobOptions} (a table's streaming options) for {@code
     * target}, then deletes the scratch warehouse.
     */
    public static void run(FlinkTarget target, Map<String, String> jobOptions) {
        Path scratch = scratch();
        try {
            Warehouse warehouse = Warehouse.at(scratch.toUri().toString());
            new JobSubmitter(target, warehouse).ensureTable(WarmUp.definition(), WarmUp.plan());
            Configuration configuration = target.clientConfiguration();
            jobOptions.forEach(configuration::setString);
            int vertices =
                    new StreamingGraphs(warehouse)
                            .prepare(
                                    WarmUp.definition(), WarmUp.plan(), configuration, WarmUp.TABLE)
                            .graph()
                            .getJobGraph()
                            .getNumberOfVertices();
            if (vertices == 0) {
                throw new IllegalStateException("the warm-up job's graph is empty");
            }
        } finally {
            delete(scratch);
        }
    }

    private static Path scratch() {
        try {
            return Files.createTempDirectory("mt-warm-up-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the warm-up's scratch warehouse", e);
        }
    }

    private static void delete(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the warm-up's scratch warehouse", e);
        }
    }
}
