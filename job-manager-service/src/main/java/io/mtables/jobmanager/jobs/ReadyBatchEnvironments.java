package io.mtables.jobmanager.jobs;

import io.mtables.planning.Warehouse;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;

/**
 * Batch TableEnvironments kept ready between FULL refreshes, with the warehouse catalog declared:
 * creating one (Flink's factories found again on the class path, its modules and catalogs set up)
 * and the Paimon catalog was most of a small refresh's time in the job manager (bin/bench
 * refresh-cost with MT_BENCH_PROFILE=1). One per set of job options, since options a job manager
 * once gave an environment stay in it; the job's name is the one option set per job. The caller
 * removes what a refresh declared in the default catalog; one whose refresh failed half-way is
 * dropped, never reused. Not thread-safe: Flink's planner keeps per-thread state, so all refreshes
 * are compiled on one thread (the job manager's control thread).
 */
final class ReadyBatchEnvironments {

    /**
     * More distinct option sets than this are rare (per-table RESUME options); the oldest is let
     * go.
     */
    private static final int KEPT = 4;

    private final Function<Map<String, String>, TableEnvironment> create;
    private final Map<Map<String, String>, TableEnvironment> ready =
            new LinkedHashMap<>(KEPT, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(
                        Map.Entry<Map<String, String>, TableEnvironment> eldest) {
                    return size() > KEPT;
                }
            };

    ReadyBatchEnvironments(Configuration client, Warehouse warehouse) {
        this(
                options -> {
                    Configuration configuration = new Configuration(client);
                    options.forEach(configuration::setString);
                    TableEnvironment env =
                            TableEnvironment.create(
                                    EnvironmentSettings.newInstance()
                                            .withConfiguration(configuration)
                                            .inBatchMode()
                                            .build());
                    env.executeSql(JobSql.createCatalog(warehouse));
                    return env;
                });
    }

    ReadyBatchEnvironments(Function<Map<String, String>, TableEnvironment> create) {
        this.create = create;
    }

    /**
     * An environment for a job with {@code jobOptions}, its name set; given back with {@link
     * #release} once clean, else never reused (a refresh that failed half-way may have left part of
     * what it declared).
     */
    TableEnvironment take(Map<String, String> jobOptions) {
        Map<String, String> shared = new HashMap<>(jobOptions);
        String name = shared.remove(PipelineOptions.NAME.key());
        TableEnvironment env = ready.remove(shared);
        if (env == null) {
            env = create.apply(shared);
        }
        if (name != null) {
            env.getConfig().set(PipelineOptions.NAME, name);
        }
        return env;
    }

    /**
     * The environment is clean again (what its refresh declared is removed): kept for the next
     * refresh with these options.
     */
    void release(Map<String, String> jobOptions, TableEnvironment env) {
        Map<String, String> shared = new HashMap<>(jobOptions);
        shared.remove(PipelineOptions.NAME.key());
        ready.put(shared, env);
    }

    int size() {
        return ready.size();
    }
}
