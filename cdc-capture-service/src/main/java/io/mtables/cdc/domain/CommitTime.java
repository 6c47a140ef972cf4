package io.mtables.cdc.domain;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.OptionalLong;

/**
 * When a change was committed in PostgreSQL, from its Debezium JSON envelope: {@code source.ts_ms},
 * else {@code ts_ms} (when Debezium processed it). Read with a streaming parser that skips the row
 * images, as it runs once for every change published.
 */
public final class CommitTime {

    private static final JsonFactory JSON = new JsonFactory();

    private CommitTime() {}

    /** The commit time in epoch milliseconds; empty for a tombstone or what is not an envelope. */
    public static OptionalLong of(String envelope) {
        if (envelope == null) {
            return OptionalLong.empty();
        }
        try (JsonParser parser = JSON.createParser(envelope)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return OptionalLong.empty();
            }
            return fromEnvelope(parser);
        } catch (IOException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * Reads the object the parser is at: an envelope, or a {@code {"schema", "payload"}} wrapper of
     * one.
     */
    private static OptionalLong fromEnvelope(JsonParser parser) throws IOException {
        OptionalLong processed = OptionalLong.empty();
        OptionalLong committed = OptionalLong.empty();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken value = parser.nextToken();
            if (field.equals("payload") && value == JsonToken.START_OBJECT) {
                return fromEnvelope(parser);
            } else if (field.equals("source") && value == JsonToken.START_OBJECT) {
                committed = tsMs(parser);
            } else if (field.equals("ts_ms") && value == JsonToken.VALUE_NUMBER_INT) {
                processed = OptionalLong.of(parser.getLongValue());
            } else {
                parser.skipChildren();
            }
        }
        return committed.isPresent() ? committed : processed;
    }

    /** The {@code ts_ms} of the object the parser is at, leaving the parser at its end. */
    private static OptionalLong tsMs(JsonParser parser) throws IOException {
        OptionalLong found = OptionalLong.empty();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            if (parser.nextToken() == JsonToken.VALUE_NUMBER_INT && field.equals("ts_ms")) {
                found = OptionalLong.of(parser.getLongValue());
            } else {
                parser.skipChildren();
            }
        }
        return found;
    }
}
