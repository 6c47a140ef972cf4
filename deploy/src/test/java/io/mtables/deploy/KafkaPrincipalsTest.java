package io.mtables.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.schemas.KafkaPrincipals;
import io.mtables.schemas.TopicSpec;
import io.mtables.schemas.Topics;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The principals of schemas' KafkaPrincipals against what the services do: a channel a service
 * reads is a topic its principal may read, and every topic of the contracts has a writer and a
 * reader. A channel added without its ACL fails here, not on a secured broker.
 */
class KafkaPrincipalsTest {

    private static final Path ROOT = Yaml.root();

    @Test
    void everyServiceMayReadAndDeadLetterWhatItsChannelsNameAndNothingIsNobodys()
            throws IOException {
        for (KafkaPrincipals.Principal principal : KafkaPrincipals.ALL) {
            Path properties =
                    ROOT.resolve(principal.name())
                            .resolve("src/main/resources/application.properties");
            if (!Files.exists(properties)) {
                assertThat(principal).isEqualTo(KafkaPrincipals.CLIENT);
                continue;
            }
            Properties settings = new Properties();
            try (Reader reader = Files.newBufferedReader(properties)) {
                settings.load(reader);
            }
            for (String key : settings.stringPropertyNames()) {
                String topic = settings.getProperty(key);
                if (key.endsWith(".dead-letter-queue.topic")) {
                    assertThat(principal.writes()).as(principal.name() + " " + key).contains(topic);
                } else if (key.startsWith("mp.messaging.incoming.") && key.endsWith(".topic")) {
                    assertThat(principal.reads()).as(principal.name() + " " + key).contains(topic);
                }
                if (key.startsWith("mp.messaging.incoming.") && key.endsWith(".group.id")) {
                    assertThat(topic)
                            .as(principal.name() + " " + key + ": its groups' prefix")
                            .startsWith(principal.groupPrefix());
                }
            }
        }
        for (TopicSpec topic : Topics.ALL) {
            List<String> writers =
                    KafkaPrincipals.ALL.stream()
                            .filter(p -> p.writes().contains(topic.name()))
                            .map(KafkaPrincipals.Principal::name)
                            .toList();
            assertThat(writers).as(topic.name() + "'s writers").isNotEmpty();
            if (!KafkaPrincipals.SHARED_TOPICS.contains(topic.name())) {
                assertThat(writers).as(topic.name() + ": one writer").hasSize(1);
            }
            if (!topic.name().equals(Topics.DEAD_LETTERS)) {
                assertThat(KafkaPrincipals.ALL)
                        .as(topic.name() + "'s readers")
                        .anyMatch(p -> p.reads().contains(topic.name()));
            }
        }
    }
}
