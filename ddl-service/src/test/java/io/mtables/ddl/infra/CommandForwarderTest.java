package io.mtables.ddl.infra;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.schemas.ddl.SealedRows;
import io.mtables.schemas.ddl.StatementResult;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class CommandForwarderTest {

    private static final List<List<Object>> ROWS = List.of(List.of("shop.orders", "SOURCE_TABLE"));

    @Test
    void sealedRowsOpenWithTheCallersCredentialAndAreRefusedToAnother() {
        StatementResult sealed =
                StatementResult.rows(
                                "r1",
                                List.of(new StatementResult.ResultColumn("name", "STRING")),
                                ROWS,
                                Instant.EPOCH)
                        .by("service-account:etl");
        sealed = sealed.sealed(SealedRows.seal(ROWS, "r1", SealedRows.keyFor("Bearer a", "r1")));

        assertThat(CommandForwarder.opened(sealed, "Bearer a").rows()).isEqualTo(ROWS);
        StatementResult refused = CommandForwarder.opened(sealed, "Bearer b");
        assertThat(refused.status()).isEqualTo(StatementResult.Status.FAILED);
        assertThat(refused.error().reason()).isEqualTo(CommandForwarder.ROWS_SEALED_FOR_ANOTHER);
        assertThat(refused.rows()).isNull();
        assertThat(refused.principal()).isEqualTo("service-account:etl");
    }
}
