package io.mtables.ddl.statements;

import io.mtables.ddl.domain.StatementException;
import io.mtables.ddl.infra.FlinkSql;
import io.mtables.schemas.catalog.TableDefinition.Freshness;
import java.util.Set;
import org.apache.calcite.sql.SqlIntervalLiteral;

/**
 * {@code INTERVAL 'n' UNIT} of SET FRESHNESS, checked with the same rules Flink applies on CREATE.
 */
final class FreshnessLiteral {

    private static final Set<String> UNITS = Set.of("SECOND", "MINUTE", "HOUR", "DAY");

    private FreshnessLiteral() {}

    static Freshness parse(SqlIntervalLiteral literal) {
        var value = (SqlIntervalLiteral.IntervalValue) literal.getValue();
        String unit = value.getIntervalQualifier().timeUnitRange.name();
        if (!UNITS.contains(unit)) {
            throw StatementException.invalidAt(
                    "InvalidFreshness",
                    "Materialized table freshness only supports SECOND, MINUTE, HOUR, DAY as the"
                            + " time unit, not "
                            + unit
                            + ".",
                    FlinkSql.positionOf(literal),
                    "INTERVAL 'n' SECOND | MINUTE | HOUR | DAY with n a positive integer");
        }
        String text = (value.getSign() < 0 ? "-" : "") + value.getIntervalLiteral().strip();
        int interval;
        try {
            interval = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            interval = 0;
        }
        if (interval <= 0) {
            throw StatementException.invalidAt(
                    "InvalidFreshness",
                    "The freshness interval only supports positive integer values, but was: "
                            + text
                            + ".",
                    FlinkSql.positionOf(literal),
                    "INTERVAL 'n' SECOND | MINUTE | HOUR | DAY with n a positive integer");
        }
        return new Freshness(interval, unit);
    }
}
