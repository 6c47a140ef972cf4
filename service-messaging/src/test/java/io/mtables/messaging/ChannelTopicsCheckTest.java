package io.mtables.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChannelTopicsCheckTest {

    @Test
    void namesEveryChannelBoundToATopicThatIsNotAContract() {
        var config =
                new SmallRyeConfigBuilder()
                        .withSources(
                                new PropertiesConfigSource(
                                        Map.of(
                                                "mp.messaging.incoming.plans.topic",
                                                        "mt.refresh.plans",
                                                "mp.messaging.incoming.plans.dead-letter-queue.topic",
                                                        "mt.dead-letters",
                                                "mp.messaging.outgoing.results.topic",
                                                        "mt.ddl.result"),
                                        "test",
                                        100))
                        .build();

        assertThat(ChannelTopicsCheck.unknownTopics(config))
                .containsExactly("mp.messaging.outgoing.results.topic=mt.ddl.result");
    }
}
