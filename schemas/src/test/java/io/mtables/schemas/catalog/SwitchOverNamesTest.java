package io.mtables.schemas.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SwitchOverNamesTest {

    @Test
    void stagedAndRetiredTablesAreInTheTablesDatabaseAndReserved() {
        assertThat(SwitchOverNames.staged("default_catalog.shop.orders", 7))
                .isEqualTo("default_catalog.shop.orders__mt_v7");
        assertThat(SwitchOverNames.retired("default_catalog.shop.orders"))
                .isEqualTo("default_catalog.shop.orders__mt_retired");
        assertThat(SwitchOverNames.reserved("orders__mt_v7")).isTrue();
        assertThat(SwitchOverNames.reserved("orders__mt_retired")).isTrue();
        assertThat(SwitchOverNames.reserved("orders__mt_version")).isFalse();
        assertThat(SwitchOverNames.reserved("orders")).isFalse();
    }
}
