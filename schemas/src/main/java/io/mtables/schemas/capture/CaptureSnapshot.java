package io.mtables.schemas.capture;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/**
 * How far cdc-capture-service's snapshot of one PostgreSQL table is ({@code CaptureSnapshot.v1} on
 * {@code mt.capture.status}, keyed by {@link #topic}, compacted): Debezium reads a captured table's
 * rows once before its changes, and the capture publishes the whole snapshot in one Kafka
 * transaction, so none of its rows can be read until it ends. Reported every few seconds while it
 * runs, and once with {@link #done} when its rows are committed.
 *
 * @param topic the change topic the table's rows go to ({@code <prefix>.<schema>.<table>})
 * @param table the captured table, {@code schema.table}
 * @param rowsCaptured rows of the table the snapshot has read so far
 * @param rowsEstimated PostgreSQL's estimate of the table's rows when the capture started ({@code
 *     pg_class.reltuples}); null when it has none (a table never analyzed or vacuumed)
 * @param done whether the snapshot is over and its rows committed to the topic
 * @param startedAt when the snapshot's first row was read
 * @param reportedAt when this was reported
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CaptureSnapshot(
        String topic,
        String table,
        long rowsCaptured,
        Long rowsEstimated,
        boolean done,
        Instant startedAt,
        Instant reportedAt) {}
