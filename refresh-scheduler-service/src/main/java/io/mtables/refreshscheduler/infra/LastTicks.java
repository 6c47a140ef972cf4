package io.mtables.refreshscheduler.infra;

import io.mtables.messaging.KafkaLog;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.EventHeaders;
import io.mtables.schemas.Topics;
import io.mtables.schemas.tick.RefreshTick;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads the last tick of every table back from the compacted last-ticks topic (committed
 * transactions only).
 */
final class LastTicks {

    private LastTicks() {}

    static List<RefreshTick> read(Map<String, Object> clientConfig, String source) {
        List<RefreshTick> ticks = new ArrayList<>();
        try (KafkaLog log = new KafkaLog(Topics.SCHEDULER_LAST_TICKS, source, clientConfig)) {
            for (var record : log.readAllWhenAvailable()) {
                if (record.value() != null
                        && Contracts.REFRESH_TICK_V1
                                .type()
                                .equals(KafkaLog.header(record, EventHeaders.TYPE))) {
                    log.decodeOrDeadLetter(record, Contracts.REFRESH_TICK_V1).ifPresent(ticks::add);
                }
            }
        }
        return ticks;
    }
}
