package io.mtables.ddl.audit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StatementKindsTest {

    @Test
    void aStatementIsNamedByItsLeadingKeywordsAfterCommentsAndNeverByANameOrLiteral() {
        assertThat(
                        StatementKinds.of(
                                "-- nightly\n/* v2 */ create or alter materialized table"
                                        + " shop.daily AS SELECT 1"))
                .isEqualTo("CREATE OR ALTER MATERIALIZED TABLE");
        assertThat(StatementKinds.of("select secret_column from t")).isEqualTo("SELECT");
        assertThat(StatementKinds.of("GRANT SELECT ON TABLE shop.orders TO USER 'alice'"))
                .isEqualTo("GRANT SELECT");
        assertThat(StatementKinds.of("DROP TABLE IF EXISTS shop.orders"))
                .isEqualTo("DROP TABLE IF EXISTS");
        assertThat(StatementKinds.of("'a literal first'")).isNull();
        assertThat(StatementKinds.of("password123 = 'x'")).isNull();
        assertThat(StatementKinds.of("")).isNull();
    }
}
