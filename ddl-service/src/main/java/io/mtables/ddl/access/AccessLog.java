package io.mtables.ddl.access;

import io.mtables.messaging.KafkaLog;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.schemas.access.AccessChanged;
import java.util.Set;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * {@code mt.ddl.access}: every change of roles and grants, written before it is taken (a change
 * Kafka did not acknowledge is not in force), and read whole when an instance loads its catalog.
 */
public final class AccessLog {

    private static final Logger LOG = Logger.getLogger(AccessLog.class);

    private final KafkaLog log;

    public AccessLog(KafkaLog log) {
        this.log = log;
    }

    public void close() {
        log.close();
    }

    /** Every change on the log, in order, into a new {@link AccessControl}. */
    public AccessControl read(Set<String> admins) {
        AccessControl access = new AccessControl(admins);
        for (var record : log.readAllWhenAvailable()) {
            String type = KafkaLog.header(record, EventHeaders.TYPE);
            if (Contracts.ACCESS_CHANGED_V1.type().equals(type)) {
                log.decodeOrDeadLetter(record, Contracts.ACCESS_CHANGED_V1)
                        .ifPresent(access::apply);
            } else {
                LOG.warnf("skipping a record of type %s in %s", type, Topics.DDL_ACCESS);
            }
        }
        return access;
    }

    /**
     * Writes {@code change}, then takes it into {@code access}.
     *
     * @throws io.mtables.messaging.BrokerUnavailableException when Kafka did not acknowledge it:
     *     nothing changed
     */
    public void append(AccessChanged change, AccessControl access) {
        // A key of its own: the topic is compacted, and a request id a client reuses would let
        // compaction drop an earlier change (a REVOKE) from the replay.
        log.append(Contracts.ACCESS_CHANGED_V1, UUID.randomUUID().toString(), change);
        access.apply(change);
    }
}
