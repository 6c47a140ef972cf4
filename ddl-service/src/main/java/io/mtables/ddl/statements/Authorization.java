package io.mtables.ddl.statements;

import io.mtables.ddl.access.AccessControl;
import io.mtables.ddl.access.Privilege;
import io.mtables.ddl.domain.Catalog;
import io.mtables.ddl.domain.StatementException;
import io.mtables.planning.SourceConnectors;
import io.mtables.schemas.catalog.TableDefinition;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * What one caller may do, checked before anything is written or returned: a change needs CREATE on
 * the schema (a new table) or ALTER or DROP on the table, and a materialized table's query SELECT
 * on each table it reads, by the caller and by the table's owner (its jobs read with the owner's
 * rights); a read needs SELECT; SHOW and information_schema list only what the caller may see.
 * Every new table is owned by its creator; later versions keep their owner.
 */
final class Authorization {

    private final AccessControl access;
    private final Catalog catalog;
    private final String principal;

    /** Time spent in this caller's checks so far (a read's checks may run on another thread). */
    private final LongAdder checkingNanos = new LongAdder();

    Authorization(AccessControl access, Catalog catalog, String principal) {
        this.access = access;
        this.catalog = catalog;
        this.principal = principal;
    }

    /** What this caller's checks have cost so far. */
    Duration spent() {
        return Duration.ofNanos(checkingNanos.sum());
    }

    /** {@code check}'s answer, its time added to {@link #spent()} (a refusal's too). */
    private <T> T timed(Supplier<T> check) {
        long start = System.nanoTime();
        try {
            return check.get();
        } finally {
            checkingNanos.add(System.nanoTime() - start);
        }
    }

    private void timed(Runnable check) {
        timed(
                () -> {
                    check.run();
                    return null;
                });
    }

    /** Whether the caller may see {@code table} at all (any privilege on it). */
    boolean sees(TableDefinition table) {
        return timed(() -> access.sees(principal, table));
    }

    /**
     * Whether the caller may read the audit records of {@code sender} (null: unauthenticated
     * senders): an admin every one, anyone else their own.
     */
    boolean readsAuditOf(String sender) {
        return timed(() -> access.isAdmin(principal) || principal.equals(sender));
    }

    /** Refuses a read of {@code table} without SELECT on it. */
    void checkRead(TableDefinition table) {
        timed(() -> require(Privilege.SELECT, table));
    }

    /**
     * Refuses a change the caller may not make, and gives a new table its owner (the caller) and a
     * new version of a table the owner it had.
     */
    Outcome checkAndOwn(Outcome outcome) {
        return timed(() -> checkedAndOwned(outcome));
    }

    private Outcome checkedAndOwned(Outcome outcome) {
        if (outcome instanceof Outcome.Defined defined) {
            TableDefinition changed = defined.definition();
            Optional<TableDefinition> existing = catalog.find(changed.table());
            if (existing.isPresent()) {
                require(Privilege.ALTER, existing.get());
            } else {
                requireOnSchema(Privilege.CREATE, AccessControl.schemaOf(changed.table()));
            }
            // A table created before owners were recorded keeps having none (admins only).
            String owner = existing.isPresent() ? existing.get().owner() : principal;
            if (readsChange(existing, changed)) {
                requireReads(changed, owner);
            }
            requireTopics(existing, changed);
            return new Outcome.Defined(
                    changed.withOwner(owner), defined.message(), defined.onCommitted());
        }
        if (outcome instanceof Outcome.Dropped dropped) {
            catalog.find(dropped.dropped().table()).ifPresent(t -> require(Privilege.DROP, t));
        } else if (outcome instanceof Outcome.RefreshRequest refresh) {
            catalog.find(refresh.request().table()).ifPresent(t -> require(Privilege.ALTER, t));
        }
        return outcome;
    }

