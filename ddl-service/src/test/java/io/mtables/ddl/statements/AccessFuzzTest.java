package io.mtables.ddl.statements;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.ddl.access.AccessControl;
import io.mtables.ddl.access.Privilege;
import io.mtables.ddl.domain.Catalog;
import io.mtables.ddl.domain.StatementException;
import io.mtables.ddl.infra.FlinkSql;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinitionBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * 100,000 mutated statements about roles and grants (quotes, backticks, newlines, comments, names
 * of others' tables), seeded and repeatable, sent by a user who owns one table: each is refused
 * with a statement error or accepted, never anything else, and whatever she sends she gains no
 * privilege on anything but her own table, and no one gains one on another's table. Run without
 * Kafka: what an accepted change does is the access control's, which every change goes through.
 */
class AccessFuzzTest {

    private static final int STATEMENTS = Integer.getInteger("fuzz.access", 100_000);
    private static final long SEED = Long.getLong("fuzz.seed", 20261206L);
    private static final String MALLORY = "user:mallory";
    private static final Instant CREATED = Instant.parse("2026-12-01T00:00:00Z");

    private static final List<String> SEEDS =
            List.of(
                    "GRANT SELECT ON TABLE shop.mine TO USER 'eve'",
                    "GRANT ALL PRIVILEGES ON shop.mine TO ROLE analysts",
                    "REVOKE SELECT, ALTER ON shop.mine FROM SERVICE ACCOUNT etl",
                    "GRANT SELECT ON SCHEMA shop TO USER 'mallory'",
                    "GRANT CREATE ON SCHEMA `shop` TO USER 'mallory'",
                    "GRANT DROP ON TABLE shop.theirs TO USER 'mallory'",
                    "GRANT ROLE admins TO USER 'mallory'",
                    "CREATE ROLE admins",
                    "DROP ROLE IF EXISTS analysts",
                    "REVOKE ROLE analysts FROM USER 'bob'",
                    "SHOW GRANTS ON TABLE shop.theirs",
                    "SHOW GRANTS TO USER 'mallory'",
                    "SHOW ROLES",
                    "GRANT SELECT ON default_catalog.shop.theirs TO USER 'o''brien'",
                    "GRANT SELECT ON TOPIC 'cdc.shop.*' TO USER 'mallory'",
                    "SHOW GRANTS ON TOPIC 'cdc.shop.orders'");

    private static final List<String> PIECES =
            List.of(
                    "'",
                    "''",
                    "`",
                    "``",
                    "\n",
                    "--x\n",
                    "/*",
                    "*/",
                    ",",
                    ".",
                    ";",
                    " ROLE ",
                    " USER ",
                    "shop.theirs",
                    "shop.mine",
                    "`shop`.`theirs`",
                    " ALL ",
                    " TO ",
                    " FROM ",
                    " ON ",
                    " SCHEMA ",
                    " TABLE ",
                    " TOPIC ",
                    "'cdc.*'",
                    "mallory",
                    "'user:mallory'",
                    "SERVICE ACCOUNT admin",
                    "\u00e9",
                    "\"",
                    "\\");

    @Test
    void noMutationGivesAnyoneAPrivilegeOnAnotherOnesTableOrATopic() {
        Catalog catalog = new Catalog();
        catalog.apply(table("default_catalog.shop.mine", MALLORY));
        catalog.apply(table("default_catalog.shop.theirs", "user:bob"));
        AccessControl access = new AccessControl(Set.of("service-account:admin"));
        AccessStatements statements =
                new AccessStatements(access, catalog, new FlinkSql(Duration.ofMinutes(30)));
        Random random = new Random(SEED);
        int accepted = 0;
        int refused = 0;

        for (int i = 0; i < STATEMENTS; i++) {
            String statement = mutate(SEEDS.get(random.nextInt(SEEDS.size())), random);
            Outcome outcome;
            try {
                outcome = statements.execute(statement, MALLORY, "r" + i, CREATED);
            } catch (StatementException e) {
                refused++;
                assertThat(e.toError().reason()).as(statement).isNotBlank();
                continue;
            }
            accepted++;
            if (outcome instanceof Outcome.AccessChange change) {
                assertThat(change.change().object())
                        .as("what mallory changed with %s", statement)
                        .isEqualTo("default_catalog.shop.mine");
                access.apply(change.change());
            }
        }

        TableDefinition theirs = catalog.find("default_catalog.shop.theirs").orElseThrow();
        for (Privilege privilege : Privilege.values()) {
            for (String anyone : List.of(MALLORY, "user:eve", "role:analysts", "user:o'brien")) {
                assertThat(access.allows(anyone, privilege, theirs))
                        .as("%s %s on theirs", anyone, privilege)
                        .isFalse();
            }
            assertThat(access.allowsOnSchema(MALLORY, privilege, "default_catalog.shop"))
                    .as("mallory %s on the schema", privilege)
                    .isFalse();
        }
        for (String anyone : List.of(MALLORY, "user:eve", "role:analysts", "user:o'brien")) {
            assertThat(access.allowsTopic(anyone, "cdc.shop.orders"))
                    .as("%s may read a topic", anyone)
                    .isFalse();
        }
        assertThat(access.roles()).isEmpty();
        assertThat(accepted).as("some statements are accepted").isGreaterThan(1_000);
        assertThat(refused).as("some are refused").isGreaterThan(1_000);
    }

    /** Up to three edits: a piece inserted, a span deleted, or two spans swapped. */
    private static String mutate(String seed, Random random) {
        StringBuilder text = new StringBuilder(seed);
        int edits = random.nextInt(4);
        for (int e = 0; e < edits; e++) {
            int at = random.nextInt(text.length() + 1);
            switch (random.nextInt(3)) {
                case 0 -> text.insert(at, PIECES.get(random.nextInt(PIECES.size())));
                case 1 -> text.delete(at, Math.min(text.length(), at + 1 + random.nextInt(6)));
                default -> {
                    int to = Math.min(text.length(), at + random.nextInt(8));
                    String span = text.substring(at, to);
                    text.delete(at, to);
                    text.insert(random.nextInt(text.length() + 1), span);
                }
            }
        }
        return text.toString();
    }

    private static TableDefinition table(String name, String owner) {
        return TableDefinitionBuilder.builder()
                .table(name)
                .version(1)
                .kind(TableDefinition.Kind.SOURCE_TABLE)
                .statement("CREATE TABLE " + name + " (a INT) WITH ('connector' = 'datagen')")
                .columns(List.of(new TableDefinition.Column("a", "INT", true)))
                .primaryKey(List.of())
                .partitionKeys(List.of())
                .distribution(null)
                .options(Map.of("connector", "datagen"))
                .comment(null)
                .freshness(null)
                .refreshMode(null)
                .query(null)
                .sources(List.of())
                .status(TableDefinition.Status.ACTIVE)
                .resumeOptions(null)
                .createdAt(CREATED)
                .updatedAt(CREATED)
                .requestId("r0")
                .build()
                .withOwner(owner);
    }
}
