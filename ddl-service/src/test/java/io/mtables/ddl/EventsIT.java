package io.mtables.ddl;

import static io.mtables.ddl.StatementRequests.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mtables.schemas.Contracts;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.refresh.JobStarted;
import io.mtables.testing.auth.TestCredentials;
import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.mtables.testing.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /api/v1/events}: refresh events as Server-Sent Events the moment this instance reads
 * them, each with its contract's payload, and only of the tables the caller may see.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class EventsIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TestHTTPResource("/api/v1/events")
    URI events;

    @Test
    void aFollowerGetsTheEventsOfTheTablesItMaySeeAsTheyArrive() throws Exception {
        DialectIT.awaitReady();
        String db = "events_" + UUID.randomUUID().toString().substring(0, 8);
        String watched = "default_catalog." + db + ".watched";
        String shared = "default_catalog." + db + ".shared";
        StatementRequests.sourceAndTablesOverIt(db, "watched", "shared");
        post("GRANT SELECT ON TABLE " + db + ".shared TO USER 'eve'", 202);

        Follower admin = new Follower(events + "?table=" + watched, TestCredentials.AUTHORIZATION);
        Follower eve = new Follower(events.toString(), "Bearer " + StatementRequests.jwt("eve"));
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> admin.open && eve.open);
            // One after the other: each stream is in order, so an event eve may not see would
            // have reached her before the one she may.
            try (TopicProbe probe = new TopicProbe()) {
                started(probe, watched, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
                await().atMost(Duration.ofSeconds(30))
                        .untilAsserted(() -> assertThat(admin.tables()).contains(watched));
                started(probe, shared, "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
                await().atMost(Duration.ofSeconds(30))
                        .untilAsserted(() -> assertThat(eve.tables()).contains(shared));
            }
            JsonNode seen = admin.received.get(0);
            assertThat(seen.path("type").asText()).isEqualTo("JobStarted");
            assertThat(seen.path("event").path("jobId").asText())
                    .isEqualTo("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
            assertThat(seen.path("readAt").asText()).isNotBlank();
            assertThat(admin.tables()).as("only the table asked for").containsOnly(watched);
            assertThat(eve.tables())
                    .as("never a table eve may not see, though this instance read its event first")
                    .doesNotContain(watched);

            // Four streams a caller: eve's fifth is refused, and freed when one ends.
            List<Follower> more = new java.util.ArrayList<>();
            String eveToken = "Bearer " + StatementRequests.jwt("eve");
            try {
                for (int i = 0; i < 3; i++) {
                    more.add(new Follower(events.toString(), eveToken));
                }
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> more.stream().allMatch(follower -> follower.open));
                HttpResponse<String> fifth =
                        HttpClient.newHttpClient()
                                .send(
                                        HttpRequest.newBuilder(events)
                                                .header("Authorization", eveToken)
                                                .GET()
                                                .build(),
                                        HttpResponse.BodyHandlers.ofString());
                assertThat(fifth.statusCode()).isEqualTo(503);
                assertThat(fifth.body()).contains("TooManyQueries", "4 per caller");
            } finally {
                for (Follower follower : more) {
                    follower.close();
                }
            }
        } finally {
            admin.close();
            eve.close();
        }
        assertThat(
                        HttpClient.newHttpClient()
                                .send(
                                        HttpRequest.newBuilder(events).GET().build(),
                                        HttpResponse.BodyHandlers.discarding())
                                .statusCode())
                .as("no token")
                .isEqualTo(401);
    }

    private static void started(TopicProbe probe, String table, String job) {
        StatementRequests.sendRefreshEvent(
                probe,
                Contracts.JOB_STARTED_V1,
                table,
                new JobStarted(
                        table,
                        1,
                        RefreshPlan.Mode.CONTINUOUS,
                        job,
                        "mt:" + table + ":v1:q",
                        null,
                        Instant.now()));
    }

    /** One caller following the events on a thread of its own. */
    private static final class Follower implements AutoCloseable {
        final List<JsonNode> received = new CopyOnWriteArrayList<>();
        volatile boolean open;
        private volatile InputStream body;
        private final Thread reader;

        Follower(String url, String authorization) {
            reader =
                    new Thread(
                            () -> {
                                try {
                                    read(url, authorization);
                                } catch (Exception closed) {
                                    // closed by the test
                                }
                            });
            reader.setDaemon(true);
            reader.start();
        }

        private void read(String url, String authorization) throws Exception {
            HttpResponse<InputStream> response =
                    HttpClient.newHttpClient()
                            .send(
                                    HttpRequest.newBuilder(URI.create(url))
                                            .header("Authorization", authorization)
                                            .header("Accept", "text/event-stream")
                                            .GET()
                                            .build(),
                                    HttpResponse.BodyHandlers.ofInputStream());
            assertThat(response.statusCode()).isEqualTo(200);
            body = response.body();
            open = true;
            BufferedReader lines =
                    new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.startsWith("data:")) {
                    received.add(JSON.readTree(line.substring(5)));
                }
            }
        }

        List<String> tables() {
            return received.stream().map(event -> event.path("table").asText()).toList();
        }

        @Override
        public void close() throws Exception {
            if (body != null) {
                body.close();
            }
            reader.interrupt();
        }
    }
}
