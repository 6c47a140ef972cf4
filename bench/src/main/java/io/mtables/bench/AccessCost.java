package io.mtables.bench;

import io.mtables.client.MtablesClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What identity and privileges cost a statement (issue 47: at most 5 ms of its p99): the same
 * CREATE TABLE statements as a service account that is no admin, holding CREATE on the schema by a
 * grant (every privilege check runs), timed beside the admin's; then ddl-service's own timers of
 * the API key's check and of each statement's privilege checks ({@code mt_access_seconds}).
 */
final class AccessCost {

    private static final Pattern QUANTILE =
            Pattern.compile(
                    "mt_access_seconds\\{[^}]*quantile=\"([0-9.]+)\"[^}]*step=\"(\\w+)\"[^}]*\\}"
                            + " ([0-9.eE+-]+)|mt_access_seconds\\{[^}]*step=\"(\\w+)\"[^}]*"
                            + "quantile=\"([0-9.]+)\"[^}]*\\} ([0-9.eE+-]+)");

    private AccessCost() {}

    /**
     * As the account {@code builder} (its key in MT_BENCH_USER_TOKEN, bin/bench), after an admin's
     * GRANT CREATE ON SCHEMA bench: {@code statements} CREATE TABLE, each timed until acknowledged.
     */
    static List<Long> acknowledgementsAsAUser(String ddl, int statements) {
        String token = System.getenv("MT_BENCH_USER_TOKEN");
        if (token == null || token.isBlank()) {
            throw new IllegalStateException("MT_BENCH_USER_TOKEN is not set (bin/bench sets it)");
        }
        Statements.post(ddl, "GRANT CREATE ON SCHEMA bench TO SERVICE ACCOUNT builder");
        MtablesClient user = new MtablesClient(ddl, token);
        List<Long> acks = new ArrayList<>();
        for (int i = 0; i < statements; i++) {
            long start = System.nanoTime();
            user.execute(
                    "CREATE TABLE bench.user_source_"
                            + i
                            + " (id BIGINT, category STRING) WITH ('connector' = 'datagen',"
                            + " 'rows-per-second' = '10', 'fields.category.length' = '1')");
            acks.add((System.nanoTime() - start) / 1_000_000);
        }
        return acks;
    }

    /** ddl-service's p50 and p99 of each step, ms, as its metrics say: "authentication p50 ...". */
    static String timers(String ddl) throws Exception {
        String metrics =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(
                                                URI.create(
                                                        Statements.managementUrl(ddl)
                                                                + "/q/metrics"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body();
        StringBuilder out = new StringBuilder();
        for (String step : List.of("authentication", "authorization")) {
            out.append(step);
            for (String quantile : List.of("0.5", "0.99")) {
                out.append(
                        String.format(
                                " p%s %.3f ms",
                                quantile.equals("0.5") ? "50" : "99",
                                1000 * seconds(metrics, step, quantile)));
            }
            out.append(step.equals("authentication") ? "; " : "");
        }
        return out.toString();
    }

    private static double seconds(String metrics, String step, String quantile) {
        Matcher m = QUANTILE.matcher(metrics);
        while (m.find()) {
            boolean quantileFirst = m.group(1) != null;
            String q = quantileFirst ? m.group(1) : m.group(5);
            String s = quantileFirst ? m.group(2) : m.group(4);
            if (s.equals(step) && Double.parseDouble(q) == Double.parseDouble(quantile)) {
                return Double.parseDouble(quantileFirst ? m.group(3) : m.group(6));
            }
        }
        throw new IllegalStateException(
                "ddl-service's metrics have no mt_access_seconds{step=\""
                        + step
                        + "\",quantile=\""
                        + quantile
                        + "\"}");
    }
}
