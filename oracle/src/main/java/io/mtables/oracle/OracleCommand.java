package io.mtables.oracle;

import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/oracle}: the examples against a running system (bin/run), compared with PostgreSQL.
 */
@Command(
        name = "oracle",
        mixinStandardHelpOptions = true,
        description =
                "Drives an example's seeded workload into PostgreSQL and compares its materialized"
                        + " tables with PostgreSQL's answer.",
        subcommands = {
            OracleCommand.Prepare.class,
            OracleCommand.Declare.class,
            OracleCommand.Run.class,
            OracleCommand.Compare.class
        })
public final class OracleCommand {

    public static void main(String[] args) {
        System.exit(
                new CommandLine(new OracleCommand())
                        .registerConverter(Duration.class, OracleCommand::duration)
                        .execute(args));
    }

    /** 90s, 2m, 1h, or ISO-8601 (PT2M). */
    static Duration duration(String text) {
        String t = text.strip().toLowerCase();
        if (t.startsWith("pt")) {
            return Duration.parse(t.toUpperCase());
        }
        long amount = Long.parseLong(t.replaceAll("[a-z]+$", ""));
        return switch (t.replaceAll("^[0-9]+", "")) {
            case "ms" -> Duration.ofMillis(amount);
            case "s", "" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default ->
                    throw new IllegalArgumentException(
                            "'" + text + "' is not a duration; use 90s, 2m, 1h or PT2M");
        };
    }

    /** Options every subcommand takes. */
    static class Common {
        @Option(
                names = "--example",
                defaultValue = "users-domains",
                description =
                        "users-domains (seed 003), orders-dashboard (seed 000) or clicks-per-minute"
                                + " (TUMBLE). Default: ${DEFAULT-VALUE}")
        String example;

        @Option(
                names = "--schema",
                defaultValue = "demo",
                description = "PostgreSQL schema and Flink database. Default: ${DEFAULT-VALUE}")
        String schema;

        @Option(
                names = "--ddl-url",
                defaultValue = "http://127.0.0.1:8081",
                description = "ddl-service. Default: ${DEFAULT-VALUE}")
        String ddlUrl;

        @Option(
                names = "--token",
                defaultValue = "${env:MT_TOKEN}",
                description =
                        "The bearer token to call ddl-service with (an API key or a JWT)."
                                + " Default: $MT_TOKEN")
        String token;

        @Option(
                names = "--topic-prefix",
                defaultValue = "cdc",
                description = "cdc-capture-service's topic prefix. Default: ${DEFAULT-VALUE}")
        String topicPrefix;

        @Option(
                names = "--bootstrap-servers",
                defaultValue = "${env:KAFKA_BOOTSTRAP_SERVERS:-127.0.0.1:9092}",
                description = "Kafka, as Flink reaches it. Default: ${DEFAULT-VALUE}")
        String bootstrapServers;

        @Option(names = "--seed", defaultValue = "1")
        long seed;

        @Option(
                names = "--duration",
                defaultValue = "2m",
                description = "How long the workload runs. Default: ${DEFAULT-VALUE}")
        Duration duration;

        @Option(
                names = "--rate",
                defaultValue = "50",
                description = "Changes per second, bursts included. Default: ${DEFAULT-VALUE}")
        int rate;

        @Option(
                names = "--quiet-timeout",
                defaultValue = "3m",
                description =
                        "How long the tables may take to agree after the workload. Default:"
                                + " ${DEFAULT-VALUE}")
        Duration quietTimeout;

        Harness harness() {
            return new Harness(
                    new Harness.Settings(
                            Example.named(example),
                            schema,
                            topicPrefix,
                            bootstrapServers,
                            seed,
                            duration,
                            rate,
                            quietTimeout),
                    Postgres.local(),
                    new Statements(ddlUrl, token),
                    System.out);
        }
    }

    @Command(
            name = "prepare",
            description =
                    "Creates the example's PostgreSQL tables and sample rows (before"
                            + " cdc-capture-service starts).")
    static class Prepare extends Common implements Callable<Integer> {
        @Override
        public Integer call() throws Exception {
            harness().preparePostgres();
            return 0;
        }
    }

    @Command(
            name = "declare",
            description =
                    "Declares the example's source and materialized tables through ddl-service.")
    static class Declare extends Common implements Callable<Integer> {
        @Override
        public Integer call() {
            harness().declareTables();
            return 0;
        }
    }

    @Command(
            name = "run",
            description = "Runs the workload, then compares; exit code 1 when any row differs.")
    static class Run extends Common implements Callable<Integer> {
        @Override
        public Integer call() throws Exception {
            return harness().run(() -> {}).agrees() ? 0 : 1;
        }
    }

    @Command(
            name = "compare",
            description =
                    "Compares now (waiting up to --quiet-timeout); exit code 1 when any row"
                            + " differs.")
    static class Compare extends Common implements Callable<Integer> {
        @Override
        public Integer call() throws Exception {
            return harness().awaitAgreement(0).agrees() ? 0 : 1;
        }
    }
}
