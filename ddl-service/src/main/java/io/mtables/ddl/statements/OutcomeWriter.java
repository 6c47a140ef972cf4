package io.mtables.ddl.statements;

import io.mtables.ddl.access.AccessControl;
import io.mtables.ddl.access.AccessLog;
import io.mtables.ddl.domain.Catalog;
import io.mtables.ddl.infra.FlinkSql;
import io.mtables.messaging.BrokerUnavailableException;
import io.mtables.messaging.KafkaLog;
import io.mtables.schemas.Contracts;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes what a statement decided to its log (a definition or a drop to {@code
 * mt.table.definitions}, a refresh to the lifecycle commands, a grant to {@code mt.ddl.access}),
 * and only once Kafka acknowledged it applies it to the catalog and Flink's mirror of it. A write
 * Kafka did not acknowledge may have landed all the same: it leaves the catalog in doubt.
 */
class OutcomeWriter {

    /** What a written outcome reports: its message and the table it changed (or null). */
    record Written(String message, String table) {}

    private final FlinkSql flink;
    private final Catalog catalog;
    private final KafkaLog definitions;
    private final KafkaLog lifecycle;
    private final AccessLog accessLog;
    private final AccessControl access;
    private final AtomicLong catalogChanges = new AtomicLong();

    /** The last write that failed in doubt, until the caller asks about it. */
    private BrokerUnavailableException inDoubt;

    OutcomeWriter(FlinkSql flink, Catalog catalog, StatementLogs logs, AccessControl access) {
        this.flink = flink;
        this.catalog = catalog;
        this.definitions = logs.definitions();
        this.lifecycle = logs.lifecycle();
        this.accessLog = logs.access();
        this.access = access;
    }

    /** How many catalog changes were written since this instance started. */
    long catalogChanges() {
        return catalogChanges.get();
    }

    /**
     * Whether {@code failure} was a write of the catalog's logs (definitions, grants) that may have
     * landed: then the catalog must be read back from them. Asked once per failure.
     */
    boolean leftInDoubt(BrokerUnavailableException failure) {
        if (failure != inDoubt) {
            return false;
        }
        inDoubt = null;
        return true;
    }

    /**
     * Writes {@code outcome} (any but {@link Outcome.Rows} and {@link Outcome.Read}) and applies
     * it.
     *
     * @throws BrokerUnavailableException when Kafka did not acknowledge it: nothing was applied
     */
    Written write(Outcome outcome) {
        if (outcome instanceof Outcome.Unchanged unchanged) {
            return new Written(unchanged.message(), unchanged.table());
        }
        if (outcome instanceof Outcome.Defined defined) {
            String table = defined.definition().table();
            appendInDoubt(
                    () ->
                            definitions.append(
                                    Contracts.TABLE_DEFINED_V1, table, defined.definition()));
            catalog.apply(defined.definition());
            catalogChanges.incrementAndGet();
            flink.onPlannerThread(
                    () -> {
                        defined.onCommitted().run();
                        return null;
                    });
            return new Written(defined.message(), table);
        }
        if (outcome instanceof Outcome.AccessChange change) {
            appendInDoubt(() -> accessLog.append(change.change(), access));
            return new Written(change.message(), null);
        }
        if (outcome instanceof Outcome.RefreshRequest refresh) {
            String table = refresh.request().table();
            lifecycle.append(Contracts.REFRESH_REQUESTED_V1, table, refresh.request());
            return new Written(refresh.message(), table);
        }
        Outcome.Dropped dropped = (Outcome.Dropped) outcome;
        String table = dropped.dropped().table();
        appendInDoubt(
                () -> definitions.append(Contracts.TABLE_DROPPED_V1, table, dropped.dropped()));
        catalog.apply(dropped.dropped());
        catalogChanges.incrementAndGet();
        flink.onPlannerThread(
                () -> {
                    flink.forget(table);
                    return null;
                });
        return new Written(dropped.message(), table);
    }

    /** A write to one of the catalog's logs; one Kafka did not acknowledge leaves it in doubt. */
    private void appendInDoubt(Runnable append) {
        try {
            append.run();
        } catch (BrokerUnavailableException e) {
            inDoubt = e;
            throw e;
        }
    }
}
