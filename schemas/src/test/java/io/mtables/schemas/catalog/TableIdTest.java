package io.mtables.schemas.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TableIdTest {

    @Test
    void aQualifiedIdentifierSplitsInThreeAndTheNameKeepsItsDots() {
        TableId id = TableId.of("default_catalog.shop.orders.2026");

        assertThat(id).isEqualTo(new TableId("default_catalog", "shop", "orders.2026"));
        assertThat(id.qualified()).isEqualTo("default_catalog.shop.orders.2026");
    }

    @Test
    void quotingDoublesBackticks() {
        TableId id = new TableId("default_catalog", "sh`op", "a b");

        assertThat(id.quoted()).isEqualTo("`default_catalog`.`sh``op`.`a b`");
        assertThat(id.quotedDatabase()).isEqualTo("`default_catalog`.`sh``op`");
    }

    @Test
    void aShortIdentifierIsRefusedSayingWhatIsExpected() {
        assertThatThrownBy(() -> TableId.of("shop.orders"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("catalog.database.name");
    }
}
