package io.mtables.planning;

import io.mtables.schemas.catalog.TableDefinition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.flink.sql.parser.ddl.SqlCreateTable;
import org.apache.flink.sql.parser.ddl.SqlTableOption;

/**
 * Whether a query's change streams may deliver an event twice, read from how their source tables
 * are declared. A change stream read from Kafka with {@code 'properties.isolation.level' =
 * 'read_committed'} comes from a transactional producer that writes each change once
 * (cdc-capture-service; Kafka Connect with {@code exactly.once.source.support}), and Flink's source
 * reads it once more only as part of a restored checkpoint: nothing to drop. Any other change
 * stream may repeat events after its producer restarts, so Flink drops repeats by key ({@code
 * ChangelogNormalize}), at the price of holding each of its rows in state once more.
 */
public final class ChangeStreamDelivery {

    /** Formats whose records are changes (inserts, updates, deletes) rather than appended rows. */
    private static final Set<String> CHANGE_FORMATS =
            Set.of(
                    "debezium-json",
                    "debezium-avro-confluent",
                    "canal-json",
                    "maxwell-json",
                    "ogg-json");

    private ChangeStreamDelivery() {}

    /**
     * The source tables of {@code table} read as change streams that may repeat an event, by their
     * fully qualified names; empty when every change stream is read exactly once (or there is
     * none).
     */
    public static List<String> atLeastOnce(TableDefinition table) {
        List<String> repeating = new ArrayList<>();
        for (TableDefinition.SourceTable source : table.sources()) {
            if (source.kind() == TableDefinition.Kind.SOURCE_TABLE
                    && options(source.statement())
                            .map(ChangeStreamDelivery::mayRepeat)
                            .orElse(true)) {
                repeating.add(source.table());
            }
        }
        return List.copyOf(repeating);
    }

    /** Whether a source table with these options is a change stream that may repeat an event. */
    static boolean mayRepeat(Map<String, String> options) {
        String format = options.getOrDefault("format", options.get("value.format"));
        if (format == null || !CHANGE_FORMATS.contains(format)) {
            return false;
        }
        return !("kafka".equals(options.get("connector"))
                && "read_committed".equals(options.get("properties.isolation.level")));
    }

    /**
     * The WITH options of a CREATE TABLE statement; empty for a statement not read as one
     * (ddl-service parsed every declared source already), which is then taken to repeat events: the
     * safe side.
     */
    private static Optional<Map<String, String>> options(String statement) {
        try {
            SqlNode node = SqlParser.create(statement, FlinkSyntax.PARSER).parseStmt();
            if (!(node instanceof SqlCreateTable create)) {
                return Optional.empty();
            }
            Map<String, String> options = new HashMap<>();
            for (SqlNode option : create.getPropertyList()) {
                SqlTableOption keyValue = (SqlTableOption) option;
                options.put(keyValue.getKeyString(), keyValue.getValueString());
            }
            return Optional.of(options);
        } catch (SqlParseException e) {
            return Optional.empty();
        }
    }

    /**
     * Why a streaming job drops repeated events or not; {@code changeStreams} are the change
     * streams its plan reads (Flink's names for them), listed when none may repeat.
     */
    public static String reason(TableDefinition table, List<String> changeStreams) {
        List<String> repeating = atLeastOnce(table);
        if (repeating.isEmpty()) {
            return "Change streams read exactly once ('properties.isolation.level' ="
                    + " 'read_committed' from a transactional producer such as"
                    + " cdc-capture-service): "
                    + String.join(", ", changeStreams)
                    + "; Flink keeps no second copy of their rows to drop repeated events.";
        }
        return String.join(", ", repeating)
                + (repeating.size() == 1 ? " may repeat" : " may each repeat")
                + " an event after its producer restarts (not read with"
                + " 'properties.isolation.level' = 'read_committed'), so Flink drops repeats by"
                + " key (ChangelogNormalize) on every change stream of the job, holding each of"
                + " their rows in state once more.";
    }
}
