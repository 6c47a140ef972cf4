package io.mtables.cdc.domain;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CommitTimeTest {

    @Test
    void theCommitTimeIsTheSourcesTsMsWhereverItStandsInTheEnvelope() {
        assertThat(
                        CommitTime.of(
                                "{\"before\":null,\"after\":{\"id\":1,\"ts_ms\":5,\"n\":{\"ts_ms\":6}},\"source\":{\"db\":\"d\",\"ts_ms\":1700000000123},"
                                    + "\"op\":\"c\",\"ts_ms\":1700000000456}"))
                .hasValue(1700000000123L);
        assertThat(
                        CommitTime.of(
                                "{\"op\":\"u\",\"ts_ms\":1700000000456,\"source\":{\"ts_ms\":1700000000100,\"lsn\":42}}"))
                .hasValue(1700000000100L);
        assertThat(
                        CommitTime.of(
                                "{\"schema\":{\"type\":\"struct\",\"fields\":[]},\"payload\":{\"source\":{\"ts_ms\":1700000000001}}}"))
                .hasValue(1700000000001L);
    }

    @Test
    void withoutASourceTimeItIsWhenDebeziumProcessedTheChange() {
        assertThat(CommitTime.of("{\"after\":{\"id\":1},\"op\":\"r\",\"ts_ms\":1700000000456}"))
                .hasValue(1700000000456L);
    }

    @Test
    void aTombstoneOrWhatIsNoEnvelopeHasNone() {
        assertThat(CommitTime.of(null)).isEmpty();
        assertThat(CommitTime.of("[1,2]")).isEmpty();
        assertThat(CommitTime.of("{\"after\":{\"id\":1}}")).isEmpty();
        assertThat(CommitTime.of("{not json")).isEmpty();
    }
}
