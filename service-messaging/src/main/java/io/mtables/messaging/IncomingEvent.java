package io.mtables.messaging;

import io.mtables.schemas.Contract;

/**
 * A record read from a topic and checked against its contract.
 *
 * @param key the record key: the table identifier on table topics
 * @param contract the contract named by the record's {@code ce_type}
 * @param payload the payload, an instance of {@code contract.javaType()}
 * @param position where the record was, as {@code topic-partition@offset}, for messages and logs
 */
public record IncomingEvent(String key, Contract<?> contract, Object payload, String position) {

    /** The payload as the record type of {@code expected}, which must be this event's contract. */
    public <T> T payloadAs(Contract<T> expected) {
        if (!expected.equals(contract)) {
            throw new IllegalArgumentException(
                    position + " holds " + contract.type() + ", not " + expected.type());
        }
        return expected.javaType().cast(payload);
    }
}
