package io.mtables.ddl.api;

import io.mtables.ddl.domain.FreshnessEpisodes;
import io.mtables.ddl.domain.RefreshStatusProjection;
import io.mtables.messaging.EventReader;
import io.mtables.messaging.IncomingEvent;
import io.mtables.schemas.Contracts;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Keeps each table's refresh status for DESCRIBE and information_schema, and offers each event to
 * the callers following them (RefreshEventFeed). Its own consumer group reads {@code
 * mt.refresh.events} from the start (within the topic's retention) at every start.
 */
@ApplicationScoped
public class RefreshEventsConsumer {

    private final EventReader reader;
    private final RefreshStatusProjection statuses;
    private final FreshnessEpisodes episodes;
    private final RefreshEventFeed feed;

    public RefreshEventsConsumer(
            EventReader reader,
            RefreshStatusProjection statuses,
            FreshnessEpisodes episodes,
            RefreshEventFeed feed) {
        this.reader = reader;
        this.statuses = statuses;
        this.episodes = episodes;
        this.feed = feed;
    }

    @Incoming("refresh-events")
    public void onEvent(ConsumerRecord<String, String> record) {
        IncomingEvent event = reader.read(record, Contracts.REFRESH_EVENTS);
        var contract = event.contract();
        if (contract.equals(Contracts.JOB_QUEUED_V1)) {
            statuses.apply(event.payloadAs(Contracts.JOB_QUEUED_V1));
        } else if (contract.equals(Contracts.LOAD_PROGRESS_V1)) {
            statuses.apply(event.payloadAs(Contracts.LOAD_PROGRESS_V1));
        } else if (contract.equals(Contracts.REFRESH_PROGRESS_V1)) {
            statuses.apply(event.payloadAs(Contracts.REFRESH_PROGRESS_V1));
        } else if (contract.equals(Contracts.JOB_STARTED_V1)) {
            statuses.apply(event.payloadAs(Contracts.JOB_STARTED_V1));
        } else if (contract.equals(Contracts.REFRESH_SUCCEEDED_V1)) {
            statuses.apply(event.payloadAs(Contracts.REFRESH_SUCCEEDED_V1));
        } else if (contract.equals(Contracts.REFRESH_FAILED_V1)) {
            statuses.apply(event.payloadAs(Contracts.REFRESH_FAILED_V1));
        } else if (contract.equals(Contracts.SUSPENDED_V1)) {
            statuses.apply(event.payloadAs(Contracts.SUSPENDED_V1));
        } else if (contract.equals(Contracts.RESUMED_V1)) {
            statuses.apply(event.payloadAs(Contracts.RESUMED_V1));
        } else if (contract.equals(Contracts.DROPPED_V1)) {
            var dropped = event.payloadAs(Contracts.DROPPED_V1);
            statuses.apply(dropped);
            episodes.forget(dropped.table());
        } else if (contract.equals(Contracts.SWITCH_STARTED_V1)) {
            statuses.apply(event.payloadAs(Contracts.SWITCH_STARTED_V1));
        } else if (contract.equals(Contracts.SWITCHED_OVER_V1)) {
            statuses.apply(event.payloadAs(Contracts.SWITCHED_OVER_V1));
        } else if (contract.equals(Contracts.STATE_RESTORED_V1)) {
            statuses.apply(event.payloadAs(Contracts.STATE_RESTORED_V1));
        } else if (contract.equals(Contracts.FRESHNESS_MISSED_V1)) {
            episodes.apply(event.payloadAs(Contracts.FRESHNESS_MISSED_V1));
        } else if (contract.equals(Contracts.FRESHNESS_RESTORED_V1)) {
            episodes.apply(event.payloadAs(Contracts.FRESHNESS_RESTORED_V1));
        }
        feed.publish(contract.type(), event.key(), record.value(), record.timestamp());
    }
}
