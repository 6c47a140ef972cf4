package io.mtables.jobmanager;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Where the jobs run and where the data lives. */
@ConfigMapping(prefix = "mt")
public interface JobManagerConfig {

    /**
     * The service's own files: the embedded cluster, checkpoints, savepoints, the default
     * warehouse.
     */
    @WithName("data-dir")
    @WithDefault(".run/data")
    String dataDir();

    /**
     * Whether the service warms up at its start (docs/operations.md): a mapped key, so that {@code
     * -Dmt.warm-up=false} is not refused as unknown under this mapping's prefix.
     */
    @WithName("warm-up")
    @WithDefault("true")
    boolean warmUp();

    /**
     * After the warm-up's first compile (mt.warm-up), how many times more it compiles the same job,
     * for the JIT (docs/operations.md).
     */
    @WithName("warm-up.repeats")
    @WithDefault("30")
    int warmUpRepeats();

    /** Flink. */
    Flink flink();

    /** Paimon. */
    Paimon paimon();

    /** Failure handling. */
    Jobs jobs();

    /** An S3-compatible object store, for a warehouse at an s3:// URI. */
    S3 s3();

    /** Flink settings. */
    interface Flink {

        /**
         * {@code embedded} (a local cluster this service starts) or {@code remote} (a session
         * cluster at rest-address).
         */
        @WithDefault("embedded")
        String target();

        /** The remote cluster's REST address, host:port. */
        @WithName("rest-address")
        Optional<String> restAddress();

        /**
         * Where a browser reaches Flink's web UI, for the console's links to each job; default the
         * cluster's REST address as this service reaches it. {@code none}: no links (Flink's port
         * is not reachable from outside).
         */
        @WithName("web-url")
        Optional<String> webUrl();

        /**
         * Jars a remote cluster needs for our jobs (connectors, Paimon), shipped with every job.
         */
        @WithName("pipeline-jars")
        Optional<List<String>> pipelineJars();

        /** TLS to a remote cluster's REST port (docs/security.md, Flink). */
        @WithName("rest-tls")
        RestTls restTls();

        /** The embedded cluster. */
        Embedded embedded();

        /** Parallelism of every job. */
        @WithDefault("1")
        int parallelism();

        /**
         * Flink options a definition's RESUME options may set besides {@code table.exec.state.ttl},
         * the one ddl-service accepts: a definition read from the topic with any other is
         * dead-lettered as forged (planning's StoredStatements). Empty but in the job manager's own
         * tests, which widen jobs with {@code parallelism.default}.
         */
        @WithName("more-resume-options")
        Optional<Set<String>> moreResumeOptions();

        /** {@code hashmap} (state on the heap) or {@code rocksdb} (state on disk). */
        @WithName("state-backend")
        @WithDefault("hashmap")
        String stateBackend();

        /**
         * Where SUSPEND and new plan versions save streaming state; empty disables SUSPEND of
         * running jobs.
         */
        @WithName("savepoint-dir")
        Optional<String> savepointDir();

        /**
         * Where streaming jobs keep their checkpoints (retained, so a lost cluster loses nothing).
         */
        @WithName("checkpoint-dir")
        Optional<String> checkpointDir();

        /** How often the job manager looks at its jobs and at new snapshots. */
        @WithName("poll-interval")
        @WithDefault("1s")
        Duration pollInterval();

        /**
         * How often a running FULL refresh's job is asked whether it ended, so its end is reported
         * at once.
         */
        @WithName("refresh-watch-interval")
        @WithDefault("100ms")
        Duration refreshWatchInterval();
    }

    /**
     * HTTPS to a remote cluster's REST port, which Flink serves with {@code
     * security.ssl.rest.enabled}; with {@code security.ssl.rest.authentication-enabled} it also
     * asks for this service's certificate, and takes jobs from no one else.
     */
    interface RestTls {

        /** Whether the cluster's REST port speaks HTTPS. */
        @WithDefault("false")
        boolean enabled();

        /** A PKCS12 store of the certificates to trust: the cluster's, or the CA that signed it. */
        Optional<String> truststore();

        @WithName("truststore-password")
        Optional<String> truststorePassword();

        /**
         * A PKCS12 store of this service's key and certificate, for a cluster that asks for one.
         */
        Optional<String> keystore();

        /** The key store's password, which is also its key's. */
        @WithName("keystore-password")
        Optional<String> keystorePassword();
    }

    /** The embedded cluster. */
    interface Embedded {

        /** REST and web UI port. */
        @WithDefault("8085")
        int port();

        /** Task slots; default from the heap (see EmbeddedSizing). */
        @WithName("task-slots")
        Optional<Integer> taskSlots();

        /** Its JVM heap; default from the machine's memory (see EmbeddedSizing). */
        Optional<String> heap();

        /** JVM options of its own, after ours (comma-separated): the tests' quick compiler. */
        @WithName("jvm-options")
        Optional<List<String>> jvmOptions();
    }

    /** Paimon settings. */
    interface Paimon {

        /** The warehouse URI (file:, s3://, hdfs://); default {@code <data-dir>/warehouse}. */
        Optional<String> warehouse();
    }

    /** The object store's endpoint and credentials (credentials from secrets, never in code). */
    interface S3 {

        /** Its endpoint, such as http://minio:9000; absent: AWS's own. */
        Optional<String> endpoint();

        /** Path-style requests (http://host/bucket/key), which most self-hosted stores need. */
        @WithName("path-style-access")
        @WithDefault("false")
        boolean pathStyleAccess();

        @WithName("access-key")
        Optional<String> accessKey();

        @WithName("secret-key")
        Optional<String> secretKey();
    }

    /** Failure handling. */
    interface Jobs {

        /** Failed refreshes or job failures in a row after which the table is suspended. */
        @WithName("max-consecutive-failures")
        @WithDefault("5")
        int maxConsecutiveFailures();

        /**
         * The tables this job manager runs, a regular expression over {@code
         * catalog.database.table} (default all): several job managers can split the tables between
         * them, by database for example. Tables outside it are left alone, jobs included.
         */
        @WithDefault(".*")
        String include();

        /**
         * Task slots streaming jobs leave free for FULL refreshes: a streaming job starts only when
         * more than this many are free (else it is queued), so refreshes always find a slot.
         */
        @WithName("refresh-slots")
        @WithDefault("1")
        int refreshSlots();

        /**
         * How long a job's sources may take to say how much they have yet to read; sources that do
         * not (a Paimon table read by a chain) are then taken as caught up once a checkpoint
         * committed nothing new, so a switch-over of a table that reads another waits this long at
         * least.
         */
        @WithName("silent-source-patience")
        @WithDefault("1m")
        Duration silentSourcePatience();
    }
}
