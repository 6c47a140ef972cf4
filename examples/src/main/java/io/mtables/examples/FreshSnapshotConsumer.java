package io.mtables.examples;

import io.mtables.client.MtablesClient;
import io.mtables.client.RefreshNotifications;
import io.mtables.schemas.refresh.RefreshSucceeded;
import java.time.Duration;
import java.util.UUID;

/**
 * Reacts to a table's fresh snapshot: each time the refresh of {@code <table>} succeeds, reads its
 * rows again and prints how many there are and how fresh they are.
 *
 * <p>Usage: {@code FreshSnapshotConsumer <table> [bootstrap servers] [ddl-service url]}, the token
 * in {@code MT_TOKEN} (with bin/run: {@code export MT_TOKEN=$(cat .run/admin.key)}). For example
 * {@code FreshSnapshotConsumer default_catalog.demo.user_domains 127.0.0.1:9092
 * http://127.0.0.1:8081}.
 */
public final class FreshSnapshotConsumer {

    private FreshSnapshotConsumer() {}

    public static void main(String[] args) {
        String table = args[0];
        String bootstrap = args.length > 1 ? args[1] : "127.0.0.1:9092";
        String ddlService = args.length > 2 ? args[2] : "http://127.0.0.1:8081";
        MtablesClient client = new MtablesClient(ddlService, System.getenv("MT_TOKEN"));
        // A group of this run's own: it reads the notifications the topic holds, then new ones.
        try (RefreshNotifications notifications =
                RefreshNotifications.from(bootstrap, "fresh-snapshots-" + UUID.randomUUID())) {
            while (true) {
                for (var notification : notifications.poll(Duration.ofSeconds(1))) {
                    if (!table.equals(notification.table())) {
                        continue;
                    }
                    notification
                            .as(RefreshSucceeded.class)
                            .ifPresent(
                                    fresh ->
                                            System.out.printf(
                                                    "%s: snapshot %d, data as of %s, %d rows%n",
                                                    table,
                                                    fresh.snapshotId(),
                                                    fresh.dataTimestamp(),
                                                    client.rows("SELECT * FROM " + table).size()));
                }
            }
        }
    }
}
