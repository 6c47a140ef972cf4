package io.mtables.ddl.infra;

import io.mtables.ddl.domain.SourcePosition;
import io.mtables.ddl.domain.StatementException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns Flink's and Calcite's exceptions into {@link StatementException}s that say what is wrong,
 * where, and what is allowed. Classes are matched by name: Calcite lives in the planner's own class
 * loader, so its exception types are not ours.
 */
final class FlinkErrors {

    private static final Pattern AT = Pattern.compile("at line (\\d+), column (\\d+)");
    private static final Pattern FROM =
            Pattern.compile("^From line (\\d+), column (\\d+) to line \\d+, column \\d+: ");
    private static final Pattern ENCOUNTERED = Pattern.compile("Encountered \"(.*?)\" at line");
    private static final int MAX_EXPECTED = 12;

    private FlinkErrors() {}

    /** A parse error: the token, its place, and what the grammar expected there. */
    static StatementException syntax(Throwable error) {
        String message = firstLine(deepest(error).getMessage());
        SourcePosition at = position(message, AT);
        List<String> expected = expectedTokens(deepest(error).getMessage());
        String allowed = expected.isEmpty() ? null : "one of " + String.join(", ", expected);
        return StatementException.invalidAt("SyntaxError", "Syntax error: " + message, at, allowed);
    }

    /** The token a parse error stopped at, or null. */
    static String encounteredToken(Throwable error) {
        Matcher matcher = ENCOUNTERED.matcher(String.valueOf(deepest(error).getMessage()));
        return matcher.find() ? matcher.group(1) : null;
    }

    /** The place of a parse error, or null. */
    static SourcePosition syntaxPosition(Throwable error) {
        return position(String.valueOf(deepest(error).getMessage()), AT);
    }

    /**
     * A validation error from converting a parsed statement: every distinct message of the chain.
     */
    static StatementException validation(Throwable error) {
        SourcePosition at = null;
        List<String> messages = new ArrayList<>();
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            String message = cause.getMessage();
            if (message == null || message.isBlank()) {
                continue;
            }
            Matcher from = FROM.matcher(message);
            if (from.find()) {
                at =
                        at != null
                                ? at
                                : new SourcePosition(
                                        Integer.parseInt(from.group(1)),
                                        Integer.parseInt(from.group(2)));
                message = message.substring(from.end());
            }
            message = message.replaceFirst("^SQL validation failed\\. ", "").strip();
            String flat = message.replaceAll("\\s*\\n\\s*", " ");
            if (messages.stream().noneMatch(seen -> seen.contains(flat))) {
                messages.add(flat);
            }
        }
        String text =
                messages.isEmpty() ? error.getClass().getSimpleName() : String.join(": ", messages);
        return StatementException.invalidAt("InvalidStatement", text, at, null);
    }

    private static SourcePosition position(String message, Pattern pattern) {
        if (message == null) {
            return null;
        }
        Matcher matcher = pattern.matcher(message);
        return matcher.find()
                ? new SourcePosition(
                        Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2)))
                : null;
    }

    private static List<String> expectedTokens(String message) {
        List<String> tokens = new ArrayList<>();
        if (message == null) {
            return tokens;
        }
        boolean inList = false;
        for (String line : message.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.startsWith("Was expecting")) {
                inList = true;
            } else if (inList && trimmed.endsWith("...")) {
                tokens.add(trimmed.substring(0, trimmed.length() - 3).strip());
            }
        }
        if (tokens.size() > MAX_EXPECTED) {
            int more = tokens.size() - MAX_EXPECTED;
            tokens = new ArrayList<>(tokens.subList(0, MAX_EXPECTED));
            tokens.add("and " + more + " more");
        }
        return tokens;
    }

    private static Throwable deepest(Throwable error) {
        Throwable deepest = error;
        while (deepest.getCause() != null && deepest.getCause() != deepest) {
            deepest = deepest.getCause();
        }
        return deepest;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int newline = message.indexOf('\n');
        return (newline < 0 ? message : message.substring(0, newline)).strip();
    }
}
