package io.mtables.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mtables.schemas.Contract;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.ddl.DdlCommand;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class EventReaderTest {

    private static final List<Contract<?>> COMMANDS = List.of(Contracts.DDL_COMMAND_V1);
    private final EventReader reader = new EventReader("test-service");

    @Test
    void readsARecordOfAnAcceptedType() {
        var record =
                record("t1", "{\"statement\": \"SHOW TABLES\"}", Contracts.DDL_COMMAND_V1.type());

        IncomingEvent event = reader.read(record, COMMANDS);

        assertThat(event.key()).isEqualTo("t1");
        assertThat(event.position()).isEqualTo("mt.ddl.commands-2@17");
        assertThat(event.payloadAs(Contracts.DDL_COMMAND_V1))
                .isEqualTo(new DdlCommand("SHOW TABLES", null));
    }

    @Test
    void refusesATypeItDoesNotReadAndSaysWhatItReads() {
        var record = record("t1", "{}", "io.mtables.mt.DdlCommand.v2");

        assertThatThrownBy(() -> reader.read(record, COMMANDS))
                .isInstanceOf(UnreadableRecordException.class)
                .hasMessage(
                        "test-service cannot read the record at mt.ddl.commands-2@17: type"
                                + " 'io.mtables.mt.DdlCommand.v2' is not one it reads; it reads"
                                + " io.mtables.mt.DdlCommand.v1");
    }

    @Test
    void refusesARecordWithoutType() {
        assertThatThrownBy(() -> reader.read(record("t1", "{}", null), COMMANDS))
                .hasMessageContaining("no ce_type header is not one it reads");
    }

    @Test
    void refusesARecordWithoutKey() {
        var record = record(null, "{\"statement\": \"x\"}", Contracts.DDL_COMMAND_V1.type());

        assertThatThrownBy(() -> reader.read(record, COMMANDS))
                .hasMessageContaining("the record has no key");
    }

    @Test
    void refusesAPayloadThatBreaksTheContractWithTheSchemaMessage() {
        var record = record("t1", "{\"statement\": 7}", Contracts.DDL_COMMAND_V1.type());

        assertThatThrownBy(() -> reader.read(record, COMMANDS))
                .isInstanceOf(UnreadableRecordException.class)
                .hasMessageContaining("test-service cannot read the record at mt.ddl.commands-2@17")
                .hasMessageContaining("$.statement");
    }

    private static ConsumerRecord<String, String> record(String key, String value, String type) {
        var record = new ConsumerRecord<>("mt.ddl.commands", 2, 17L, key, value);
        if (type != null) {
            record.headers().add(EventHeaders.TYPE, type.getBytes(StandardCharsets.UTF_8));
        }
        return record;
    }
}
