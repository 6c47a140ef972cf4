package io.mtables.oracle;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Random;

/**
 * Seed 003: users (id, firstname, lastname) and domains (id, user_id, domain_name), one user to
 * many domains, and a CONTINUOUS materialized table of their inner join. The domain's id is
 * selected: it identifies a result row, so updates and deletes apply by key.
 */
final class UsersDomains implements Example {

    private static final String[] FIRST = {
        "Egor", "Pavel", "Mitya", "Anna", "Olga", "Ivan", "Marie", "Jean", "Lea", "Hugo"
    };
    private static final String[] LAST = {
        "Myasnik", "Hvastun", "Volk", "Petrova", "Martin", "Bernard", "Dubois", "Moreau", "D'Arcy"
    };
    private static final String[] DOMAIN = {
        "Approval",
        "Rejection",
        "Stoppage",
        "Cancellation",
        "Billing",
        "Shipping",
        "Returns",
        "Audit"
    };

    @Override
    public String name() {
        return "users-domains";
    }

    @Override
    public List<String> postgresTables(String schema) {
        return List.of(
                "CREATE SCHEMA IF NOT EXISTS " + schema,
                "CREATE TABLE IF NOT EXISTS "
                        + schema
                        + ".users (id BIGINT PRIMARY KEY, firstname TEXT NOT NULL, lastname TEXT"
                        + " NOT NULL)",
                "CREATE TABLE IF NOT EXISTS "
                        + schema
                        + ".domains (id BIGINT PRIMARY KEY, user_id BIGINT NOT NULL, domain_name"
                        + " TEXT NOT NULL)");
    }

    @Override
    public List<String> sampleRows(String schema) {
        return List.of(
                "INSERT INTO "
                        + schema
                        + ".users VALUES (1, 'Egor', 'Myasnik'), (2, 'Pavel', 'Hvastun'), (3,"
                        + " 'Mitya', 'Volk') ON CONFLICT DO NOTHING",
                "INSERT INTO "
                        + schema
                        + ".domains VALUES (1, 1, 'Approval'), (2, 1, 'Rejection'), (3, 1,"
                        + " 'Stoppage'), (4, 3, 'Cancellation') ON CONFLICT DO NOTHING");
    }

    @Override
    public List<String> sourceTables(String schema, String topicPrefix, String bootstrapServers) {
        return List.of(
                source(
                        schema,
                        "users",
                        "id BIGINT NOT NULL, firstname STRING, lastname STRING",
                        topicPrefix,
                        bootstrapServers),
                source(
                        schema,
                        "domains",
                        "id BIGINT NOT NULL, user_id BIGINT, domain_name STRING",
                        topicPrefix,
                        bootstrapServers));
    }

    static String source(
            String schema,
            String table,
            String columns,
            String topicPrefix,
            String bootstrapServers) {
        return "CREATE TABLE IF NOT EXISTS "
                + schema
                + "."
                + table
                + " ("
                + columns
                + ", PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'kafka',"
                + " 'topic' = '"
                + topicPrefix
                + "."
                + schema
                + "."
                + table
                + "', 'format' = 'debezium-json', 'properties.bootstrap.servers' = '"
                + bootstrapServers
                + "', 'properties.isolation.level' ="
                + " 'read_committed', 'scan.startup.mode' = 'earliest-offset')";
    }

    @Override
    public List<String> materializedTables(String schema) {
        return List.of(
                "CREATE OR ALTER MATERIALIZED TABLE "
                        + schema
                        + ".user_domains FRESHNESS = INTERVAL '2' SECOND AS SELECT d.id AS"
                        + " domain_id, u.id AS user_id, u.firstname, u.lastname, d.domain_name FROM"
                        + " "
                        + schema
                        + ".users AS u JOIN "
                        + schema
                        + ".domains AS d ON d.user_id = u.id");
    }

    @Override
    public List<Check> checks(String schema) {
        return List.of(
                new Check(
                        schema + ".user_domains",
                        "SELECT domain_id, user_id, firstname, lastname, domain_name FROM "
                                + schema
                                + ".user_domains",
                        "SELECT d.id, u.id, u.firstname, u.lastname, d.domain_name FROM "
                                + schema
                                + ".users u JOIN "
                                + schema
                                + ".domains d ON d.user_id = u.id",
                        false));
    }

    @Override
    public Workload workload(String schema, Random random, Connection postgres)
            throws SQLException {
        return new Changes(
                schema,
                random,
                SeededChanges.ids(postgres, schema + ".users"),
                SeededChanges.ids(postgres, schema + ".domains"));
    }

    /** Inserts, renames, moves and deletes of users and domains; one in twenty steps is a burst. */
    private static final class Changes extends SeededChanges {
        private final String schema;
        private final List<Long> users;
        private final List<Long> domains;
        private long nextUser;
        private long nextDomain;

        Changes(String schema, Random random, List<Long> users, List<Long> domains) {
            super(random);
            this.schema = schema;
            this.users = users;
            this.domains = domains;
            this.nextUser = nextId(users);
            this.nextDomain = nextId(domains);
        }

        @Override
        protected void change(Connection postgres) throws SQLException {
            int dice = random.nextInt(100);
            if (dice < 8 || users.isEmpty()) {
                long id = nextUser++;
                update(
                        postgres,
                        "INSERT INTO " + schema + ".users VALUES (?, ?, ?)",
                        id,
                        pick(FIRST),
                        pick(LAST));
                users.add(id);
            } else if (dice < 53 || domains.isEmpty()) {
                long id = nextDomain++;
                // One in ten domains belongs to no user (yet): the inner join leaves it out.
                long owner =
                        random.nextInt(10) == 0
                                ? nextUser + random.nextInt(5)
                                : users.get(random.nextInt(users.size()));
                update(
                        postgres,
                        "INSERT INTO " + schema + ".domains VALUES (?, ?, ?)",
                        id,
                        owner,
                        pick(DOMAIN) + " " + id);
                domains.add(id);
            } else if (dice < 65) {
                update(
                        postgres,
                        "UPDATE " + schema + ".users SET firstname = ?, lastname = ? WHERE id = ?",
                        pick(FIRST),
                        pick(LAST),
                        users.get(random.nextInt(users.size())));
            } else if (dice < 77) {
                update(
                        postgres,
                        "UPDATE " + schema + ".domains SET user_id = ? WHERE id = ?",
                        users.get(random.nextInt(users.size())),
                        domains.get(random.nextInt(domains.size())));
            } else if (dice < 85) {
                long id = domains.get(random.nextInt(domains.size()));
                update(
                        postgres,
                        "UPDATE " + schema + ".domains SET domain_name = ? WHERE id = ?",
                        pick(DOMAIN) + " " + id,
                        id);
            } else if (dice < 90) {
                update(
                        postgres,
                        "DELETE FROM " + schema + ".users WHERE id = ?",
                        users.remove(random.nextInt(users.size())));
            } else {
                update(
                        postgres,
                        "DELETE FROM " + schema + ".domains WHERE id = ?",
                        domains.remove(random.nextInt(domains.size())));
            }
        }

        private String pick(String[] values) {
            return values[random.nextInt(values.length)];
        }
    }
}
