package io.mtables.schemas.refresh;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/**
 * A new query of a CONTINUOUS table started filling a staged table beside the table's own, while
 * the old query keeps serving readers ({@code SwitchStarted.v1} on {@code mt.refresh.events}, keyed
 * by {@link #table}); {@link SwitchedOver} follows once it has caught up.
 *
 * @param table the fully qualified identifier
 * @param definitionVersion the definition version of the new query
 * @param fromVersion the definition version whose query serves readers until the switch; 0 when
 *     unknown
 * @param verdict the verdict on the old query's state (COMPATIBLE, INCOMPATIBLE, UNKNOWN, NONE; see
 *     {@code TableDefined.v1}'s queryChange); null when the definition carries none
 * @param jobId Flink's job id of the job filling the staged table
 * @param jobName its Flink job name ({@link io.mtables.schemas.flink.JobNames})
 * @param stagedTable the staged Paimon table's identifier, in the warehouse's database of the table
 * @param startedAt when the job was submitted
 * @param replacedInput a materialized table the query reads whose rows were replaced at once
 *     (switched over, or rewritten by a restore): the table's own query, unchanged, is read anew
 *     from them (a rebuild; then {@code definitionVersion} is the version already running). Null
 *     for a new query, and in events written before it
 * @param restoredFrom the savepoint of the old query's job, taken while it went on serving, that
 *     the job filling the staged table started from (a COMPATIBLE change restored beside the table:
 *     its sources go on from there, and the staged table holds the rows the old query had written
 *     by then, rewritten into the new query's). Null when the job reads its sources from their
 *     start, and in events written before it
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SwitchStarted(
        String table,
        long definitionVersion,
        long fromVersion,
        String verdict,
        String jobId,
        String jobName,
        String stagedTable,
        Instant startedAt,
        String replacedInput,
        String restoredFrom) {

    /** A switch-over to a new query. */
    public SwitchStarted(
            String table,
            long definitionVersion,
            long fromVersion,
            String verdict,
            String jobId,
            String jobName,
            String stagedTable,
            Instant startedAt) {
        this(
                table,
                definitionVersion,
                fromVersion,
                verdict,
                jobId,
                jobName,
                stagedTable,
                startedAt,
                null,
                null);
    }
}
