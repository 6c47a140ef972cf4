package io.mtables.ddl.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.mtables.ddl.domain.StatementException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The statements about roles and privileges, read without Flink: each form, and refusals. */
class AccessStatementParserTest {

    @Test
    void everyFormIsRead() {
        assertThat(AccessStatementParser.parse("CREATE ROLE Analysts;"))
                .isEqualTo(new AccessStatement.CreateRole("analysts", at(1, 13)));
        assertThat(AccessStatementParser.parse("drop role if exists `etl-1`"))
                .isEqualTo(new AccessStatement.DropRole("etl-1", true, at(1, 21)));
        var membership =
                (AccessStatement.RoleMembership)
                        AccessStatementParser.parse("REVOKE ROLE r FROM SERVICE ACCOUNT ci");
        assertThat(membership.grant()).isFalse();
        assertThat(membership.member().principal()).isEqualTo("service-account:ci");
        var grant =
                (AccessStatement.Privileges)
                        AccessStatementParser.parse(
                                "GRANT select, ALTER ON MATERIALIZED TABLE `shop`.o_1 TO USER"
                                        + " 'o''brien@example.com' -- why\n");
        assertThat(grant.privileges()).containsExactly(Privilege.SELECT, Privilege.ALTER);
        assertThat(grant.on()).isEqualTo(AccessStatement.ObjectKind.TABLE);
        assertThat(grant.object().parts()).containsExactly("shop", "o_1");
        assertThat(grant.grantee().principal()).isEqualTo("user:o'brien@example.com");
        var all =
                (AccessStatement.Privileges)
                        AccessStatementParser.parse(
                                "GRANT ALL PRIVILEGES ON SCHEMA shop TO ROLE r");
        assertThat(all.privileges()).containsExactly(Privilege.values());
        assertThat(all.on()).isEqualTo(AccessStatement.ObjectKind.SCHEMA);
        assertThat(all.grantee().isRole()).isTrue();
        assertThat(AccessStatementParser.parse("SHOW GRANTS TO ROLE r"))
                .isEqualTo(
                        new AccessStatement.ShowGrants(
                                null,
                                null,
                                null,
                                new AccessStatement.Grantee("role:r", at(1, 16))));
        var topics =
                (AccessStatement.Privileges)
                        AccessStatementParser.parse(
                                "REVOKE SELECT ON TOPIC 'cdc.shop-1.*' FROM ROLE r");
        assertThat(topics.on()).isEqualTo(AccessStatement.ObjectKind.TOPIC);
        assertThat(topics.object().parts()).containsExactly("cdc.shop-1.*");
        assertThat(AccessStatementParser.parse("SHOW GRANTS ON TOPIC 'cdc.public.users'"))
                .isEqualTo(
                        new AccessStatement.ShowGrants(
                                null,
                                null,
                                new AccessStatement.Name(List.of("cdc.public.users"), at(1, 22)),
                                null));
        assertThat(AccessStatementParser.parse("SHOW ROLES"))
                .isInstanceOf(AccessStatement.ShowRoles.class);
        assertThat(AccessStatementParser.parse("CREATE ROLE 1st-line--x\n"))
                .as("names as accounts are written: a digit first, '-' inside; '--' a comment")
                .isEqualTo(new AccessStatement.CreateRole("1st-line", at(1, 13)));
        var account =
                (AccessStatement.RoleMembership)
                        AccessStatementParser.parse("GRANT ROLE r TO SERVICE ACCOUNT ci-bot");
        assertThat(account.member().principal()).isEqualTo("service-account:ci-bot");
    }

    @Test
    void onlyTheseStatementsAreTakenForAccessStatements() {
        for (String access :
                List.of("GRANT", " /* c */ revoke x", "-- c\nCREATE  ROLE r", "SHOW\nGRANTS")) {
            assertThat(AccessStatementParser.isAccessStatement(access)).as(access).isTrue();
        }
        for (String other :
                List.of(
                        "CREATE TABLE grant (a INT)",
                        "SHOW TABLES",
                        "GRANTED",
                        "SELECT 'GRANT'",
                        "CREATE ROLES")) {
            assertThat(AccessStatementParser.isAccessStatement(other)).as(other).isFalse();
        }
    }

    @Test
    void aWrongStatementIsRefusedWithWhatWasExpectedWhere() {
        assertRefused("GRANT SELECT TO USER 'a'", 1, 14, "Expected ON");
        assertRefused("GRANT SELECT ON t TO USER a", 1, 27, "the user's subject as a string");
        assertRefused("GRANT SELECT ON t TO\n  alice", 2, 3, "ROLE r, USER 'subject'");
        assertRefused("CREATE ROLE `Bad Name`", 1, 13, "Role name 'Bad Name' is not allowed");
        assertRefused("GRANT SELECT ON t TO ROLE r extra", 1, 29, "the end of the statement");
        assertRefused("GRANT SELECT ON t TO USER 'a", 1, 27, "is not closed");
        assertRefused("GRANT SELECT ON t TO SERVICE ACCOUNT `A B`", 1, 38, "an account name");
        assertRefused("GRANT SELECT ON t.* TO ROLE r", 1, 19, "Unexpected character '*'");
        assertRefused("GRANT SELECT ON TOPIC cdc.users TO ROLE r", 1, 23, "a topic as a string");
        assertRefused(
                "GRANT SELECT ON TOPIC 'cdc.users;mt.ddl.commands' TO ROLE r",
                1,
                23,
                "is not a Kafka topic's name or a prefix");
        assertRefused("GRANT SELECT ON TOPIC 'cdc.*.users' TO ROLE r", 1, 23, "a prefix of names");
    }

    private static void assertRefused(String statement, int line, int column, String message) {
        StatementException e =
                catchThrowableOfType(
                        () -> AccessStatementParser.parse(statement), StatementException.class);
        assertThat(e).as(statement).isNotNull();
        var error = e.toError();
        assertThat(error.message()).as(statement).contains(message);
        assertThat(error.line()).as(statement).isEqualTo(line);
        assertThat(error.column()).as(statement).isEqualTo(column);
        assertThat(error.allowed()).as(statement).isNotBlank();
    }

    private static io.mtables.ddl.domain.SourcePosition at(int line, int column) {
        return new io.mtables.ddl.domain.SourcePosition(line, column);
    }
}
