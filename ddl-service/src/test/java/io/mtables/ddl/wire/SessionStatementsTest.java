package io.mtables.ddl.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.schemas.ddl.StatementResult.ResultColumn;
import java.util.List;
import org.junit.jupiter.api.Test;

class SessionStatementsTest {

    private final SessionStatements statements = new SessionStatements("PostgreSQL 15.0 (test)");
    private final Session session = new Session("service-account:tests", "psql");

    @Test
    void setAndShowASetting() {
        assertThat(statements.answer("SET extra_float_digits = 3", session))
                .contains(new Reply.Done("SET", List.of()));
        assertThat(statements.answer("set application_name to 'it''s mine';", session))
                .contains(new Reply.Done("SET", List.of()));

        assertThat(statements.answer("SHOW application_name", session).orElseThrow())
                .isInstanceOfSatisfying(
                        Reply.Rows.class,
                        rows -> assertThat(rows.rows()).containsExactly(List.of("it's mine")));
        assertThat(statements.answer("SHOW transaction_isolation", session)).isPresent();
    }

    @Test
    void theDialectsOwnShowAndSetAreLeftToIt() {
        assertThat(statements.answer("SHOW TABLES", session)).isEmpty();
        assertThat(statements.answer("SHOW MATERIALIZED TABLES", session)).isEmpty();
        assertThat(
                        statements.answer(
                                "SET 'table.exec.resource.default-parallelism' = '4'", session))
                .isEmpty();
    }

    @Test
    void aPoolsCheckIsAnswered() {
        assertThat(statements.answer("select 1;", session)).containsInstanceOf(Reply.Rows.class);
        assertThat(statements.answer("SELECT 1 FROM t", session)).isEmpty();
    }

    @Test
    void theDatabaseAndUserAreTheSessions() {
        assertThat(statements.answer("select current_database()", session).orElseThrow())
                .isEqualTo(
                        new Reply.Rows(
                                List.of(new ResultColumn("current_database", "STRING")),
                                List.of(List.of("default_catalog")),
                                List.of()));
        assertThat(statements.answer("SELECT current_user;", session).orElseThrow())
                .isInstanceOfSatisfying(
                        Reply.Rows.class,
                        rows ->
                                assertThat(rows.rows())
                                        .containsExactly(List.of("service-account:tests")));
        assertThat(statements.answer("SELECT current_user FROM t", session)).isEmpty();
    }

    @Test
    void savepointsAreRefusedNotTakenForARollback() {
        statements.answer("BEGIN", session);

        assertThat(statements.answer("ROLLBACK TO SAVEPOINT s", session).orElseThrow())
                .isInstanceOfSatisfying(
                        Reply.Failed.class,
                        failed -> assertThat(failed.sqlState()).isEqualTo("0A000"));
        assertThat(session.transaction).isEqualTo(Session.Transaction.BLOCK);
    }

    @Test
    void onlyUtf8IsSpoken() {
        assertThat(statements.answer("SET client_encoding = 'LATIN1'", session).orElseThrow())
                .isInstanceOfSatisfying(
                        Reply.Failed.class,
                        failed -> assertThat(failed.sqlState()).isEqualTo("0A000"));
    }

    @Test
    void aFailedBlockIgnoresEverythingUntilItEnds() {
        statements.answer("BEGIN", session);
        assertThat(session.transaction).isEqualTo(Session.Transaction.BLOCK);
        session.failed();

        assertThat(statements.answer("SHOW TABLES", session).orElseThrow())
                .isInstanceOfSatisfying(
                        Reply.Failed.class,
                        failed -> assertThat(failed.sqlState()).isEqualTo("25P02"));
        assertThat(statements.answer("BEGIN", session)).isPresent();
        assertThat(session.transaction)
                .as("BEGIN inside a failed block leaves it failed")
                .isEqualTo(Session.Transaction.FAILED);
        assertThat(statements.answer("COMMIT", session))
                .contains(new Reply.Done("ROLLBACK", List.of()));
        assertThat(session.transaction).isEqualTo(Session.Transaction.IDLE);
    }
}
