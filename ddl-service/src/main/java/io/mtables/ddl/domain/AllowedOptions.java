package io.mtables.ddl.domain;

import io.mtables.planning.StoredStatements;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.flink.util.TimeUtils;

/**
 * The options a statement may set, clause by clause: an option not on a clause's list is refused
 * ({@code OptionNotAllowed}), and so is a value its check refuses ({@code InvalidOptionValue}). The
 * refusal names the option and the clause, and lists what is allowed. Anything else a user could
 * set reaches Flink's or Paimon's configuration of the table's jobs and files (class paths,
 * checkpoint and savepoint locations, a writer that neither compacts nor expires), which is the
 * system's to decide.
 */
public final class AllowedOptions {

    public static final String NOT_ALLOWED = "OptionNotAllowed";
    public static final String INVALID_VALUE = "InvalidOptionValue";

    /**
     * ALTER MATERIALIZED TABLE ... RESUME WITH (...): Flink options of the table's jobs, which the
     * job manager applies last, over its own. Only a state TTL: Flink 2.2 restores state whether
     * TTL was on or off before, and it changes neither the plan nor the cluster's share. Left out
     * on purpose: mini-batches (the planner decides them, rule 7, and keeps joins unbatched, as
     * Flink's mini-batch join loses rows), {@code table.exec.sink.upsert-materialize} (Paimon
     * refuses Flink's materializer, so the job manager sets NONE), and parallelism (ddl-service
     * does not know the cluster's slots; a wide job holds slots every other table needs, or heads
     * the first-come-first-served queue and keeps every table queued after it waiting).
     */
    public static final AllowedOptions RESUME =
            new AllowedOptions(
                    "RESUME WITH (...)",
                    "the job manager applies these options over its own configuration of the"
                            + " table's jobs, so only what a table tunes for itself is accepted",
                    List.of(
                            Option.exactly(
                                    StoredStatements.RESUME_STATE_TTL,
                                    "a duration such as '1 d' or '12 h'; '0' keeps state forever",
                                    AllowedOptions::isDuration)));

    /**
     * CREATE MATERIALIZED TABLE ... WITH (...), ALTER ... SET (...): options of the table's Paimon
     * table and Flink's materialized-table options. The system keeps the table's storage
     * (compaction, snapshot expiry, the changelog its readers are planned with, the buckets of
     * DISTRIBUTED BY, its own {@code mt.*} options), so only these: the file format (the job
     * manager's default, ORC, applies only when it is not given) and the partition a scheduled FULL
     * refresh overwrites (checked further by {@link MaterializedTableRules}).
     */
    public static final AllowedOptions MATERIALIZED_TABLE =
            new AllowedOptions(
                    "a materialized table's WITH (...)",
                    "the system keeps the table's storage (compaction, snapshot expiry, the"
                            + " changelog its readers read, its buckets), so only these options"
                            + " are accepted",
                    List.of(
                            Option.exactly(
                                    "file.format",
                                    "'orc' (the default), 'parquet' or 'avro'",
                                    Set.of("orc", "parquet", "avro")::contains),
                            Option.matching(
                                    "partition.fields.<column>.date-formatter",
                                    Pattern.compile("partition\\.fields\\..+\\.date-formatter"),
                                    "a date-time pattern such as 'yyyy-MM-dd', in FULL mode",
                                    value -> true)),
                    "buckets: DISTRIBUTED BY (columns) INTO n BUCKETS");

    /**
     * One allowed option.
     *
     * @param key the key as users read it; a pattern's placeholder in angle brackets
     * @param pattern the keys it covers
     * @param values the values accepted, as users read them
     * @param valid whether a value is accepted
     */
    public record Option(String key, Pattern pattern, String values, Predicate<String> valid) {

        static Option exactly(String key, String values, Predicate<String> valid) {
            return new Option(key, Pattern.compile(Pattern.quote(key)), values, valid);
        }

        static Option matching(
                String key, Pattern pattern, String values, Predicate<String> valid) {
            return new Option(key, pattern, values, valid);
        }
    }

    private final String clause;
    private final String why;
    private final List<Option> options;
    private final String alternatives;

    private AllowedOptions(String clause, String why, List<Option> options) {
        this(clause, why, options, null);
    }

    private AllowedOptions(String clause, String why, List<Option> options, String alternatives) {
        this.clause = clause;
        this.why = why;
        this.options = options;
        this.alternatives = alternatives;
    }

    /**
     * Refuses an option this clause does not allow, or a value its check refuses.
     *
     * @param at the option in the statement, for the message
     */
    public void check(String key, String value, SourcePosition at) {
        Option option =
                options.stream()
                        .filter(o -> o.pattern().matcher(key).matches())
                        .findFirst()
                        .orElseThrow(
                                () ->
                                        StatementException.invalidAt(
                                                NOT_ALLOWED,
                                                "Option '"
                                                        + key
                                                        + "' is not allowed in "
                                                        + clause
                                                        + ": "
                                                        + why
                                                        + ". Nothing was changed.",
                                                at,
                                                allowed()));
        if (!option.valid().test(value)) {
            throw StatementException.invalidAt(
                    INVALID_VALUE,
                    "Option '"
                            + key
                            + "' = '"
                            + value
                            + "' in "
                            + clause
                            + " is not accepted: its value must be "
                            + option.values()
                            + ". Nothing was changed.",
                    at,
                    "'" + option.key() + "': " + option.values());
        }
    }

    /** The allowed options with their values, as the refusals list them. */
    public String allowed() {
        String listed =
                options.stream()
                        .map(o -> "'" + o.key() + "' (" + o.values() + ")")
                        .collect(Collectors.joining("; "));
        return alternatives == null ? listed : listed + "; " + alternatives;
    }

    /** A duration as Flink parses one ("1 d", "12 h", "500 ms"); negative ones do not parse. */
    private static boolean isDuration(String value) {
        try {
            TimeUtils.parseDuration(value);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }
}
