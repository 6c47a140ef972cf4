package io.mtables.ddl.audit;

import io.mtables.ddl.infra.InMemorySql;
import io.mtables.schemas.ddl.StatementAudited;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The newest audit records of {@code mt.ddl.audit}, as the rows of {@code
 * information_schema.audit}: an admin reads every one, anyone else their own statements only.
 */
public class AuditProjection {

    /** The columns of {@code information_schema.audit}, in order. */
    public static final List<InMemorySql.Column> COLUMNS =
            List.of(
                    new InMemorySql.Column("principal", SqlTypeName.VARCHAR, true),
                    new InMemorySql.Column("at", SqlTypeName.TIMESTAMP, false),
                    new InMemorySql.Column("via", SqlTypeName.VARCHAR, false),
                    new InMemorySql.Column("client", SqlTypeName.VARCHAR, false),
                    new InMemorySql.Column("request_id", SqlTypeName.VARCHAR, true),
                    new InMemorySql.Column("statement_sha256", SqlTypeName.VARCHAR, true),
                    new InMemorySql.Column("statement_kind", SqlTypeName.VARCHAR, true),
                    new InMemorySql.Column("table_name", SqlTypeName.VARCHAR, true),
                    new InMemorySql.Column("status", SqlTypeName.VARCHAR, false),
                    new InMemorySql.Column("reason", SqlTypeName.VARCHAR, true));

    private final int kept;
    private final ArrayDeque<StatementAudited> newest = new ArrayDeque<>();

    /**
     * @param kept how many records it holds, the newest
     */
    public AuditProjection(int kept) {
        this.kept = kept;
    }

    public synchronized void add(StatementAudited audited) {
        newest.addLast(audited);
        if (newest.size() > kept) {
            newest.removeFirst();
        }
    }

    /**
     * The rows the caller may read, oldest first.
     *
     * @param principal the principal the query fixes ({@code WHERE principal = 'x'}), if it does
     * @param readable whether the caller may read a principal's records (null: unauthenticated
     *     senders')
     */
    public synchronized List<Object[]> rows(
            Optional<String> principal, Predicate<String> readable) {
        List<Object[]> rows = new ArrayList<>();
        for (StatementAudited audited : newest) {
            if (principal.isPresent() && !principal.get().equals(audited.principal())) {
                continue;
            }
            if (!readable.test(audited.principal())) {
                continue;
            }
            rows.add(
                    new Object[] {
                        audited.principal(),
                        audited.at().toEpochMilli(),
                        audited.via(),
                        audited.client(),
                        audited.requestId(),
                        audited.statementSha256(),
                        audited.statementKind(),
                        audited.table(),
                        Objects.toString(audited.status()),
                        audited.reason()
                    });
        }
        return rows;
    }
}
