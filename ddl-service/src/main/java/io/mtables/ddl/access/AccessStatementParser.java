package io.mtables.ddl.access;

import io.mtables.ddl.access.AccessStatement.Grantee;
import io.mtables.ddl.access.AccessStatement.Name;
import io.mtables.ddl.access.AccessStatement.ObjectKind;
import io.mtables.ddl.domain.SourcePosition;
import io.mtables.ddl.domain.StatementException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the statements about roles and privileges. Flink's SQL parser has no GRANT, REVOKE or
 * roles, and extending its generated grammar for six statements would tie them to Flink's parser
 * build; these few productions are read here, with the same rules for names ({@code `quoted`}
 * identifiers, dots) and string literals ({@code 'it''s'}) and the same kind of refusal: what was
 * expected, where, and the statement's form.
 *
 * <pre>
 * CREATE ROLE role
 * DROP ROLE [IF EXISTS] role
 * GRANT ROLE role TO member           REVOKE ROLE role FROM member
 * GRANT privileges ON SCHEMA schema TO grantee
 * GRANT privileges ON [TABLE | MATERIALIZED TABLE] table TO grantee
 * GRANT SELECT ON TOPIC 'topic' TO grantee       ('prefix*': every topic whose name starts so)
 * REVOKE privileges ON ... FROM grantee
 * SHOW GRANTS [ON SCHEMA schema | ON [TABLE] table | ON TOPIC 'topic' | TO grantee]
 * SHOW ROLES
 *
 * privileges: ALL [PRIVILEGES] | SELECT | CREATE | ALTER | DROP [, ...]
 * grantee:    ROLE role | member
 * member:     USER 'subject' | SERVICE ACCOUNT account
 * </pre>
 */
public final class AccessStatementParser {

    /** The forms, as refusals list them. */
    public static final String FORMS =
            "CREATE ROLE r; DROP ROLE [IF EXISTS] r; GRANT ROLE r TO USER 'sub' | SERVICE ACCOUNT"
                + " a; REVOKE ROLE r FROM ...; GRANT SELECT|CREATE|ALTER|DROP [, ...] | ALL ON"
                + " SCHEMA s | [TABLE] t TO ROLE r | USER 'sub' | SERVICE ACCOUNT a; GRANT SELECT"
                + " ON TOPIC 'topic' | 'prefix*' TO ...; REVOKE ... FROM ...; SHOW GRANTS [ON"
                + " SCHEMA s | ON [TABLE] t | ON TOPIC 'topic' | TO ...]; SHOW ROLES";

    /**
     * A topic as a grant names it: a Kafka topic's name (letters, digits, '.', '_', '-'; at most
     * 249), or a prefix of names followed by {@code *}.
     */
    public static final Pattern TOPIC =
            Pattern.compile("[A-Za-z0-9._-]{1,249}|[A-Za-z0-9._-]{0,248}\\*");