    /**
     * Before the statement is compiled or planned, by the name it changes: CREATE on the schema of
     * a new table, ALTER or DROP on an existing one. A caller without them learns nothing of the
     * table's definition from a validation error and costs the service no planning.
     *
     * @param table the table the statement names
     * @param privilege what the statement does to it when it exists
     * @param creates whether the statement creates it when it does not exist
     */
    void precheck(String table, Privilege privilege, boolean creates) {
        timed(
                () -> {
                    Optional<TableDefinition> existing = catalog.find(table);
                    if (existing.isPresent()) {
                        require(privilege, existing.get());
                    } else if (creates) {
                        requireOnSchema(Privilege.CREATE, AccessControl.schemaOf(table));
                    }
                });
    }

    /** A new table, or a new query: what its jobs read is checked again. */
    private static boolean readsChange(
            Optional<TableDefinition> existing, TableDefinition changed) {
        if (existing.isEmpty() || changed.query() == null) {
            return existing.isEmpty();
        }
        TableDefinition current = existing.get();
        return current.query() == null
                || !current.query().expanded().equals(changed.query().expanded());
    }

    /**
     * SELECT on every table the query reads, by the caller and by the owner (the jobs read with the
     * owner's rights).
     */
    private void requireReads(TableDefinition changed, String owner) {
        for (TableDefinition.SourceTable source : changed.sources()) {
            TableDefinition read = catalog.find(source.table()).orElse(null);
            if (read == null) {
                continue; // its own version check refuses it
            }
            require(Privilege.SELECT, read);
            if (owner != null
                    && !owner.equals(principal)
                    && !access.allows(owner, Privilege.SELECT, read)) {
                throw StatementException.permissionDenied(
                        changed.table()
                                + "'s owner "
                                + owner
                                + " may not read "
                                + read.table()
                                + ", and its jobs read with the owner's rights. Nothing was"
                                + " changed.",
                        "a grant of SELECT on " + read.table() + " to " + owner);
            }
        }
    }

    /**
     * SELECT on each Kafka topic a source table reads (on the topic or a prefix of it), when the
     * table is new or its topics changed: CREATE on a schema alone does not open every change
     * stream of the cluster.
     */
    private void requireTopics(Optional<TableDefinition> existing, TableDefinition changed) {
        String topics = topicsOf(changed);
        if (changed.kind() != TableDefinition.Kind.SOURCE_TABLE
                || topics == null
                || existing.isPresent() && topics.equals(topicsOf(existing.get()))) {
            return;
        }
        for (String topic : SourceConnectors.topics(topics)) {
            if (!access.allowsTopic(principal, topic)) {
                throw StatementException.permissionDenied(
                        principal
                                + " may not read topic '"
                                + topic
                                + "' in a source table. Nothing was done.",
                        "a grant of SELECT on TOPIC '"
                                + topic
                                + "' (or on a prefix of it, 'prefix*'), from an admin");
            }
        }
    }

    private static String topicsOf(TableDefinition table) {
        return table.options() == null ? null : table.options().get("topic");
    }

    private void require(Privilege privilege, TableDefinition table) {
        if (!access.allows(principal, privilege, table)) {
            throw StatementException.permissionDenied(
                    principal
                            + " may not "
                            + privilege
                            + " "
                            + table.table()
                            + ". Nothing was done.",
                    "a grant of "
                            + privilege
                            + " on "
                            + table.table()
                            + " or its schema, from "
                            + (table.owner() == null ? "" : "its owner " + table.owner() + " or ")
                            + "an admin");
        }
    }

    private void requireOnSchema(Privilege privilege, String schema) {
        if (!access.allowsOnSchema(principal, privilege, schema)) {
            throw StatementException.permissionDenied(
                    principal
                            + " may not "
                            + privilege
                            + " tables in schema "
                            + schema
                            + ". Nothing was done.",
                    "a grant of " + privilege + " on SCHEMA " + schema + ", from an admin");
        }
    }
}
