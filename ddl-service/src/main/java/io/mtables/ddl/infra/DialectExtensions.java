package io.mtables.ddl.infra;

import io.mtables.ddl.domain.SourcePosition;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one place where our dialect goes beyond Flink 2.2's grammar. Flink's parser stays the
 * grammar: a statement is parsed as written, and only when the parser stops exactly at one of these
 * words is it blanked out (with spaces, so positions do not move) and the statement parsed again,
 * with a flag that remembers it:
 *
 * <ul>
 *   <li>{@code REFRESH_MODE = AUTO}: Flink infers the mode when the clause is absent; AUTO says so
 *       explicitly.
 *   <li>{@code CREATE OR ALTER MATERIALIZED TABLE}: parsed as CREATE; the statement service turns
 *       it into an ALTER when the table exists.
 *   <li>{@code DESCRIBE MATERIALIZED TABLE t} (and {@code DESC}): parsed as {@code DESCRIBE t}.
 *   <li>{@code EXPLAIN CREATE [OR ALTER] MATERIALIZED TABLE ...} and {@code EXPLAIN ALTER
 *       MATERIALIZED TABLE ...}: parsed as the CREATE or ALTER; the statement service plans it and
 *       changes nothing (Flink's EXPLAIN takes queries only).
 *   <li>{@code PARTITIONED BY (...) DISTRIBUTED BY ...}, the brief's clause order: Flink 2.2 wants
 *       DISTRIBUTED BY first, so the two clauses swap places (the text keeps its length, so every
 *       position after them is unchanged).
 * </ul>
 */
final class DialectExtensions {

    private static final Pattern AUTO_PREFIX = Pattern.compile("(?is)REFRESH_MODE\\s*=\\s*$");
    private static final Pattern OR_ALTER_PREFIX = Pattern.compile("(?is)^\\s*CREATE\\s+(OR)\\s+$");

    /** PARTITIONED BY (...) right before where the parser stopped (group 1 is the clause). */
    private static final Pattern PARTITIONED_BEFORE =
            Pattern.compile("(?is)(PARTITIONED\\s+BY\\s*\\([^()]*\\))\\s*$");

    /** DISTRIBUTED BY [HASH|RANGE] (...) [INTO n BUCKETS] | DISTRIBUTED INTO n BUCKETS. */
    private static final Pattern DISTRIBUTION =
            Pattern.compile(
                    "(?is)DISTRIBUTED(?:\\s+BY\\s*(?:HASH|RANGE)?\\s*\\([^()]*\\))?(?:\\s+INTO\\s+\\d+\\s+BUCKETS)?");

    private static final Pattern EXPLAIN_MATERIALIZED =
            Pattern.compile(
                    "(?is)^\\s*(EXPLAIN)\\s+(?:CREATE\\s+(?:OR\\s+ALTER\\s+)?|ALTER\\s+)MATERIALIZED\\s+TABLE\\b");
    private static final Pattern DESCRIBE_MATERIALIZED =
            Pattern.compile("(?is)^\\s*(?:DESCRIBE|DESC)\\s+(MATERIALIZED\\s+TABLE)\\b");

    /** What a repair did. */
    enum Extension {
        AUTO_REFRESH_MODE,
        CREATE_OR_ALTER,
        DESCRIBE_MATERIALIZED,
        EXPLAIN_MATERIALIZED,
        DISTRIBUTION_AFTER_PARTITIONING
    }

    /**
     * The repaired text, when the parser stopped at {@code token} at {@code at} because of one of
     * our extensions; else null.
     */
    static Repair repair(String text, String token, SourcePosition at) {
        if (at == null) {
            return null;
        }
        int offset = at.offsetIn(text);
        String before = text.substring(0, offset);
        if ("AUTO".equalsIgnoreCase(token)) {
            Matcher prefix = AUTO_PREFIX.matcher(before);
            if (prefix.find()) {
                return new Repair(
                        blank(text, prefix.start(), offset + token.length()),
                        Extension.AUTO_REFRESH_MODE);
            }
        }
        if ("ALTER".equalsIgnoreCase(token)) {
            Matcher prefix = OR_ALTER_PREFIX.matcher(before);
            if (prefix.find()) {
                String withoutOr = blank(text, prefix.start(1), prefix.end(1));
                return new Repair(
                        blank(withoutOr, offset, offset + token.length()),
                        Extension.CREATE_OR_ALTER);
            }
        }
        if ("DISTRIBUTED".equalsIgnoreCase(token)) {
            Matcher partitioned = PARTITIONED_BEFORE.matcher(before);
            Matcher distributed = DISTRIBUTION.matcher(text).region(offset, text.length());
            if (partitioned.find() && distributed.lookingAt()) {
                String partition = text.substring(partitioned.start(1), partitioned.end(1));
                String gap = text.substring(partitioned.end(1), offset);
                String distribution = text.substring(offset, distributed.end());
                String swapped =
                        text.substring(0, partitioned.start(1))
                                + distribution
                                + gap
                                + partition
                                + text.substring(distributed.end());
                return new Repair(swapped, Extension.DISTRIBUTION_AFTER_PARTITIONING);
            }
        }
        return null;
    }

    /**
     * {@code DESCRIBE | DESC MATERIALIZED TABLE t} as {@code DESCRIBE t}, or null for any other
     * statement. Done before parsing: after DESC, Calcite's error has no position to repair at.
     */
    static Repair describeMaterialized(String text) {
        Matcher describe = DESCRIBE_MATERIALIZED.matcher(text);
        return describe.find()
                ? new Repair(
                        blank(text, describe.start(1), describe.end(1)),
                        Extension.DESCRIBE_MATERIALIZED)
                : null;
    }

    /**
     * {@code EXPLAIN CREATE [OR ALTER] | ALTER MATERIALIZED TABLE ...} as the CREATE or ALTER, or
     * null for any other statement. Done before parsing: Flink's parser would take EXPLAIN and then
     * fail on CREATE or ALTER.
     */
    static Repair explainMaterialized(String text) {
        Matcher explain = EXPLAIN_MATERIALIZED.matcher(text);
        return explain.find()
                ? new Repair(
                        blank(text, explain.start(1), explain.end(1)),
                        Extension.EXPLAIN_MATERIALIZED)
                : null;
    }

    /**
     * A repaired statement.
     *
     * @param text the statement with the extension words blanked
     * @param extension which extension was found
     */
    record Repair(String text, Extension extension) {}

    private static String blank(String text, int from, int to) {
        StringBuilder result = new StringBuilder(text);
        for (int i = from; i < to; i++) {
            if (result.charAt(i) != '\n') {
                result.setCharAt(i, ' ');
            }
        }
        return result.toString();
    }

    private DialectExtensions() {}
}
