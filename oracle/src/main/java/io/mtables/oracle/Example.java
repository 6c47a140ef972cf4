package io.mtables.oracle;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * One of the examples the system must run end to end: its PostgreSQL tables and sample rows, the
 * source tables and materialized tables declared through ddl-service, the checks against
 * PostgreSQL, and a workload. The Flink database of the example is the PostgreSQL schema's name.
 */
public interface Example {

    /** The name on the command line, such as {@code users-domains}. */
    String name();

    /** CREATE TABLE IF NOT EXISTS statements for PostgreSQL, in {@code schema}. */
    List<String> postgresTables(String schema);

    /** The sample rows, inserted when missing. */
    List<String> sampleRows(String schema);

    /** Our CREATE TABLE statements for the change topics {@code <topicPrefix>.<schema>.<table>}. */
    List<String> sourceTables(String schema, String topicPrefix, String bootstrapServers);

    /** Our CREATE OR ALTER MATERIALIZED TABLE statements, in dependency order. */
    List<String> materializedTables(String schema);

    List<Check> checks(String schema);

    /** A workload that starts from the rows the tables hold now. */
    Workload workload(String schema, Random random, Connection postgres) throws SQLException;

    /** The examples known by name. */
    static Example named(String name) {
        for (Example example : all()) {
            if (example.name().equals(name)) {
                return example;
            }
        }
        throw new IllegalArgumentException(
                "no example '" + name + "'; known: " + all().stream().map(Example::name).toList());
    }

    static List<Example> all() {
        List<Example> all =
                new ArrayList<>(
                        List.of(
                                new UsersDomains(),
                                new OrdersDashboard(),
                                new ClicksPerMinute(),
                                new Shapes(),
                                new Tpch()));
        all.addAll(Shapes.eachShape());
        all.addAll(Tpch.eachQuery());
        return List.copyOf(all);
    }
}
