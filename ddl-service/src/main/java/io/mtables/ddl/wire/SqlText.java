package io.mtables.ddl.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The few things the door needs to see in a statement's text without parsing it: where one
 * statement of a simple query ends (a semicolon outside quotes and comments), and where the
 * extended protocol's parameters ({@code $1}) are, so that their values can be put in as literals
 * (the dialect itself has no parameters).
 */
final class SqlText {

    /** One statement of a query string and where it starts in that string. */
    record Piece(String text, int offset) {}

    private SqlText() {}

    /** The statements of {@code query}, blank ones left out. */
    static List<Piece> split(String query) {
        List<Piece> pieces = new ArrayList<>();
        int start = 0;
        int at = 0;
        while (at < query.length()) {
            if (query.charAt(at) == ';') {
                add(pieces, query, start, at);
                start = at + 1;
                at++;
            } else {
                at = skipQuotedOrComment(query, at);
            }
        }
        add(pieces, query, start, query.length());
        return pieces;
    }

    private static void add(List<Piece> pieces, String query, int start, int end) {
        String text = query.substring(start, end);
        if (!text.isBlank()) {
            pieces.add(new Piece(text, start));
        }
    }

    /** PostgreSQL's limit on a statement's parameters. */
    static final int MOST_PARAMETERS = 65_535;

    /**
     * The highest parameter number ({@code $n}) in {@code statement}, 0 when it has none.
     *
     * @throws IllegalArgumentException past {@link #MOST_PARAMETERS}
     */
    static int parameterCount(String statement) {
        int[] highest = {0};
        replaceParameters(
                statement,
                number -> {
                    highest[0] = Math.max(highest[0], number);
                    return "$" + number;
                });
        return highest[0];
    }

    /**
     * {@code statement} with each {@code $n} outside quotes and comments replaced by {@code
     * value(n)}.
     */
    static String replaceParameters(String statement, IntFunction<String> value) {
        StringBuilder out = new StringBuilder(statement.length());
        int at = 0;
        while (at < statement.length()) {
            char c = statement.charAt(at);
            int digits = at + 1;
            while (c == '$'
                    && digits < statement.length()
                    && Character.isDigit(statement.charAt(digits))) {
                digits++;
            }
            if (c == '$' && digits > at + 1 && !partOfName(statement, at)) {
                String number = statement.substring(at + 1, digits);
                if (number.length() > 5 || Integer.parseInt(number) > MOST_PARAMETERS) {
                    throw new IllegalArgumentException(
                            "parameter $" + number + ": at most $" + MOST_PARAMETERS);
                }
                out.append(value.apply(Integer.parseInt(number)));
                at = digits;
            } else {
                int next = skipQuotedOrComment(statement, at);
                out.append(statement, at, next);
                at = next;
            }
        }
        return out.toString();
    }

    /** A string literal: quotes doubled, as PostgreSQL's standard_conforming_strings reads it. */
    static String literal(String value) {
        return "'" + value.replace("'", "''") + "'";
    }

    private static boolean partOfName(String text, int dollar) {
        return dollar > 0 && isNameCharacter(text.charAt(dollar - 1));
    }

    private static boolean isNameCharacter(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }

    /**
     * The position after the quoted name, string literal or comment that starts at {@code at}, or
     * {@code at + 1} when none starts there. An unterminated one runs to the end.
     */
    private static int skipQuotedOrComment(String text, int at) {
        char c = text.charAt(at);
        if (c == '\'' || c == '"' || c == '`') {
            // E'...': a backslash escapes the next character, a quote among them.
            boolean escapes =
                    c == '\''
                            && at > 0
                            && Character.toUpperCase(text.charAt(at - 1)) == 'E'
                            && !(at > 1 && isNameCharacter(text.charAt(at - 2)));
            int end = at + 1;
            while (end < text.length()) {
                if (escapes && text.charAt(end) == '\\') {
                    end += 2;
                    continue;
                }
                if (text.charAt(end) == c) {
                    if (end + 1 < text.length() && text.charAt(end + 1) == c) {
                        end += 2; // a doubled quote stands for itself
                        continue;
                    }
                    return end + 1;
                }
                end++;
            }
            return text.length();
        }
        if (text.startsWith("--", at) || text.startsWith("//", at)) {
            int end = text.indexOf('\n', at);
            return end < 0 ? text.length() : end + 1;
        }
        if (text.startsWith("/*", at)) {
            int end = text.indexOf("*/", at + 2);
            return end < 0 ? text.length() : end + 2;
        }
        return at + 1;
    }
}
