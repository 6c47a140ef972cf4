package io.mtables.bench;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a process spent its CPU, from a Java Flight Recording's execution samples: the share of
 * samples per thread group, per method on top of the stack (self), and per method anywhere on the
 * stack (inclusive). JDK 17's {@code jfr} tool prints events but has no such summary (JDK 21's
 * {@code jfr view hot-methods} does), hence this small reader.
 *
 * <p>Arguments: recording file, [rows per table = 20], [inclusive filter: package prefixes, comma
 * separated].
 */
public final class JfrTop {

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int rows = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        List<String> interesting = args.length > 2 ? List.of(args[2].split(",")) : List.of();
        Map<String, Integer> threads = new HashMap<>();
        Map<String, Integer> self = new HashMap<>();
        Map<String, Integer> inclusive = new HashMap<>();
        int samples = 0;
        for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
            if (!event.getEventType().getName().equals("jdk.ExecutionSample")
                    || event.getStackTrace() == null) {
                continue;
            }
            samples++;
            threads.merge(
                    threadGroup(event.getThread("sampledThread").getJavaName()), 1, Integer::sum);
            List<RecordedFrame> frames = event.getStackTrace().getFrames();
            if (!frames.isEmpty()) {
                self.merge(name(frames.get(0)), 1, Integer::sum);
            }
            Set<String> seen = new HashSet<>();
            for (RecordedFrame frame : frames) {
                String name = name(frame);
                if ((interesting.isEmpty() || interesting.stream().anyMatch(name::startsWith))
                        && seen.add(name)) {
                    inclusive.merge(name, 1, Integer::sum);
                }
            }
        }
        System.out.printf("== %s: %,d execution samples%n", file.getFileName(), samples);
        print("threads", threads, samples, rows);
        print("self (top of stack)", self, samples, rows);
        print(
                "inclusive (anywhere on the stack"
                        + (interesting.isEmpty() ? "" : ", " + String.join(" ", interesting))
                        + ")",
                inclusive,
                samples,
                rows);
    }

    private static void print(String title, Map<String, Integer> counts, int samples, int rows) {
        System.out.println("-- " + title);
        Map<String, Integer> sorted = new LinkedHashMap<>();
        counts.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .limit(rows)
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        sorted.forEach(
                (name, count) ->
                        System.out.printf(
                                "%6.1f %%  %s%n", 100.0 * count / Math.max(1, samples), name));
    }

    private static String name(RecordedFrame frame) {
        return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
    }

    /**
     * Thread names without their numbers, so that pools add up: "Join (1/1)#0" stays,
     * "pool-3-thread-7" becomes "pool-thread".
     */
    private static String threadGroup(String name) {
        if (name == null) {
            return "(unnamed)";
        }
        return name.replaceAll("-\\d+", "").replaceAll("#\\d+$", "");
    }
}
