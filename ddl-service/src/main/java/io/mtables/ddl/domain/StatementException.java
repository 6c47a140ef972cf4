package io.mtables.ddl.domain;

import io.mtables.schemas.ddl.StatementError;

/**
 * A statement that is refused: what is wrong, where (1-based line and column, when it has a place),
 * and what would be accepted. Nothing has changed when it is thrown.
 */
public class StatementException extends RuntimeException {

    /**
     * How the refusal maps onto HTTP: bad input, a missing object, a conflicting change, or a
     * caller without the privilege.
     */
    public enum Category {
        INVALID,
        NOT_FOUND,
        CONFLICT,
        FORBIDDEN
    }

    private final Category category;
    private final String reason;
    private final Integer line;
    private final Integer column;
    private final String allowed;

    public StatementException(
            Category category,
            String reason,
            String message,
            Integer line,
            Integer column,
            String allowed) {
        super(message);
        this.category = category;
        this.reason = reason;
        // Some syntax-tree nodes carry no position (line 0): then the error has no place either.
        boolean placed = line != null && column != null && line > 0 && column > 0;
        this.line = placed ? line : null;
        this.column = placed ? column : null;
        this.allowed = allowed;
    }

    /** Bad input without a place in the statement. */
    public static StatementException invalid(String reason, String message, String allowed) {
        return new StatementException(Category.INVALID, reason, message, null, null, allowed);
    }

    /** Bad input at a place in the statement. */
    public static StatementException invalidAt(
            String reason, String message, SourcePosition at, String allowed) {
        return new StatementException(
                Category.INVALID,
                reason,
                message,
                at == null ? null : at.line(),
                at == null ? null : at.column(),
                allowed);
    }

    public static StatementException notFound(String message) {
        return new StatementException(
                Category.NOT_FOUND, "TableNotFound", message, null, null, null);
    }

    /** A table the statement names at {@code at} does not exist. */
    public static StatementException notFoundAt(String message, SourcePosition at) {
        return new StatementException(
                Category.NOT_FOUND,
                "TableNotFound",
                message,
                at == null ? null : at.line(),
                at == null ? null : at.column(),
                null);
    }

    /** The caller lacks a privilege: nothing was done. */
    public static StatementException permissionDenied(String message, String allowed) {
        return new StatementException(
                Category.FORBIDDEN, "PermissionDenied", message, null, null, allowed);
    }

    /** A missing object other than a table (a role). */
    public static StatementException notFound(String reason, String message) {
        return new StatementException(Category.NOT_FOUND, reason, message, null, null, null);
    }

    public static StatementException conflict(String reason, String message) {
        return new StatementException(Category.CONFLICT, reason, message, null, null, null);
    }

    public Category category() {
        return category;
    }

    public String reason() {
        return reason;
    }

    /** The error as it travels in results. */
    public StatementError toError() {
        return new StatementError(reason, getMessage(), line, column, allowed);
    }
}
