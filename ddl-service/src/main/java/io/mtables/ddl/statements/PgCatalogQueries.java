package io.mtables.ddl.statements;

import io.mtables.ddl.domain.Catalog;
import io.mtables.ddl.domain.StatementException;
import io.mtables.ddl.infra.WarehouseReader;
import io.mtables.ddl.pgcatalog.PgCatalog;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDefinition.Kind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A query over PostgreSQL's catalog (psql's {@code \d}, pgJDBC's DatabaseMetaData), answered over
 * the source and materialized tables the caller may see, off the catalog's lock.
 */
class PgCatalogQueries {

    /**
     * One emulation for every router: it refills itself when the tables it is asked about change.
     */
    private static final PgCatalog PG_CATALOG = new PgCatalog();

    private final Catalog catalog;
    private final int maxRows;
    private final Duration timeout;

    PgCatalogQueries(Catalog catalog, int maxRows, Duration timeout) {
        this.catalog = catalog;
        this.maxRows = maxRows;
        this.timeout = timeout;
    }

    Outcome query(String statement, Predicate<TableDefinition> visible) {
        List<TableDefinition> seen = new ArrayList<>();
        catalog.tables(Kind.SOURCE_TABLE).stream().filter(visible).forEach(seen::add);
        catalog.tables(Kind.MATERIALIZED_TABLE).stream().filter(visible).forEach(seen::add);
        return new Outcome.Read(
                () -> {
                    PgCatalog.Answer answer = PG_CATALOG.query(statement, seen, maxRows, timeout);
                    if (answer.rows().size() > maxRows) {
                        throw StatementException.invalid(
                                WarehouseReader.RESULT_TOO_LARGE,
                                "The query over pg_catalog answers more than "
                                        + maxRows
                                        + " rows (mt.ddl.read-max-rows); nothing was sent.",
                                "a WHERE that selects fewer rows, or LIMIT");
                    }
                    return new Outcome.Rows(answer.columns(), answer.rows());
                });
    }
}
