package io.mtables.ddl.domain;

import io.mtables.planning.SourceConnectors;
import io.mtables.planning.SourceConnectors.Refusal;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A source table's WITH (...) as ddl-service accepts it: the connectors and options {@link
 * SourceConnectors} allows, and a Kafka source only on the cluster this server is configured with
 * ({@code mt.ddl.source-kafka-bootstrap-servers}, by default its own {@code
 * kafka.bootstrap.servers}): ddl-service's own admin client reads a source's topic history there,
 * and the jobs read it with the server's settings, never with addresses a user chose.
 */
public final class SourceOptions {

    private static final String BOOTSTRAP = "properties.bootstrap.servers";

    private final Set<String> kafkaServers;

    /**
     * @param kafkaServers the configured cluster's {@code host:port}s
     */
    public SourceOptions(List<String> kafkaServers) {
        this.kafkaServers = kafkaServers.stream().map(String::strip).collect(Collectors.toSet());
    }

    /**
     * Refuses the connector ({@code null}: none named) when it is not allowed.
     *
     * @param at the connector option, or the table's name when there is none
     */
    public void checkConnector(String connector, SourcePosition at) {
        if (connector == null) {
            throw StatementException.invalidAt(
                    "MissingOption",
                    "A source table names its connector in WITH (...). Nothing was changed.",
                    at,
                    SourceConnectors.connectorsAllowed());
        }
        refuse(SourceConnectors.checkConnector(connector), at);
    }

    /** Refuses one option of an allowed connector, or its value. */
    public void checkOption(String connector, String key, String value, SourcePosition at) {
        refuse(SourceConnectors.checkOption(connector, key, value), at);
        if (key.equals(BOOTSTRAP) && !onTheConfiguredCluster(value)) {
            throw StatementException.invalidAt(
                    AllowedOptions.INVALID_VALUE,
                    "Option '"
                            + BOOTSTRAP
                            + "' = '"
                            + value
                            + "' names a Kafka cluster this server does not read sources from."
                            + " Nothing was changed.",
                    at,
                    "'"
                            + BOOTSTRAP
                            + "' = '"
                            + String.join(",", kafkaServers.stream().sorted().toList())
                            + "'");
        }
    }

    private boolean onTheConfiguredCluster(String servers) {
        List<String> named =
                Arrays.stream(servers.split(","))
                        .map(String::strip)
                        .filter(s -> !s.isEmpty())
                        .toList();
        return !named.isEmpty() && kafkaServers.containsAll(named);
    }

    private static void refuse(Optional<Refusal> refusal, SourcePosition at) {
        refusal.ifPresent(
                r -> {
                    throw StatementException.invalidAt(
                            r.valueRefused()
                                    ? AllowedOptions.INVALID_VALUE
                                    : AllowedOptions.NOT_ALLOWED,
                            r.reason() + ". Nothing was changed.",
                            at,
                            r.allowed());
                });
    }
}
