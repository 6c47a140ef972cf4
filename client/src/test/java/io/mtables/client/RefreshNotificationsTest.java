package io.mtables.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.schemas.refresh.RefreshSucceeded;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class RefreshNotificationsTest {

    private static final String SUCCEEDED =
            "{\"table\": \"default_catalog.shop.daily\", \"definitionVersion\": 2, \"mode\":"
                    + " \"FULL\", \"partition\": {}, \"snapshotId\": 7, \"rowsWritten\": 3,"
                    + " \"startedAt\": \"2026-11-29T15:00:00Z\", \"finishedAt\":"
                    + " \"2026-11-29T15:00:04Z\", \"dataTimestamp\": \"2026-11-29T15:00:00Z\"}";

    @Test
    void aNewSnapshotIsARefreshSucceeded() {
        var notification =
                RefreshNotifications.decode(
                        record(Contracts.REFRESH_SUCCEEDED_V1.type(), SUCCEEDED));

        assertThat(notification.table()).isEqualTo("default_catalog.shop.daily");
        assertThat(notification.as(RefreshSucceeded.class))
                .hasValueSatisfying(
                        succeeded -> {
                            assertThat(succeeded.snapshotId()).isEqualTo(7);
                            assertThat(succeeded.rowsWritten()).isEqualTo(3);
                        });
    }

    @Test
    void aTypeThisClientDoesNotKnowKeepsItsJson() {
        var notification =
                RefreshNotifications.decode(record("io.mtables.mt.RefreshSucceeded.v2", "{}"));

        assertThat(notification.event()).isNull();
        assertThat(notification.as(RefreshSucceeded.class)).isEmpty();
        assertThat(notification.json()).isEqualTo("{}");
    }

    private static ConsumerRecord<String, String> record(String type, String json) {
        var record =
                new ConsumerRecord<>(
                        Topics.REFRESH_EVENTS, 0, 0L, "default_catalog.shop.daily", json);
        record.headers().add(EventHeaders.TYPE, type.getBytes(StandardCharsets.UTF_8));
        return record;
    }
}
