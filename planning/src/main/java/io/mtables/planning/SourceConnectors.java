package io.mtables.planning;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The connectors a source table may name and the options each may set. A source's options reach
 * Flink's connectors in ddl-service, the planner, the job manager and the Flink cluster: a file
 * path, a JDBC URL, a class name ({@code properties.interceptor.classes}), credentials ({@code
 * properties.sasl.jaas.config}) or a consumer group of the system's own would be the user's to
 * point anywhere. Only reads of Kafka topics (the Debezium change streams and plain topics) and
 * generated rows pass; the Kafka cluster itself is checked by ddl-service against its
 * configuration. Read by ddl-service for each CREATE TABLE and again by every service that reads a
 * stored definition ({@link StoredStatements}).
 */
public final class SourceConnectors {

    /** Formats that read bytes into rows and reach nothing else (no schema registry). */
    static final Set<String> FORMATS =
            Set.of("json", "debezium-json", "canal-json", "maxwell-json", "ogg-json", "csv", "raw");

    /** A format's own options, e.g. {@code debezium-json.schema-include}. */
    private static final KeyPattern FORMAT_OPTIONS =
            new KeyPattern(
                    "(key\\.|value\\.)?(json|debezium-json|canal-json|maxwell-json|ogg-json|csv"
                            + "|raw)\\.[a-z0-9.-]+",
                    "[key.|value.]<format>.<option> of those formats");

    /** Topics a source may not read: the system's own ({@code mt.*}) and Kafka's ({@code __*}). */
    private static final Pattern SYSTEM_TOPIC = Pattern.compile("(mt\\.|__).*");

    /**
     * A topic name as Kafka allows it. Flink reads {@code topic} as a list, split at {@code ;} and
     * unquoted: a quoted element could hide a system topic from a plain check, so quotes are
     * refused.
     */
    private static final Pattern TOPIC_NAME = Pattern.compile("[A-Za-z0-9._-]+");

    /** Consumer settings that tune reads and name no host, file, class, group or secret. */
    private static final List<String> CONSUMER_PROPERTIES =
            List.of(
                    "properties.bootstrap.servers",
                    "properties.isolation.level",
                    "properties.max.poll.records",
                    "properties.max.partition.fetch.bytes",
                    "properties.fetch.min.bytes",
                    "properties.fetch.max.bytes",
                    "properties.fetch.max.wait.ms");

    private static final List<String> KAFKA_COMMON =
            List.of(
                    "connector",
                    "topic",
                    "format",
                    "key.format",
                    "value.format",
                    "key.fields",
                    "key.fields-prefix",
                    "value.fields-include");

    private static final List<String> KAFKA_SCAN =
            List.of(
                    "scan.startup.mode",
                    "scan.startup.specific-offsets",
                    "scan.startup.timestamp-millis",
                    "scan.bounded.mode",
                    "scan.bounded.specific-offsets",
                    "scan.bounded.timestamp-millis",
                    "scan.topic-partition-discovery.interval");

    private static final Map<String, Connector> CONNECTORS =
            Map.of(
                    "kafka",
                    new Connector(
                            "kafka",
                            keys(KAFKA_COMMON, CONSUMER_PROPERTIES, KAFKA_SCAN),
                            List.of(FORMAT_OPTIONS)),
                    "upsert-kafka",
                    new Connector(
                            "upsert-kafka",
                            keys(KAFKA_COMMON, CONSUMER_PROPERTIES),
                            List.of(FORMAT_OPTIONS)),
                    "datagen",
                    new Connector(
                            "datagen",
                            List.of("connector", "rows-per-second", "number-of-rows"),
                            List.of(
                                    new KeyPattern(
                                            "fields\\.[^.]+\\.(kind|min|max|max-past|length|var-len"
                                                    + "|start|end|null-rate)",
                                            "fields.<column>.kind|min|max|max-past|length|var-len"
                                                    + "|start|end|null-rate"))));

    private SourceConnectors() {}

    /**
     * Why a source may not set an option, and what it may set instead.
     *
     * @param key the option refused
     * @param valueRefused whether the key is allowed and only its value is not
     * @param reason a sentence saying why
     * @param allowed what is allowed in its place
     */
    public record Refusal(String key, boolean valueRefused, String reason, String allowed) {}

