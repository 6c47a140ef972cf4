package io.mtables.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Dashboards and alerts as code, checked without a Prometheus or a Grafana: the alert rules and the
 * scrape configuration by promtool (bin/promtool, Prometheus' own checker), with the rules' unit
 * tests; the PrometheusRule equal to the rules docker-compose mounts; every query of the dashboard
 * valid PromQL; every metric they name one a service registers and docs/operations.md lists; the
 * ServiceMonitor reaching each service on a port that serves /q/metrics and that the metrics
 * NetworkPolicy lets Prometheus in on.
 */
class MonitoringTest {

    private static final Path ROOT = Yaml.root();
    private static final Path ALERTS = ROOT.resolve("deploy/monitoring/alerts.yml");
    private static final Path DASHBOARD = ROOT.resolve("k8s/monitoring/grafana-dashboard.json");
    private static final List<String> SERVICES =
            List.of(
                    "ddl-service",
                    "planner-service",
                    "refresh-scheduler-service",
                    "job-manager-service",
                    "cdc-capture-service");

    /** A metric's name in a PromQL expression: ours, and the few standard ones the rules use. */
    private static final Pattern OUR_METRIC = Pattern.compile("\\bmt_[a-z_]+\\b");

    @Test
    void theScrapeConfigurationAndTheAlertRulesPassPromtoolAndTheRulesTheirUnitTests()
            throws Exception {
        assertThat(promtool("check", "config", "deploy/monitoring/prometheus.yml"))
                .contains("SUCCESS");
        assertThat(promtool("test", "rules", "deploy/monitoring/alerts-test.yml"))
                .contains("SUCCESS");
    }

    @Test
    void everyAlertHasAUnitTestWhereItFires() {
        Set<String> alerts = new TreeSet<>();
        rules().forEach(rule -> alerts.add(rule.path("alert").asText()));
        Set<String> firing = new TreeSet<>();
        for (JsonNode test :
                Yaml.document(ROOT.resolve("deploy/monitoring/alerts-test.yml")).path("tests")) {
            for (JsonNode check : test.path("alert_rule_test")) {
                if (!check.path("exp_alerts").isEmpty()) {
                    firing.add(check.path("alertname").asText());
                }
            }
        }
        assertThat(alerts).hasSizeGreaterThanOrEqualTo(8).isEqualTo(firing);
    }

    @Test
    void thePrometheusRuleHoldsTheRulesDockerComposeMounts() {
        JsonNode rule = Yaml.document(ROOT.resolve("k8s/monitoring/prometheus-rule.yaml"));
        assertThat(TypedResources.problems(rule, "prometheus-rule.yaml")).isEmpty();
        assertThat(rule.path("spec").path("groups"))
                .isEqualTo(Yaml.document(ALERTS).path("groups"));
    }

    /**
     * Grafana's variables replaced by what they stand for at their widest, each query becomes a
     * recording rule for promtool to parse.
     */
    @Test
    void everyQueryOfTheDashboardIsValidPromQl() throws Exception {
        List<String> queries = dashboardQueries();
        assertThat(queries).hasSizeGreaterThanOrEqualTo(12);
        ObjectMapper yaml = Yaml.MAPPER;
        ObjectNode file = yaml.createObjectNode();
        ArrayNode rules =
                file.putArray("groups").addObject().put("name", "dashboard").putArray("rules");
        for (int i = 0; i < queries.size(); i++) {
            rules.addObject()
                    .put("record", "dashboard:query_" + i)
                    .put(
                            "expr",
                            queries.get(i)
                                    .replace("$__rate_interval", "1m")
                                    .replace("$__range", "1h")
                                    .replace("$table", ".*"));
        }
        Path checked = Files.createTempFile("dashboard-queries", ".yml");
        try {
            yaml.writeValue(checked.toFile(), file);
            assertThat(promtool("check", "rules", checked.toString()))
                    .contains("SUCCESS: " + queries.size() + " rules found");
        } finally {
            Files.delete(checked);
        }
    }

    @Test
    void everyPanelReadsThePrometheusTheDashboardIsGiven() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        assertThat(dashboard.path("uid").asText()).isEqualTo("mtables");
        Set<Integer> ids = new TreeSet<>();
        for (JsonNode panel : dashboard.path("panels")) {
            String title = panel.path("title").asText();
            assertThat(ids.add(panel.path("id").asInt())).as(title + ": its id is unique").isTrue();
            assertThat(panel.path("datasource").path("uid").asText())
                    .as(title)
                    .isEqualTo("${datasource}");
            JsonNode at = panel.path("gridPos");
            assertThat(at.path("x").asInt() + at.path("w").asInt()).as(title).isBetween(1, 24);
            assertThat(panel.path("targets")).as(title).isNotEmpty();
        }
        assertThat(dashboard.path("templating").path("list").findValuesAsText("name"))
                .containsExactly("datasource", "table");
    }

    /**
     * A name is served when a service registers its meter (Micrometer's dotted name, without the
     * suffixes Prometheus' format adds) and docs/operations.md lists it.
     */
    @Test
    void everyMetricTheRulesAndTheDashboardNameIsServedAndDocumented() throws IOException {
        Set<String> named = new TreeSet<>();
        List<String> expressions = new ArrayList<>(dashboardQueries());
        rules().forEach(rule -> expressions.add(rule.path("expr").asText()));
        for (String expression : expressions) {
            Matcher m = OUR_METRIC.matcher(expression);
            while (m.find()) {
                named.add(m.group());
            }
        }
        assertThat(named)
                .contains(
                        "mt_table_lag_seconds",
                        "mt_freshness_misses_total",
                        "mt_refresh_duration_seconds_bucket",
                        "mt_job_restarts_total",
                        "mt_cluster_slots_free",
                        "mt_cdc_capture_lag_seconds",
                        "mt_service_ready");
        String registered = mainSources();
        String documented = Files.readString(ROOT.resolve("docs/operations.md"));
        for (String name : named) {
            String base = name.replaceAll("_(bucket|count|sum|max)$", "");
            assertThat(documented).as(name + " in docs/operations.md").contains("`" + base + "`");
            List<String> meters =
                    Stream.of(
                                    base,
                                    base.replaceAll("_total$", ""),
                                    base.replaceAll("_seconds$", ""))
                            .map(n -> "\"" + n.replace('_', '.') + "\"")
                            .toList();
            assertThat(meters).as(name + " registered by a service").anyMatch(registered::contains);
        }
    }

    @Test
    void theServiceMonitorReachesEveryServiceOnItsMetricsPort() {
        JsonNode monitor = Yaml.document(ROOT.resolve("k8s/monitoring/service-monitor.yaml"));
        assertThat(TypedResources.problems(monitor, "service-monitor.yaml")).isEmpty();
        List<String> selected =
                texts(
                        monitor.path("spec")
                                .path("selector")
                                .path("matchExpressions")
                                .get(0)
                                .path("values"));
        assertThat(selected).containsExactlyInAnyOrderElementsOf(SERVICES);
        List<String> scraped = new ArrayList<>();
        for (JsonNode endpoint : monitor.path("spec").path("endpoints")) {
            assertThat(endpoint.path("path").asText()).isEqualTo("/q/metrics");
            scraped.add(endpoint.path("port").asText());
        }
        Set<Integer> admitted = new TreeSet<>();
        for (JsonNode policy : Yaml.documents(ROOT.resolve("k8s/base/network-policies.yaml"))) {
            if (policy.path("metadata").path("name").asText().equals("mt-metrics")) {
                policy.path("spec")
                        .path("ingress")
                        .get(0)
                        .path("ports")
                        .forEach(p -> admitted.add(p.path("port").asInt()));
            }
        }
        for (String service : SERVICES) {
            List<JsonNode> documents =
                    Yaml.documents(ROOT.resolve("k8s/base/" + service + ".yaml"));
            JsonNode svc = ofKind(documents, "Service");
            assertThat(svc.path("metadata").path("labels").path("app.kubernetes.io/name").asText())
                    .as(service + "'s Service is labelled for the ServiceMonitor")
                    .isEqualTo(service);
            JsonNode port = null;
            for (JsonNode p : svc.path("spec").path("ports")) {
                if (scraped.contains(p.path("name").asText())) {
                    port = p;
                }
            }
            assertThat(port).as(service + " has a port the ServiceMonitor scrapes").isNotNull();
            String containerPortName = port.path("targetPort").asText();
            int containerPort = -1;
            for (JsonNode p :
                    ofKind(documents, "Deployment")
                            .path("spec")
                            .path("template")
                            .path("spec")
                            .path("containers")
                            .get(0)
                            .path("ports")) {
                if (p.path("name").asText().equals(containerPortName)) {
                    containerPort = p.path("containerPort").asInt();
                }
            }
            assertThat(admitted)
                    .as(service + "'s metrics port is one mt-metrics lets Prometheus reach")
                    .contains(containerPort);
        }
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(v -> texts.add(v.asText()));
        return texts;
    }

    private static JsonNode ofKind(List<JsonNode> documents, String kind) {
        return documents.stream()
                .filter(d -> d.path("kind").asText().equals(kind))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind));
    }

    private static List<JsonNode> rules() {
        List<JsonNode> rules = new ArrayList<>();
        for (JsonNode group : Yaml.document(ALERTS).path("groups")) {
            group.path("rules").forEach(rules::add);
        }
        return rules;
    }

    private static List<String> dashboardQueries() {
        try {
            JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
            List<String> queries = new ArrayList<>();
            for (JsonNode panel : dashboard.path("panels")) {
                panel.path("targets").forEach(t -> queries.add(t.path("expr").asText()));
            }
            return queries;
        } catch (IOException e) {
            throw new AssertionError("cannot read " + DASHBOARD, e);
        }
    }

    /** Every main source file of the services, as one text to search for meter names. */
    private static String mainSources() throws IOException {
        StringBuilder all = new StringBuilder();
        for (String module : SERVICES) {
            Path sources = ROOT.resolve(module).resolve("src/main/java");
            try (Stream<Path> files = Files.walk(sources)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    all.append(Files.readString(file));
                }
            }
        }
        Path shared = ROOT.resolve("service-messaging/src/main/java");
        try (Stream<Path> files = Files.walk(shared)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                all.append(Files.readString(file));
            }
        }
        return all.toString();
    }

    /** Runs bin/promtool from the repository's root; its output, once it exited with 0. */
    private static String promtool(String... arguments) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ROOT.resolve("bin/promtool").toString());
        command.addAll(List.of(arguments));
        Path out = Files.createTempFile("promtool", ".out");
        Process process =
                new ProcessBuilder(command)
                        .directory(ROOT.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(out.toFile())
                        .start();
        boolean ended = process.waitFor(120, TimeUnit.SECONDS);
        process.destroyForcibly();
        String output = Files.readString(out, StandardCharsets.UTF_8);
        Files.delete(out);
        assertThat(ended).as("promtool ended within 120 s: %s", output).isTrue();
        assertThat(process.exitValue()).as("bin/promtool %s: %s", command, output).isZero();
        return output;
    }
}
