package io.mtables.messaging;

import io.mtables.schemas.Topics;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.stream.StreamSupport;
import org.eclipse.microprofile.config.Config;

/**
 * Refuses to start a service whose channels name a topic that {@link Topics} does not define: topic
 * names are public contracts, kept in one place, and a typo must not create a new topic.
 */
@ApplicationScoped
public class ChannelTopicsCheck {

    void onStart(@Observes StartupEvent start, Config config) {
        List<String> unknown = unknownTopics(config);
        if (!unknown.isEmpty()) {
            throw new IllegalStateException(
                    "channels are bound to topics that io.mtables.schemas.Topics does not define: "
                            + unknown
                            + "; allowed: "
                            + Topics.ALL.stream().map(spec -> spec.name()).toList());
        }
    }

    /** {@code mp.messaging.*.topic} and dead-letter topic settings naming an unknown topic. */
    static List<String> unknownTopics(Config config) {
        return StreamSupport.stream(config.getPropertyNames().spliterator(), false)
                .filter(name -> name.startsWith("mp.messaging.") && name.endsWith(".topic"))
                .sorted()
                .filter(name -> !Topics.isKnown(config.getValue(name, String.class)))
                .map(name -> name + "=" + config.getValue(name, String.class))
                .toList();
    }
}
