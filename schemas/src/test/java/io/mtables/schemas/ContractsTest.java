package io.mtables.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mtables.schemas.ddl.DdlCommand;
import io.mtables.schemas.ddl.StatementError;
import io.mtables.schemas.ddl.StatementResult;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ContractsTest {

    private final ContractCodec codec = new ContractCodec();

    @Test
    void everyContractHasASchemaAndAValidExample() {
        for (Contract<?> contract : Contracts.ALL) {
            assertThat(Contract.class.getResource(contract.schemaResource()))
                    .as("schema of %s", contract.type())
                    .isNotNull();
            assertThat(
                            getClass()
                                    .getResource(
                                            "/examples/v"
                                                    + contract.version()
                                                    + "/"
                                                    + contract.name()
                                                    + "/"))
                    .as("examples of %s", contract.type())
                    .isNotNull();
        }
    }

    @Test
    void typesFollowTheNamingRule() {
        assertThat(Contracts.STATEMENT_RESULT_V1.type())
                .isEqualTo("io.mtables.mt.StatementResult.v1");
        assertThat(Contracts.byType("io.mtables.mt.DdlCommand.v1"))
                .contains(Contracts.DDL_COMMAND_V1);
        assertThat(Contracts.byType("io.mtables.mt.DdlCommand.v9")).isEmpty();
    }

    @Test
    void notJsonIsRefusedWithTheParserMessage() {
        assertThatThrownBy(() -> codec.decode(Contracts.DDL_COMMAND_V1, "SHOW TABLES"))
                .isInstanceOf(ContractViolationException.class)
                .hasMessageContaining("io.mtables.mt.DdlCommand.v1: the payload is not JSON");
    }

    @Test
    void missingFieldIsNamed() {
        assertThatThrownBy(() -> codec.decode(Contracts.DDL_COMMAND_V1, "{\"requestId\":\"a\"}"))
                .hasMessageContaining("statement");
    }

    @Test
    void unknownFieldsAreIgnoredSoOptionalFieldsCanBeAdded() {
        DdlCommand command =
                codec.decode(
                        Contracts.DDL_COMMAND_V1,
                        "{\"statement\":\"SHOW TABLES\",\"dryRun\":true}");

        assertThat(command).isEqualTo(new DdlCommand("SHOW TABLES", null));
    }

    @Test
    void aRecordThatBreaksItsContractIsNotWritten() {
        StatementResult broken =
                new StatementResult(
                        "r",
                        StatementResult.Status.FAILED,
                        "no error given",
                        null,
                        null,
                        null,
                        null,
                        null,
                        Instant.EPOCH,
                        null);

        assertThatThrownBy(() -> codec.encode(Contracts.STATEMENT_RESULT_V1, broken))
                .isInstanceOf(ContractViolationException.class);
    }

    @Test
    void failedResultCarriesItsError() {
        StatementError error =
                StatementError.of("MalformedCommand", "not JSON", "{\"statement\":\"...\"}");

        String json =
                codec.encode(
                        Contracts.STATEMENT_RESULT_V1,
                        StatementResult.failed("r", error, Instant.EPOCH));

        assertThat(codec.decode(Contracts.STATEMENT_RESULT_V1, json).error()).isEqualTo(error);
    }
}
