package io.mtables.jobmanager.jobs;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.TableEnvironment;

/**
 * How a job's Kafka sources authenticate to the broker: the job manager's own Kafka security
 * settings ({@code security.*}, {@code sasl.*}, {@code ssl.*}), given to every kafka and
 * upsert-kafka source as {@code properties.*} once it is declared. A user's statement may not name
 * them (planning's SourceConnectors) and names the configured cluster alone (ddl-service's
 * SourceOptions), so these are the credentials that hold there; on a plaintext broker there are
 * none and nothing is added.
 */
public final class KafkaSourceCredentials {

    /** None: a plaintext broker. */
    public static final KafkaSourceCredentials NONE = new KafkaSourceCredentials(Map.of());

    private static final List<String> KAFKA_CONNECTORS = List.of("kafka", "upsert-kafka");

    private final Map<String, String> settings;

    public KafkaSourceCredentials(Map<String, String> settings) {
        this.settings = Map.copyOf(settings);
    }

    /** Gives the Kafka sources of {@code definition}, declared in {@code env}, the settings. */
    void apply(TableEnvironment env, TableDefinition definition) {
        if (settings.isEmpty()) {
            return;
        }
        for (var source : definition.sources()) {
            if (source.kind() != TableDefinition.Kind.SOURCE_TABLE) {
                continue;
            }
            TableId id = TableId.of(source.table());
            String connector = DeclaredTables.options(env, id).getOrDefault("connector", "");
            if (KAFKA_CONNECTORS.contains(connector)) {
                Map<String, String> properties = new HashMap<>();
                settings.forEach((key, value) -> properties.put("properties." + key, value));
                DeclaredTables.set(env, id, properties);
            }
        }
    }
}
