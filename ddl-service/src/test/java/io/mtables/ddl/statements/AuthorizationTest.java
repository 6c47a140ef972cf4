package io.mtables.ddl.statements;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.mtables.ddl.access.AccessControl;
import io.mtables.ddl.access.Privilege;
import io.mtables.ddl.domain.Catalog;
import io.mtables.ddl.domain.StatementException;
import io.mtables.schemas.access.AccessChanged;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinitionBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** One caller's checks, without Kafka or Flink: owners kept, reads checked when they change. */
class AuthorizationTest {

    private static final Instant CREATED = Instant.parse("2026-12-01T00:00:00Z");
    private static final String ORDERS = "default_catalog.shop.orders";
    private static final String TOTALS = "default_catalog.shop.totals";

    private Catalog catalog;
    private AccessControl access;

    @BeforeEach
    void sourceAndTable() {
        catalog = new Catalog();
        access = new AccessControl(Set.of("service-account:admin"));
        catalog.apply(source(ORDERS).withOwner("user:olga"));
    }

    @Test
    void aTableWithoutAnOwnerKeepsNoneWhoeverAltersIt() {
        catalog.apply(totals("SELECT 1", null)); // created before owners were recorded
        grant("user:eve", "ALTER", "TABLE", TOTALS, CREATED);

        Outcome altered =
                new Authorization(access, catalog, "user:eve")
                        .checkAndOwn(defined(totals("SELECT 1", null).withOwner("user:eve")));

        assertThat(((Outcome.Defined) altered).definition().owner()).isNull();
        assertThat(access.allows("user:eve", Privilege.DROP, catalog.find(TOTALS).orElseThrow()))
                .isFalse();
    }

    @Test
    void aNewTableIsItsCreatorsAndAnAlteredOneKeepsItsOwner() {
        grant("user:ann", "CREATE", "SCHEMA", "default_catalog.shop", null);
        grant("user:ann", "SELECT", "TABLE", ORDERS, CREATED);
        grant("user:bob", "ALTER", "TABLE", TOTALS, CREATED);

        Outcome created =
                new Authorization(access, catalog, "user:ann")
                        .checkAndOwn(defined(totals("SELECT id FROM shop.orders", null)));
        catalog.apply(((Outcome.Defined) created).definition());
        Outcome suspended =
                new Authorization(access, catalog, "user:bob")
                        .checkAndOwn(defined(totals("SELECT id FROM shop.orders", null)));

        assertThat(((Outcome.Defined) created).definition().owner()).isEqualTo("user:ann");
        assertThat(((Outcome.Defined) suspended).definition().owner()).isEqualTo("user:ann");
    }

    @Test
    void readsAreCheckedWhenTheQueryChangesNotWhenItIsKept() {
        catalog.apply(totals("SELECT id FROM shop.orders", "user:ann"));
        // ann may no longer read orders; her table's query stays as it is.
        Authorization admin = new Authorization(access, catalog, "service-account:admin");

        assertThatCode(() -> admin.checkAndOwn(defined(totals("SELECT id FROM shop.orders", null))))
                .as("a SUSPEND, RESUME or SET that keeps the query")
                .doesNotThrowAnyException();
        StatementException changed =
                catchThrowableOfType(
                        () ->
                                admin.checkAndOwn(
                                        defined(totals("SELECT id, ds FROM shop.orders", null))),
                        StatementException.class);
        assertThat(changed.reason()).isEqualTo("PermissionDenied");
        assertThat(changed.getMessage()).contains("owner user:ann may not read " + ORDERS);
    }

    @Test
    void theNameAChangeTouchesIsCheckedFirst() {
        catalog.apply(totals("SELECT id FROM shop.orders", "user:ann"));
        Authorization eve = new Authorization(access, catalog, "user:eve");

        for (Privilege privilege : List.of(Privilege.ALTER, Privilege.DROP)) {
            StatementException e =
                    catchThrowableOfType(
                            () -> eve.precheck(TOTALS, privilege, false), StatementException.class);
            assertThat(e.reason()).as(privilege.name()).isEqualTo("PermissionDenied");
        }
        StatementException create =
                catchThrowableOfType(
                        () -> eve.precheck("default_catalog.shop.new_one", Privilege.ALTER, true),
                        StatementException.class);
        assertThat(create.getMessage()).contains("may not CREATE tables in schema");
        assertThatCode(() -> eve.precheck("default_catalog.shop.gone", Privilege.DROP, false))
                .as("a missing table: its own refusal says so")
                .doesNotThrowAnyException();
    }

