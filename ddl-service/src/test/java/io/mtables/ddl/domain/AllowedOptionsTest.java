package io.mtables.ddl.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.mtables.schemas.ddl.StatementError;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AllowedOptionsTest {

    private static final SourcePosition AT = new SourcePosition(1, 50);

    @ParameterizedTest
    @ValueSource(
            strings = {
                "pipeline.jars",
                "pipeline.classpaths",
                "execution.savepoint.path",
                "execution.state-recovery.path",
                "state.checkpoints.dir",
                "execution.checkpointing.dir",
                "execution.checkpointing.interval",
                "parallelism.default",
                "sink.parallelism",
                "table.exec.mini-batch.enabled",
                "table.exec.sink.upsert-materialize",
                "TABLE.EXEC.STATE.TTL"
            })
    void resumeRefusesEveryOptionButStateTtlNamingItAndWhatIsAllowed(String key) {
        StatementError error = refusal(AllowedOptions.RESUME, key, "x");

        assertThat(error.reason()).isEqualTo("OptionNotAllowed");
        assertThat(error.message())
                .contains("Option '" + key + "' is not allowed in RESUME WITH (...)")
                .contains("Nothing was changed.");
        assertThat(error.allowed()).startsWith("'table.exec.state.ttl' (a duration");
        assertThat(error.line()).isEqualTo(1);
        assertThat(error.column()).isEqualTo(50);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1 d", "12 h", "30min", "500 ms", "0"})
    void resumeTakesAStateTtlThatIsADuration(String ttl) {
        assertThatCode(() -> AllowedOptions.RESUME.check("table.exec.state.ttl", ttl, AT))
                .doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(strings = {"soon", "-1 h", "1 fortnight", ""})
    void resumeRefusesAStateTtlThatIsNoDuration(String ttl) {
        StatementError error = refusal(AllowedOptions.RESUME, "table.exec.state.ttl", ttl);

        assertThat(error.reason()).isEqualTo("InvalidOptionValue");
        assertThat(error.message())
                .contains("'table.exec.state.ttl' = '" + ttl + "' in RESUME WITH (...)")
                .contains("a duration");
        assertThat(error.allowed()).startsWith("'table.exec.state.ttl': a duration");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "write-only",
                "bucket",
                "bucket-key",
                "changelog-producer",
                "merge-engine",
                "snapshot.time-retained",
                "sink.parallelism",
                "mt.query-fingerprint",
                "connector",
                "path"
            })
    void aMaterializedTableRefusesEveryOptionButItsOwnNamingItAndWhatIsAllowed(String key) {
        StatementError error = refusal(AllowedOptions.MATERIALIZED_TABLE, key, "true");

        assertThat(error.reason()).isEqualTo("OptionNotAllowed");
        assertThat(error.message())
                .contains("Option '" + key + "' is not allowed in a materialized table's WITH");
        assertThat(error.allowed())
                .contains("'file.format'")
                .contains("'partition.fields.<column>.date-formatter'")
                .contains("DISTRIBUTED BY");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "file.format=orc",
                "file.format=parquet",
                "file.format=avro",
                "partition.fields.ds.date-formatter=yyyy-MM-dd",
                "partition.fields.event_day.date-formatter=yyyyMMdd"
            })
    void aMaterializedTableTakesItsFileFormatAndDateFormatters(String option) {
        String[] keyValue = option.split("=", 2);
        assertThatCode(() -> AllowedOptions.MATERIALIZED_TABLE.check(keyValue[0], keyValue[1], AT))
                .doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(strings = {"csv", "ORC", "lance", ""})
    void aMaterializedTableRefusesAnUnknownFileFormat(String format) {
        StatementError error = refusal(AllowedOptions.MATERIALIZED_TABLE, "file.format", format);

        assertThat(error.reason()).isEqualTo("InvalidOptionValue");
        assertThat(error.allowed())
                .isEqualTo("'file.format': 'orc' (the default), 'parquet' or 'avro'");
    }

    private static StatementError refusal(AllowedOptions allowed, String key, String value) {
        StatementException e =
                catchThrowableOfType(() -> allowed.check(key, value, AT), StatementException.class);
        assertThat(e).as("refused: %s = %s", key, value).isNotNull();
        assertThat(e.category()).isEqualTo(StatementException.Category.INVALID);
        return e.toError();
    }
}
