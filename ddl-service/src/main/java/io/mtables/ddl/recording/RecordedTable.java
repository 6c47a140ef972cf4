package io.mtables.ddl.recording;

import java.time.Instant;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.table.FileStoreTable;

/** What a {@link TopicRecorder} writes: a Paimon table, and the rows each record stands for. */
public interface RecordedTable {

    /**
     * The table, created when missing, with whatever the rows depend on read from it: called at
     * every start of the recording, a retry's included.
     */
    FileStoreTable open(Catalog catalog) throws Exception;

    /**
     * The rows (or deletions) a record of the topic stands for; none for the others.
     *
     * @throws RuntimeException when the record cannot be read: it becomes a dead letter
     */
    List<GenericRow> rowsOf(ConsumerRecord<String, String> record);

    /** Rows due at {@code now} whatever was read (deletions of rows past their age, say). */
    default List<GenericRow> due(Instant now) {
        return List.of();
    }
}
