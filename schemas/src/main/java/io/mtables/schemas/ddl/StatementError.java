package io.mtables.schemas.ddl;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Why a statement was refused or failed.
 *
 * @param reason a stable CamelCase word that tools can match, such as {@code MalformedCommand}
 * @param message what is wrong, for a human
 * @param line the 1-based line in the statement where the problem is, when it has a place
 * @param column the 1-based column, when it has a place
 * @param allowed what would have been accepted, when that can be said
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StatementError(
        String reason, String message, Integer line, Integer column, String allowed) {

    /** An error without a place in the statement. */
    public static StatementError of(String reason, String message, String allowed) {
        return new StatementError(reason, message, null, null, allowed);
    }
}
