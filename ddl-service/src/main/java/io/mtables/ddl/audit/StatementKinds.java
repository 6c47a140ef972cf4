package io.mtables.ddl.audit;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What kind of statement a text is, for the audit trail: its leading keywords in upper case ({@code
 * CREATE OR ALTER MATERIALIZED TABLE}, {@code GRANT}, {@code SELECT}), after comments; null when it
 * does not begin with one. Only keywords: a name or a literal never reaches the trail.
 */
public final class StatementKinds {

    private static final Set<String> KEYWORDS =
            Set.of(
                    "CREATE",
                    "ALTER",
                    "DROP",
                    "OR",
                    "REPLACE",
                    "MATERIALIZED",
                    "TEMPORARY",
                    "TABLE",
                    "TABLES",
                    "VIEW",
                    "DATABASE",
                    "SCHEMA",
                    "ROLE",
                    "ROLES",
                    "GRANT",
                    "GRANTS",
                    "REVOKE",
                    "SHOW",
                    "DESCRIBE",
                    "DESC",
                    "EXPLAIN",
                    "PLAN",
                    "FOR",
                    "SELECT",
                    "WITH",
                    "VALUES",
                    "IF",
                    "NOT",
                    "EXISTS",
                    "USE",
                    "CATALOG",
                    "SET",
                    "RESET",
                    "INSERT",
                    "INTO",
                    "ADD",
                    "JAR",
                    "FUNCTION");
    private static final Pattern LEADING_COMMENTS =
            Pattern.compile("\\A(?:\\s+|--[^\\n]*(?:\\n|\\z)|/\\*.*?\\*/)*", Pattern.DOTALL);
    private static final Pattern WORD = Pattern.compile("\\G\\s*([A-Za-z]+)\\b");
    private static final int MOST_WORDS = 5;

    private StatementKinds() {}

    public static String of(String statement) {
        Matcher comments = LEADING_COMMENTS.matcher(statement);
        int start = comments.lookingAt() ? comments.end() : 0;
        Matcher word = WORD.matcher(statement);
        word.region(start, statement.length());
        List<String> words = new ArrayList<>();
        while (words.size() < MOST_WORDS && word.find()) {
            String upper = word.group(1).toUpperCase(Locale.ROOT);
            if (!KEYWORDS.contains(upper)) {
                break;
            }
            words.add(upper);
        }
        return words.isEmpty() ? null : String.join(" ", words);
    }
}