    /** Refuses a connector that is not on the list. */
    public static Optional<Refusal> checkConnector(String connector) {
        if (CONNECTORS.containsKey(connector.toLowerCase(Locale.ROOT))) {
            return Optional.empty();
        }
        return Optional.of(
                new Refusal(
                        "connector",
                        true,
                        "Connector '"
                                + connector
                                + "' is not allowed for a source table: only Kafka topics of the"
                                + " configured cluster and generated rows are read",
                        connectorsAllowed()));
    }

    /**
     * Refuses an option the source's connector may not set, or a value it may not take: a format
     * that is not on the list, a topic of the system's or of Kafka's own.
     *
     * @param connector an allowed connector ({@link #checkConnector} passed)
     */
    public static Optional<Refusal> checkOption(String connector, String key, String value) {
        Connector allowed = CONNECTORS.get(connector.toLowerCase(Locale.ROOT));
        if (!allowed.allows(key)) {
            return Optional.of(
                    new Refusal(
                            key,
                            false,
                            "Option '"
                                    + key
                                    + "' is not allowed in a source table's WITH (...) for"
                                    + " connector '"
                                    + allowed.name()
                                    + "': a source reads its topic or generates its rows, and names"
                                    + " no other host, file, class, consumer group or credential",
                            allowed.describe()));
        }
        if ((key.equals("format") || key.equals("key.format") || key.equals("value.format"))
                && !FORMATS.contains(value)) {
            return Optional.of(
                    new Refusal(
                            key,
                            true,
                            "Format '" + value + "' is not allowed in a source table",
                            "formats: " + String.join(", ", FORMATS.stream().sorted().toList())));
        }
        if (key.equals("topic") && !isTopicList(value)) {
            return Optional.of(
                    new Refusal(
                            key,
                            true,
                            "Topic '" + value + "' is not one or more topic names separated by ';'",
                            "topic names of letters, digits, '.', '_' and '-', separated by ';'"));
        }
        if (key.equals("topic") && isSystemTopic(value)) {
            return Optional.of(
                    new Refusal(
                            key,
                            true,
                            "Topic '"
                                    + value
                                    + "' is the system's own (mt.*) or Kafka's (__*): a source"
                                    + " table reads change streams and topics of its own data",
                            "one topic whose name starts with neither 'mt.' nor '__'"));
        }
        return Optional.empty();
    }

    /** The topics of a {@code topic} option, as Flink reads it: split at {@code ;}, stripped. */
    public static List<String> topics(String topicOption) {
        return Arrays.stream(topicOption.split(";", -1)).map(String::strip).toList();
    }

    /** A topic of the system's own or of Kafka's among {@code topics} (one, or a list). */
    public static boolean isSystemTopic(String topics) {
        return topics(topics).stream().anyMatch(each -> SYSTEM_TOPIC.matcher(each).matches());
    }

    private static boolean isTopicList(String topics) {
        return topics(topics).stream().allMatch(each -> TOPIC_NAME.matcher(each).matches());
    }

    /** The first key given more than once: Flink would keep one of them unchecked. */
    public static Optional<String> repeatedKey(List<String> keys) {
        Set<String> seen = new java.util.HashSet<>();
        return keys.stream().filter(key -> !seen.add(key)).findFirst();
    }

    /** The connectors a source may name, as refusals list them. */
    public static String connectorsAllowed() {
        return "'connector' = "
                + CONNECTORS.keySet().stream()
                        .sorted()
                        .map(name -> "'" + name + "'")
                        .collect(Collectors.joining(", "));
    }

    @SafeVarargs
    private static List<String> keys(List<String>... lists) {
        return Arrays.stream(lists).flatMap(List::stream).toList();
    }

    /** Keys of one shape, as a pattern and as users read it. */
    private record KeyPattern(String regex, String shown) {}

    /** One connector: its keys, and shapes of keys (a format's options, a field's generator). */
    private record Connector(String name, List<String> keys, List<KeyPattern> patterns) {

        boolean allows(String key) {
            return keys.contains(key) || patterns.stream().anyMatch(p -> key.matches(p.regex()));
        }

        String describe() {
            String formats =
                    keys.contains("format")
                            ? "; formats " + String.join(", ", FORMATS.stream().sorted().toList())
                            : "";
            return "options of '"
                    + name
                    + "': "
                    + String.join(", ", keys)
                    + patterns.stream().map(p -> ", " + p.shown()).collect(Collectors.joining())
                    + formats;
        }
    }
}
