package io.mtables.jobmanager.jobs;

import io.mtables.schemas.catalog.TableDefinition;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Streaming state belongs to a query: a savepoint or checkpoint taken by one query restores into a
 * job of the same query only. The fingerprint of the expanded query and the columns names that
 * state (in checkpoint and savepoint paths, in job names, and as an option of the Paimon table), so
 * a change of freshness keeps the state and a change of query rebuilds the table from its sources.
 */
public final class QueryState {

    /** The Paimon table option that records which query wrote the table. */
    public static final String TABLE_OPTION = "mt.query-fingerprint";

    private static final String INPUT_REPLACED = "input replaced: ";

    private QueryState() {}

    /**
     * The value {@link #TABLE_OPTION} takes when an input of the table had its rows replaced at
     * once (a switch-over, a restore's rewrite): the rows are no query's answer over the inputs as
     * they are now, so the table is rebuilt as for a new query.
     */
    public static String inputReplaced(String input) {
        return INPUT_REPLACED + input;
    }

    /** Whether a value of {@link #TABLE_OPTION} is {@link #inputReplaced}'s. */
    public static boolean isInputReplaced(String writtenBy) {
        return writtenBy != null && writtenBy.startsWith(INPUT_REPLACED);
    }

    /** The input an {@link #inputReplaced} value names; empty for any other value. */
    public static Optional<String> replacedInput(String writtenBy) {
        return isInputReplaced(writtenBy)
                ? Optional.of(writtenBy.substring(INPUT_REPLACED.length()))
                : Optional.empty();
    }

    /** 12 hex digits of SHA-256 over the expanded query and the columns. */
    public static String fingerprint(TableDefinition definition) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(definition.query().expanded().getBytes(StandardCharsets.UTF_8));
            for (var column : definition.columns()) {
                digest.update(
                        ("\n" + column.name() + " " + column.type() + " " + column.nullable())
                                .getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(digest.digest()).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JVM", e);
        }
    }
}
