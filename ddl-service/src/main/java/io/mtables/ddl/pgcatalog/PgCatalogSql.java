package io.mtables.ddl.pgcatalog;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A client's query about PostgreSQL's catalog in the SQL H2 runs it as: {@code pg_catalog} becomes
 * the schema {@code mtpg} that holds the emulation, and the few PostgreSQL spellings H2 does not
 * parse are written its way. String literals are kept as they are ({@code E''} ones unescaped).
 */
final class PgCatalogSql {

    /** A masked literal: its number between two NULs, which no SQL text holds. */
    private static final Pattern MASKED = Pattern.compile("\u0000(\\d+)\u0000");

    private static final Pattern NAMED_OPERATOR =
            Pattern.compile("(?i)OPERATOR\\s*\\(\\s*pg_catalog\\s*\\.\\s*([~!<>=*+\\-/]+)\\s*\\)");
    private static final Pattern DEFAULT_COLLATION =
            Pattern.compile("(?i)\\s+COLLATE\\s+(?:pg_catalog\\s*\\.\\s*)?\"?default\"?");
    private static final Pattern LITERAL_REGCLASS =
            Pattern.compile(
                    "(?i)(\u0000\\d+\u0000)\\s*::\\s*(?:pg_catalog\\s*\\.\\s*)?regclass\\b");
    private static final Pattern ARRAY_CAST =
            Pattern.compile("(?i)::\\s*(?:pg_catalog\\s*\\.\\s*)?\"?[a-z0-9_]+\"?\\s*\\[\\s*\\]");
    private static final Pattern QUALIFIED =
            Pattern.compile(
                    "(?i)\\b(pg_catalog|information_schema)\\s*\\.\\s*(\"[^\"]+\"|[a-z_][a-z0-9_]*)");

    /** H2's own current_database() names H2's database, not the one the catalog emulates. */
    private static final Pattern CURRENT_DATABASE =
            Pattern.compile("(?i)\\b(?:current_database\\s*\\(\\s*\\)|current_catalog\\b)");

    /**
     * pgJDBC's getPrimaryKeys expands a key's column numbers (pg_constraint.conkey or
     * pg_index.indkey) with a set-returning function in its select list, one row per key column,
     * and keeps the rows where the column is the attribute joined: H2 has no such function, so each
     * attribute row says its place in the key itself ({@code mtpg.key_position}), null for the
     * attributes outside the key.
     */
    private static final Pattern EXPANDED_KEY_NUMBER =
            Pattern.compile(
                    "(?i)\\(\\s*information_schema\\._pg_expandarray\\s*\\(\\s*([a-z_]+\\.[a-z_]+)\\s*\\)\\s*\\)\\s*\\.\\s*n\\b");

    private static final Pattern EXPANDED_KEYS =
            Pattern.compile(
                    "(?i)information_schema\\._pg_expandarray\\s*\\(\\s*([a-z_]+\\.[a-z_]+)\\s*\\)\\s+AS\\s+KEYS\\b");

    private static final Pattern EXPANDED_KEY_COLUMN =
            Pattern.compile("(?i)\\(\\s*result\\.KEYS\\s*\\)\\s*\\.\\s*x\\b");

    private PgCatalogSql() {}

    /** {@code sql} as H2 runs it over the emulation. */
    static String toH2(String sql, java.util.Set<String> emulated) {
        List<String> literals = new ArrayList<>();
        String code = mask(sql, literals);
        code = NAMED_OPERATOR.matcher(code).replaceAll(" $1 ");
        code = DEFAULT_COLLATION.matcher(code).replaceAll("");
        code = LITERAL_REGCLASS.matcher(code).replaceAll("mtpg.regclass_of($1)");
        code = ARRAY_CAST.matcher(code).replaceAll("");
        code = qualify(code, emulated);
        code = nameSeriesColumns(code);
        code = TOAST_OPTIONS.matcher(code).replaceAll("");
        code = CURRENT_DATABASE.matcher(code).replaceAll("mtpg.database_name()");
        if (EXPANDED_KEYS.matcher(code).find()) {
            code = EXPANDED_KEY_NUMBER.matcher(code).replaceAll("mtpg.key_position($1, a.attnum)");
            code =
                    EXPANDED_KEYS
                            .matcher(code)
                            .replaceAll(
                                    "CASE WHEN mtpg.key_position($1, a.attnum) IS NULL THEN NULL"
                                            + " ELSE a.attnum END AS KEYS");
            code = EXPANDED_KEY_COLUMN.matcher(code).replaceAll("result.KEYS");
        }
        return unmask(code, literals);
    }