    @Test
    void aSourceOverKafkaNeedsSelectOnEachOfItsTopicsOrOnAPrefixOfThem() {
        grant("user:ann", "CREATE", "SCHEMA", "default_catalog.shop", null);
        Authorization ann = new Authorization(access, catalog, "user:ann");
        TableDefinition overOrders = kafkaSource("default_catalog.shop.o", "cdc.shop.orders");

        StatementException refused =
                catchThrowableOfType(
                        () -> ann.checkAndOwn(defined(overOrders)), StatementException.class);
        assertThat(refused.reason()).isEqualTo("PermissionDenied");
        assertThat(refused.getMessage())
                .contains("user:ann may not read topic 'cdc.shop.orders' in a source table");
        assertThatCode(() -> ann.checkAndOwn(defined(source("default_catalog.shop.gen"))))
                .as("a source over no topic (datagen)")
                .doesNotThrowAnyException();
        assertThatCode(
                        () ->
                                new Authorization(access, catalog, "service-account:admin")
                                        .checkAndOwn(defined(overOrders)))
                .as("an admin")
                .doesNotThrowAnyException();

        access.apply(
                new AccessChanged(
                        AccessChanged.Action.GRANT_ROLE,
                        "readers",
                        List.of(),
                        null,
                        null,
                        null,
                        "user:ann",
                        "service-account:admin",
                        CREATED,
                        "r"));
        grant("role:readers", "SELECT", "TOPIC", "cdc.shop.*", null);

        assertThatCode(() -> ann.checkAndOwn(defined(overOrders))).doesNotThrowAnyException();
        StatementException second =
                catchThrowableOfType(
                        () ->
                                ann.checkAndOwn(
                                        defined(
                                                kafkaSource(
                                                        "default_catalog.shop.both",
                                                        "cdc.shop.orders;cdc.billing.invoices"))),
                        StatementException.class);
        assertThat(second.getMessage()).contains("topic 'cdc.billing.invoices'");
        assertThat(access.allowsTopic("user:ann", "cdc.shopping.carts"))
                .as("a prefix is of names, not of words: 'cdc.shop.*' is not 'cdc.shopping'")
                .isFalse();
    }

    private static TableDefinition kafkaSource(String name, String topics) {
        return source(
                name, Map.of("connector", "kafka", "topic", topics, "format", "debezium-json"));
    }

    private void grant(String grantee, String privilege, String type, String object, Instant at) {
        access.apply(
                new AccessChanged(
                        AccessChanged.Action.GRANT,
                        null,
                        List.of(privilege),
                        type,
                        object,
                        at,
                        grantee,
                        "service-account:admin",
                        CREATED,
                        "r"));
    }

    private static Outcome defined(TableDefinition definition) {
        return new Outcome.Defined(definition, "done", () -> {});
    }

    private static TableDefinition source(String name) {
        return source(name, Map.of());
    }

    private static TableDefinition source(String name, Map<String, String> options) {
        return TableDefinitionBuilder.builder()
                .table(name)
                .version(1)
                .kind(TableDefinition.Kind.SOURCE_TABLE)
                .statement(
                        "CREATE TABLE "
                                + name
                                + " (id INT, ds STRING) WITH ('connector' = 'datagen')")
                .columns(List.of())
                .primaryKey(List.of())
                .partitionKeys(List.of())
                .distribution(null)
                .options(options)
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
                .build();
    }

    private static TableDefinition totals(String query, String owner) {
        return TableDefinitionBuilder.builder()
                .table(TOTALS)
                .version(1)
                .kind(TableDefinition.Kind.MATERIALIZED_TABLE)
                .statement("CREATE MATERIALIZED TABLE shop.totals AS " + query)
                .columns(List.of())
                .primaryKey(List.of())
                .partitionKeys(List.of())
                .distribution(null)
                .options(Map.of())
                .comment(null)
                .freshness(null)
                .refreshMode(TableDefinition.RefreshMode.AUTO)
                .query(new TableDefinition.Query(query, query))
                .sources(
                        List.of(
                                new TableDefinition.SourceTable(
                                        ORDERS,
                                        TableDefinition.Kind.SOURCE_TABLE,
                                        1,
                                        "CREATE TABLE o (id INT) WITH ('connector' = 'datagen')",
                                        List.of(),
                                        List.of())))
                .status(TableDefinition.Status.ACTIVE)
                .resumeOptions(null)
                .createdAt(CREATED)
                .updatedAt(CREATED)
                .requestId("r1")
                .build()
                .withOwner(owner);
    }
}
