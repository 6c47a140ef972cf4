package io.mtables.ddl;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.List;

/** ddl-service settings. */
@ConfigMapping(prefix = "mt.ddl")
public interface DdlConfig {

    /** The largest statement accepted, in bytes (UTF-8). */
    @WithDefault("262144")
    int maxStatementBytes();

    /**
     * How many results (by request id) an instance remembers, the newest: a request id older than
     * that is no longer found by GET /api/v1/operations nor recognised when sent again.
     */
    @WithDefault("100000")
    int resultsKept();

    /**
     * The Kafka cluster source tables read ({@code host:port}s, comma-separated): a source's {@code
     * properties.bootstrap.servers} must name some of these and nothing else. By default the
     * cluster the services use.
     */
    @WithDefault("${kafka.bootstrap.servers}")
    List<String> sourceKafkaBootstrapServers();

    /** How many SELECTs over materialized tables read the warehouse at once. */
    @WithDefault("4")
    int readConcurrency();

    /** How long a SELECT over materialized tables may take before it is stopped. */
    @WithDefault("60s")
    java.time.Duration readTimeout();

    /**
     * The most rows a SELECT reads from one table's snapshot (it reads the whole snapshot before
     * WHERE and LIMIT apply); past it the SELECT is refused as {@code ResultTooLarge}.
     */
    @WithDefault("1000000")
    int readMaxRows();

    /**
     * The most bytes a SELECT holds, counted as its values' text (ReadLimits): of the rows it reads
     * from tables' snapshots, and of its answer or REST page; past it the SELECT is refused as
     * {@code ResultTooLarge}, and a REST page ends early.
     */
    @WithDefault("67108864")
    long readMaxBytes();

    /** Both read limits. */
    default io.mtables.ddl.infra.ReadLimits readLimits() {
        return new io.mtables.ddl.infra.ReadLimits(readMaxRows(), readMaxBytes());
    }
}