    /**
     * {@code code} with {@code pg_catalog.name} as {@code mtpg.name} and {@code
     * information_schema.name} as {@code mtis.name} when the emulation has that name ({@code
     * emulated} holds them qualified), and other {@code pg_catalog} names unqualified, so that H2's
     * built-in function of the name answers ({@code pg_catalog.unnest}).
     */
    private static String qualify(String code, java.util.Set<String> emulated) {
        Matcher qualified = QUALIFIED.matcher(code);
        StringBuilder out = new StringBuilder(code.length());
        while (qualified.find()) {
            String schema = qualified.group(1).toLowerCase(java.util.Locale.ROOT);
            String name = qualified.group(2);
            String bare = name.replace("\"", "").toLowerCase(java.util.Locale.ROOT);
            boolean catalog = schema.equals("pg_catalog");
            String replacement =
                    emulated.contains(schema + "." + bare)
                            ? (catalog ? "mtpg." : "mtis.") + name
                            : catalog ? name : qualified.group();
            qualified.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        qualified.appendTail(out);
        return out.toString();
    }

    /**
     * psql's {@code \\d+} appends the TOAST table's options through a lateral unnest, which H2 does
     * not have; tables here have no TOAST table.
     */
    private static final Pattern TOAST_OPTIONS =
            Pattern.compile(
                    "(?i)\\|\\|\\s*array\\s*\\(\\s*select\\s+\u0000\\d+\u0000\\s*\\|\\|\\s*x\\s+from\\s+unnest\\s*\\(\\s*tc\\.reloptions\\s*\\)\\s*x\\s*\\)");

    private static final Pattern SERIES = Pattern.compile("(?i)\\bgenerate_series\\s*\\(");
    private static final Pattern ALIAS =
            Pattern.compile("(?i)\\s+(?:AS\\s+)?+([a-z_][a-z0-9_]*+)(?!\\s*\\()");

    /** Words that may follow a function in FROM and are no alias of it. */
    private static final java.util.Set<String> NOT_ALIASES =
            java.util.Set.of(
                    "where",
                    "order",
                    "group",
                    "having",
                    "limit",
                    "offset",
                    "join",
                    "inner",
                    "left",
                    "right",
                    "full",
                    "cross",
                    "natural",
                    "on",
                    "using",
                    "union",
                    "intersect",
                    "except",
                    "window",
                    "fetch",
                    "for");

    /**
     * {@code generate_series(...) s} as {@code generate_series(...) s(s)}: in PostgreSQL the alias
     * of a function of one column names the column too; H2 calls it {@code value}.
     */
    private static String nameSeriesColumns(String code) {
        Matcher series = SERIES.matcher(code);
        StringBuilder out = new StringBuilder(code.length());
        int copied = 0;
        while (series.find(copied)) {
            int depth = 0;
            int end = series.end() - 1;
            for (; end < code.length(); end++) {
                char c = code.charAt(end);
                depth += c == '(' ? 1 : c == ')' ? -1 : 0;
                if (depth == 0) {
                    break;
                }
            }
            if (end >= code.length()) {
                break;
            }
            Matcher alias = ALIAS.matcher(code).region(end + 1, code.length());
            out.append(code, copied, end + 1);
            copied = end + 1;
            if (alias.lookingAt()
                    && !NOT_ALIASES.contains(alias.group(1).toLowerCase(java.util.Locale.ROOT))) {
                out.append(code, end + 1, alias.end())
                        .append('(')
                        .append(alias.group(1))
                        .append(')');
                copied = alias.end();
            }
        }
        return out.append(code.substring(copied)).toString();
    }

    /**
     * Whether {@code sql} is one statement: no {@code ;} outside its literals, identifiers and
     * comments but a trailing one. H2 would run a second statement too.
     */
    static boolean oneStatement(String sql) {
        String code =
                mask(sql, new ArrayList<>()).replaceAll("\"(?:[^\"]|\"\")*\"", "\"\"").strip();
        while (code.endsWith(";")) {
            code = code.substring(0, code.length() - 1).strip();
        }
        return code.indexOf(';') < 0;
    }

    /** Whether {@code sql} names {@code pattern} outside its string literals. */
    static boolean mentions(String sql, Pattern pattern) {
        return pattern.matcher(mask(sql, new ArrayList<>())).find();
    }

    /**
     * {@code sql} with each string literal replaced by a numbered mark, kept in {@code literals}.
     */
    private static String mask(String sql, List<String> literals) {
        StringBuilder out = new StringBuilder(sql.length());
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            boolean escaped =
                    (c == 'E' || c == 'e')
                            && i + 1 < sql.length()
                            && sql.charAt(i + 1) == '\''
                            && (i == 0
                                    || !Character.isLetterOrDigit(sql.charAt(i - 1))
                                            && sql.charAt(i - 1) != '_');
            if (c == '\'' || escaped) {
                int start = escaped ? i + 1 : i;
                int end = literalEnd(sql, start, escaped);
                String body = sql.substring(start + 1, Math.max(start + 1, end - 1));
                literals.add("'" + (escaped ? unescape(body) : body) + "'");
                out.append('\u0000').append(literals.size() - 1).append('\u0000');
                i = end;
            } else if (c == '"') {
                // An identifier in quotes: kept as it is, its quotes never a literal's.
                int end = i + 1;
                while (end < sql.length()) {
                    if (sql.charAt(end) == '"') {
                        if (end + 1 < sql.length() && sql.charAt(end + 1) == '"') {
                            end += 2;
                            continue;
                        }
                        end++;
                        break;
                    }
                    end++;
                }
                out.append(sql, i, end);
                i = end;
            } else if (c == '$' && DOLLAR_TAG.matcher(sql).region(i, sql.length()).lookingAt()) {
                // $tag$...$tag$: a literal with nothing escaped in it.
                Matcher tag = DOLLAR_TAG.matcher(sql).region(i, sql.length());
                tag.lookingAt();
                int close = sql.indexOf(tag.group(), tag.end());
                int end = close < 0 ? sql.length() : close;
                literals.add("'" + sql.substring(tag.end(), end).replace("'", "''") + "'");
                out.append('\u0000').append(literals.size() - 1).append('\u0000');
                i = close < 0 ? sql.length() : close + tag.group().length();
            } else if (c == '-' && sql.startsWith("--", i)) {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? sql.length() : end;
            } else if (c == '/' && sql.startsWith("/*", i)) {
                // PostgreSQL's block comments nest.
                int depth = 0;
                int end = i;
                while (end < sql.length()) {
                    if (sql.startsWith("/*", end)) {
                        depth++;
                        end += 2;
                    } else if (sql.startsWith("*/", end)) {
                        depth--;
                        end += 2;
                        if (depth == 0) {
                            break;
                        }
                    } else {
                        end++;
                    }
                }
                i = end;
                out.append(' ');
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** The opening of a dollar-quoted literal, {@code $$} or {@code $tag$}. */
    private static final Pattern DOLLAR_TAG = Pattern.compile("\\$([A-Za-z_][A-Za-z0-9_]*)?\\$");

    /** The index just past the literal whose opening quote is at {@code start}. */
    private static int literalEnd(String sql, int start, boolean escaped) {
        int i = start + 1;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (escaped && c == '\\') {
                i += 2;
            } else if (c == '\'') {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == '\'') {
                    i += 2;
                } else {
                    return i + 1;
                }
            } else {
                i++;
            }
        }
        return sql.length();
    }

    /**
     * The text of an {@code E''} literal's body, backslash escapes applied (quotes still doubled).
     */
    private static String unescape(String body) {
        StringBuilder out = new StringBuilder(body.length());
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c != '\\' || i + 1 == body.length()) {
                out.append(c);
                continue;
            }
            char next = body.charAt(++i);
            switch (next) {
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                case 'r' -> out.append('\r');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case '\'' -> out.append("''");
                case 'x', 'u', 'U' -> {
                    int digits = next == 'x' ? 2 : next == 'u' ? 4 : 8;
                    int end = i + 1;
                    while (end < body.length()
                            && end - i - 1 < digits
                            && Character.digit(body.charAt(end), 16) >= 0) {
                        end++;
                    }
                    if (end == i + 1) {
                        out.append(next); // no digits: the letter itself, as PostgreSQL reads it
                    } else {
                        appendCodePoint(out, Integer.parseInt(body.substring(i + 1, end), 16));
                        i = end - 1;
                    }
                }
                case '0', '1', '2', '3', '4', '5', '6', '7' -> {
                    int end = i;
                    while (end < body.length()
                            && end - i < 3
                            && body.charAt(end) >= '0'
                            && body.charAt(end) <= '7') {
                        end++;
                    }
                    appendCodePoint(out, Integer.parseInt(body.substring(i, end), 8));
                    i = end - 1;
                }
                default -> out.append(next);
            }
        }
        return out.toString();
    }

    /** A literal array of numbers in PostgreSQL's text form, {@code '{0}'}. */
    private static final Pattern NUMBER_ARRAY =
            Pattern.compile("'\\{\\s*-?\\d+(\\s*,\\s*-?\\d+)*\\s*}'");

    /** A comparison just before a literal. */
    private static final Pattern COMPARED = Pattern.compile("(?:=|<>|!=)\\s*$");

    /** A character of an escape, a quote doubled as the literal it goes into needs. */
    private static void appendCodePoint(StringBuilder out, int codePoint) {
        if (codePoint == '\'') {
            out.append("''");
        } else if (Character.isValidCodePoint(codePoint)) {
            out.appendCodePoint(codePoint);
        }
    }

    private static String unmask(String code, List<String> literals) {
        Matcher masked = MASKED.matcher(code);
        StringBuilder out = new StringBuilder(code.length());
        while (masked.find()) {
            String literal = literals.get(Integer.parseInt(masked.group(1)));
            boolean compared =
                    COMPARED.matcher(
                                    code.substring(Math.max(0, masked.start() - 8), masked.start()))
                            .find();
            if (compared && NUMBER_ARRAY.matcher(literal).matches()) {
                // psql's pol.polroles = '{0}': H2 compares an array with an array, not its text.
                literal = "ARRAY[" + literal.substring(2, literal.length() - 2) + "]";
            }
            masked.appendReplacement(out, Matcher.quoteReplacement(literal));
        }
        masked.appendTail(out);
        return out.toString();
    }
}
