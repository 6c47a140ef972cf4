package io.mtables.ddl.statements;

import io.mtables.ddl.access.AccessLog;
import io.mtables.messaging.KafkaLog;

/**
 * Where the statement service writes what it decided: table definitions, statement results,
 * lifecycle commands (a manual refresh) and access changes, each on its topic.
 */
public record StatementLogs(
        KafkaLog definitions, KafkaLog results, KafkaLog lifecycle, AccessLog access) {}
