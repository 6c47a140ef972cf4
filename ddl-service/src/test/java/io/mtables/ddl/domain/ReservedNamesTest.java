package io.mtables.ddl.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ReservedNamesTest {

    private static final SourcePosition AT = new SourcePosition(1, 27);

    @ParameterizedTest
    @ValueSource(
            strings = {
                "default_catalog.mt_system.refresh_history",
                "default_catalog.mt_system.anything",
                "default_catalog.MT_System.refresh_history",
                "default_catalog.__mt_warm_up.orders",
                "default_catalog.shop.__mt_one_row",
                "default_catalog.shop.__MT_scratch"
            })
    void theSystemsSchemaAndItsPrefixAreRefusedSayingWhatIsReserved(String table) {
        StatementException e =
                catchThrowableOfType(
                        () -> ReservedNames.refuseChange(table, AT), StatementException.class);

        assertThat(e).as(table).isNotNull();
        var error = e.toError();
        assertThat(error.reason()).isEqualTo("ReservedName");
        assertThat(e.category()).isEqualTo(StatementException.Category.INVALID);
        assertThat(error.message())
                .contains("Table " + table + " has a reserved name")
                .contains("the schema mt_system holds the system's own tables")
                .contains("names starting with __mt_");
        assertThat(error.allowed()).contains("a schema other than mt_system");
        assertThat(error.line()).isEqualTo(1);
        assertThat(error.column()).isEqualTo(27);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "default_catalog.shop.orders",
                "default_catalog.mt_systems.t",
                "default_catalog.my_mt_system.t",
                "default_catalog.shop.orders__mt_x",
                "default_catalog.shop._mt_one"
            })
    void otherNamesAreTheUsers(String table) {
        assertThatCode(() -> ReservedNames.refuseChange(table, AT)).doesNotThrowAnyException();
    }
}
