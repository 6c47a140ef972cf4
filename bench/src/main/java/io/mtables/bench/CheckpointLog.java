package io.mtables.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The completed checkpoints of one job with each task's share, read from Flink's REST API while the
 * job runs (Flink keeps only the last few in its history, so it is read every 500 ms).
 */
final class CheckpointLog implements AutoCloseable {

    /** One task's part of a checkpoint, the slowest of its subtasks (ms). */
    record TaskPart(
            String task, long endToEnd, long sync, long async, long alignment, long startDelay) {
        @Override
        public String toString() {
            return String.format(
                    "%s %d ms (start delay %d, alignment %d, sync %d, async %d)",
                    task, endToEnd, startDelay, alignment, sync, async);
        }
    }

    /**
     * A completed checkpoint: when it was triggered and when its last acknowledgement came (epoch
     * ms).
     */
    record Checkpoint(
            long id,
            long triggeredAt,
            long acknowledgedAt,
            long checkpointedBytes,
            List<TaskPart> parts) {
        long duration() {
            return acknowledgedAt - triggeredAt;
        }

        TaskPart slowestPart() {
            return parts.stream()
                    .max((a, b) -> Long.compare(a.endToEnd(), b.endToEnd()))
                    .orElse(new TaskPart("?", 0, 0, 0, 0, 0));
        }
    }

    private final int flinkPort;
    private final String jobId;
    private final Map<Long, Checkpoint> completed = new ConcurrentSkipListMap<>();
    private final Thread poller;
    private volatile boolean running = true;
    private Map<String, String> vertexNames;

    private CheckpointLog(int flinkPort, String jobId) {
        this.flinkPort = flinkPort;
        this.jobId = jobId;
        this.poller = new Thread(this::poll, "checkpoint-log");
        poller.setDaemon(true);
        poller.start();
    }

    static CheckpointLog follow(int flinkPort, String jobId) {
        return new CheckpointLog(flinkPort, jobId);
    }

    Map<Long, Checkpoint> completed() {
        return completed;
    }

    private void poll() {
        while (running) {
            try {
                if (vertexNames == null) {
                    Map<String, String> names = new HashMap<>();
                    for (JsonNode vertex :
                            FlinkJobs.get(flinkPort, "/jobs/" + jobId).path("vertices")) {
                        names.put(vertex.path("id").asText(), vertex.path("name").asText());
                    }
                    vertexNames = names;
                }
                for (JsonNode checkpoint :
                        FlinkJobs.get(flinkPort, "/jobs/" + jobId + "/checkpoints")
                                .path("history")) {
                    long id = checkpoint.path("id").asLong();
                    if (checkpoint.path("status").asText().equals("COMPLETED")
                            && !completed.containsKey(id)) {
                        completed.put(
                                id,
                                new Checkpoint(
                                        id,
                                        checkpoint.path("trigger_timestamp").asLong(),
                                        checkpoint.path("latest_ack_timestamp").asLong(),
                                        checkpoint.path("checkpointed_size").asLong(),
                                        parts(id)));
                    }
                }
                Thread.sleep(500);
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                // The job may be restarting or gone; try again on the next round.
            }
        }
    }

    private List<TaskPart> parts(long checkpointId) throws Exception {
        Map<String, TaskPart> parts = new LinkedHashMap<>();
        JsonNode tasks =
                FlinkJobs.get(flinkPort, "/jobs/" + jobId + "/checkpoints/details/" + checkpointId)
                        .path("tasks");
        for (var vertices = tasks.fieldNames(); vertices.hasNext(); ) {
            String vertex = vertices.next();
            String name = vertexNames.getOrDefault(vertex, vertex);
            for (JsonNode subtask :
                    FlinkJobs.get(
                                    flinkPort,
                                    "/jobs/"
                                            + jobId
                                            + "/checkpoints/details/"
                                            + checkpointId
                                            + "/subtasks/"
                                            + vertex)
                            .path("subtasks")) {
                TaskPart part =
                        new TaskPart(
                                name.length() > 40 ? name.substring(0, 40) + "..." : name,
                                subtask.path("end_to_end_duration").asLong(),
                                subtask.path("checkpoint").path("sync").asLong(),
                                subtask.path("checkpoint").path("async").asLong(),
                                subtask.path("alignment").path("duration").asLong(),
                                subtask.path("start_delay").asLong());
                parts.merge(name, part, (a, b) -> a.endToEnd() >= b.endToEnd() ? a : b);
            }
        }
        return List.copyOf(parts.values());
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        poller.interrupt();
        poller.join();
    }
}