    /** Role and account names, as the service accounts' (docs/security.md). */
    public static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_-]*");

    private enum Kind {
        WORD,
        QUOTED_IDENTIFIER,
        STRING,
        DOT,
        COMMA,
        SEMICOLON,
        END
    }

    private record Token(Kind kind, String text, SourcePosition at) {

        boolean is(String keyword) {
            return kind == Kind.WORD && text.equalsIgnoreCase(keyword);
        }

        String shown() {
            return switch (kind) {
                case END -> "the end of the statement";
                case STRING -> "'" + text + "'";
                case QUOTED_IDENTIFIER -> "`" + text + "`";
                default -> "'" + text + "'";
            };
        }
    }

    private final List<Token> tokens;
    private int next;

    private AccessStatementParser(String text) {
        this.tokens = tokenize(text);
    }

    private static final Pattern FIRST_WORDS =
            Pattern.compile(
                    "(?is)^(\\s|--[^\\n]*(\\n|$)|/\\*.*?\\*/)*"
                            + "(GRANT|REVOKE|(CREATE|DROP)\\s+ROLE|SHOW\\s+(GRANTS|ROLES))\\b");

    /** Whether {@code text} is one of these statements (by its first words). */
    public static boolean isAccessStatement(String text) {
        return FIRST_WORDS.matcher(text).lookingAt();
    }

    /** Reads one statement; refuses anything else, saying what was expected where. */
    public static AccessStatement parse(String text) {
        AccessStatementParser parser = new AccessStatementParser(text);
        AccessStatement statement = parser.statement();
        if (parser.peek().kind() == Kind.SEMICOLON) {
            parser.next++;
        }
        parser.expectEnd();
        return statement;
    }

    private AccessStatement statement() {
        Token first = take();
        if (first.is("CREATE")) {
            keyword("ROLE");
            Token role = roleName();
            return new AccessStatement.CreateRole(role.text(), role.at());
        }
        if (first.is("DROP")) {
            keyword("ROLE");
            boolean ifExists = false;
            if (peek().is("IF")) {
                take();
                keyword("EXISTS");
                ifExists = true;
            }
            Token role = roleName();
            return new AccessStatement.DropRole(role.text(), ifExists, role.at());
        }
        if (first.is("SHOW")) {
            if (take().is("ROLES")) {
                return new AccessStatement.ShowRoles();
            }
            return showGrants();
        }
        boolean grant = first.is("GRANT");
        if (peek().is("ROLE")) {
            take();
            Token role = roleName();
            keyword(grant ? "TO" : "FROM");
            return new AccessStatement.RoleMembership(grant, role.text(), role.at(), member());
        }
        SourcePosition privilegesAt = peek().at();
        boolean all = peek().is("ALL");
        List<Privilege> privileges = privileges();
        keyword("ON");
        ObjectKind on = objectKind();
        Name object = on == ObjectKind.TOPIC ? topic() : name();
        keyword(grant ? "TO" : "FROM");
        return new AccessStatement.Privileges(
                grant, privileges, all, privilegesAt, on, object, grantee());
    }

    private AccessStatement showGrants() {
        if (peek().kind() == Kind.END || peek().kind() == Kind.SEMICOLON) {
            return new AccessStatement.ShowGrants(null, null, null, null);
        }
        Token word = take();
        if (word.is("TO")) {
            return new AccessStatement.ShowGrants(null, null, null, grantee());
        }
        if (!word.is("ON")) {
            throw expected("ON or TO", word);
        }
        return switch (objectKind()) {
            case SCHEMA -> new AccessStatement.ShowGrants(name(), null, null, null);
            case TABLE -> new AccessStatement.ShowGrants(null, name(), null, null);
            case TOPIC -> new AccessStatement.ShowGrants(null, null, topic(), null);
        };
    }

    /** After ON: SCHEMA (or DATABASE), TOPIC, TABLE, MATERIALIZED TABLE, or nothing (a table). */
    private ObjectKind objectKind() {
        if (peek().is("SCHEMA") || peek().is("DATABASE")) {
            take();
            return ObjectKind.SCHEMA;
        }
        if (peek().is("TOPIC")) {
            take();
            return ObjectKind.TOPIC;
        }
        if (peek().is("MATERIALIZED")) {
            take();
            keyword("TABLE");
        } else if (peek().is("TABLE")) {
            take();
        }
        return ObjectKind.TABLE;
    }

    /** A topic, or a prefix of topics, as a string: {@code 'cdc.shop.orders'}, {@code 'cdc.*'}. */
    private Name topic() {
        Token token = take();
        if (token.kind() != Kind.STRING) {
            throw expected("a topic as a string, e.g. TOPIC 'cdc.public.users' or 'cdc.*'", token);
        }
        if (!TOPIC.matcher(token.text()).matches()) {
            throw StatementException.invalidAt(
                    "InvalidName",
                    "Topic '"
                            + token.text()
                            + "' is not a Kafka topic's name or a prefix of names ending in '*'."
                            + " Nothing was changed.",
                    token.at(),
                    "letters, digits, '.', '_' and '-' (at most 249), or a prefix of them and '*'");
        }
        return new Name(List.of(token.text()), token.at());
    }

    private List<Privilege> privileges() {
        if (peek().is("ALL")) {
            take();
            if (peek().is("PRIVILEGES")) {
                take();
            }
            return List.of(Privilege.values());
        }
        Set<Privilege> privileges = EnumSet.noneOf(Privilege.class);
        do {
            Token word = take();
            Privilege privilege = privilegeNamed(word);
            if (privilege == null) {
                throw expected("a privilege (SELECT, CREATE, ALTER, DROP or ALL)", word);
            }
            privileges.add(privilege);
        } while (comma());
        return List.copyOf(privileges);
    }

    private static Privilege privilegeNamed(Token word) {
        if (word.kind() != Kind.WORD) {
            return null;
        }
        for (Privilege privilege : Privilege.values()) {
            if (word.is(privilege.name())) {
                return privilege;
            }
        }
        return null;
    }

    private boolean comma() {
        if (peek().kind() == Kind.COMMA) {
            take();
            return true;
        }
        return false;
    }

    private Grantee grantee() {
        if (peek().is("ROLE")) {
            Token at = take();
            return new Grantee(AccessControl.ROLE + roleName().text(), at.at());
        }
        return member();
    }

    private Grantee member() {
        Token word = take();
        if (word.is("USER")) {
            Token subject = take();
            if (subject.kind() != Kind.STRING || subject.text().isBlank()) {
                throw expected("the user's subject as a string, e.g. USER 'alice'", subject);
            }
            return new Grantee("user:" + subject.text(), word.at());
        }
        if (word.is("SERVICE")) {
            keyword("ACCOUNT");
            Token account = take();
            String name = identifier(account);
            if (name == null || !NAME.matcher(name).matches()) {
                throw expected("an account name (" + NAME.pattern() + ")", account);
            }
            return new Grantee("service-account:" + name, word.at());
        }
        throw expected("ROLE r, USER 'subject' or SERVICE ACCOUNT a", word);
    }

    private Token roleName() {
        Token token = take();
        String name = identifier(token);
        if (name == null) {
            throw expected("a role name", token);
        }
        String role = token.kind() == Kind.WORD ? name.toLowerCase(Locale.ROOT) : name;
        if (!NAME.matcher(role).matches()) {
            throw StatementException.invalidAt(
                    "InvalidName",
                    "Role name '"
                            + role
                            + "' is not allowed: lower-case letters, digits, '_' and '-',"
                            + " starting with a letter or digit. Nothing was changed.",
                    token.at(),
                    NAME.pattern());
        }
        return new Token(token.kind(), role, token.at());
    }

    private Name name() {
        SourcePosition at = peek().at();
        List<String> parts = new ArrayList<>();
        do {
            Token part = take();
            String identifier = identifier(part);
            if (identifier == null) {
                throw expected("a name", part);
            }
            parts.add(identifier);
        } while (dot());
        return new Name(parts, at);
    }

    private boolean dot() {
        if (peek().kind() == Kind.DOT) {
            take();
            return true;
        }
        return false;
    }

    /** The identifier a token is, or null: a plain word or a `quoted` one. */
    private static String identifier(Token token) {
        return token.kind() == Kind.WORD || token.kind() == Kind.QUOTED_IDENTIFIER
                ? token.text()
                : null;
    }

    private void keyword(String keyword) {
        Token token = take();
        if (!token.is(keyword)) {
            throw expected(keyword, token);
        }
    }

    private void expectEnd() {
        Token token = peek();
        if (token.kind() != Kind.END) {
            throw expected("the end of the statement", token);
        }
    }

    private Token peek() {
        return tokens.get(next);
    }

    private Token take() {
        Token token = tokens.get(next);
        if (token.kind() != Kind.END) {
            next++;
        }
        return token;
    }

    private static StatementException expected(String what, Token found) {
        return StatementException.invalidAt(
                "InvalidStatement",
                "Expected "
                        + what
                        + " at line "
                        + found.at().line()
                        + ", column "
                        + found.at().column()
                        + ", found "
                        + found.shown()
                        + ".",
                found.at(),
                FORMS);
    }

    /** Words, `quoted` identifiers, 'strings', dots, commas and semicolons; comments skipped. */
    private static List<Token> tokenize(String text) {
        List<Token> tokens = new ArrayList<>();
        int i = 0;
        int line = 1;
        int lineStart = 0;
        while (true) {
            // Whitespace and comments.
            while (i < text.length()) {
                char c = text.charAt(i);
                if (c == '\n') {
                    line++;
                    lineStart = i + 1;
                    i++;
                } else if (Character.isWhitespace(c)) {
                    i++;
                } else if (text.startsWith("--", i)) {
                    while (i < text.length() && text.charAt(i) != '\n') {
                        i++;
                    }
                } else if (text.startsWith("/*", i)) {
                    int end = text.indexOf("*/", i + 2);
                    int stop = end < 0 ? text.length() : end + 2;
                    for (int j = i; j < stop; j++) {
                        if (text.charAt(j) == '\n') {
                            line++;
                            lineStart = j + 1;
                        }
                    }
                    i = stop;
                } else {
                    break;
                }
            }
            SourcePosition at = new SourcePosition(line, i - lineStart + 1);
            if (i >= text.length()) {
                tokens.add(new Token(Kind.END, "", at));
                return tokens;
            }
            char c = text.charAt(i);
            if (Character.isLetterOrDigit(c) || c == '_') {
                // Names as role and account names are written: digits first and '-' inside too.
                int start = i;
                while (i < text.length()
                        && (Character.isLetterOrDigit(text.charAt(i))
                                || text.charAt(i) == '_'
                                || text.charAt(i) == '-' && !text.startsWith("--", i))) {
                    i++;
                }
                tokens.add(new Token(Kind.WORD, text.substring(start, i), at));
            } else if (c == '`' || c == '\'') {
                StringBuilder value = new StringBuilder();
                int j = i + 1;
                while (true) {
                    if (j >= text.length() || text.charAt(j) == '\n' && c == '`') {
                        throw StatementException.invalidAt(
                                "InvalidStatement",
                                (c == '`' ? "A quoted identifier" : "A string")
                                        + " is not closed (line "
                                        + at.line()
                                        + ", column "
                                        + at.column()
                                        + ").",
                                at,
                                c == '`'
                                        ? "`name`, with `` for a backtick"
                                        : "'text', with ''" + " for a quote");
                    }
                    char d = text.charAt(j);
                    if (d == c) {
                        if (j + 1 < text.length() && text.charAt(j + 1) == c) {
                            value.append(c);
                            j += 2;
                            continue;
                        }
                        break;
                    }
                    if (d == '\n') {
                        line++;
                        lineStart = j + 1;
                    }
                    value.append(d);
                    j++;
                }
                i = j + 1;
                tokens.add(
                        new Token(
                                c == '`' ? Kind.QUOTED_IDENTIFIER : Kind.STRING,
                                value.toString(),
                                at));
            } else if (c == '.' || c == ',' || c == ';') {
                tokens.add(
                        new Token(
                                c == '.' ? Kind.DOT : c == ',' ? Kind.COMMA : Kind.SEMICOLON,
                                String.valueOf(c),
                                at));
                i++;
            } else {
                throw StatementException.invalidAt(
                        "InvalidStatement",
                        "Unexpected character '"
                                + c
                                + "' at line "
                                + at.line()
                                + ", column "
                                + at.column()
                                + ".",
                        at,
                        FORMS);
            }
        }
    }
}
