package io.mtables.ddl.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

class InMemorySqlDecimalTest {

    @Test
    void aWideDecimalKeepsEveryDigitBesideComputedColumns() {
        var table =
                new InMemorySql.Table(
                        List.of("t"),
                        List.of(
                                new InMemorySql.Column("charge", SqlTypeName.DECIMAL, false),
                                new InMemorySql.Column("mean", SqlTypeName.DECIMAL, false)),
                        List.<Object[]>of(
                                new Object[] {
                                    new BigDecimal("10492252435.244645"),
                                    new BigDecimal("25.543741")
                                }));

        var plain = InMemorySql.query("SELECT charge FROM t", List.of(table), "x", "y");
        var computed =
                InMemorySql.query("SELECT charge, ROUND(mean, 2) FROM t", List.of(table), "x", "y");

        assertThat(plain.rows().get(0).get(0).toString()).isEqualTo("10492252435.244645");
        assertThat(computed.rows().get(0).get(0).toString()).isEqualTo("10492252435.244645");
    }
}
