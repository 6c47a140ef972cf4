package io.mtables.jobmanager.flink;

import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.Optional;

/**
 * The embedded cluster's size when the configuration leaves it open: its heap from the machine's
 * memory (an eighth, between 1 and 4 GiB: the services and the broker share the machine), and a
 * task slot per 128 MiB of that heap (between 8 and 32). A streaming job at parallelism 1 holds one
 * slot and keeps its state (hashmap backend) and Paimon's write buffers on that heap; 32 is as far
 * as the cluster's fixed 256 MiB of managed memory, shared by the slots, has been run (the TPC-H
 * system test, at 24). Explicit settings win.
 *
 * @param taskSlots the cluster's task slots
 * @param heap its JVM heap, as {@code -Xmx} takes it ({@code 3072m})
 */
public record EmbeddedSizing(int taskSlots, String heap) {

    static final long MIB = 1024L * 1024;

    /**
     * @param physicalMemory the machine's memory in bytes (the container's limit, where there is
     *     one)
     */
    public static EmbeddedSizing of(
            Optional<Integer> taskSlots, Optional<String> heap, long physicalMemory) {
        long heapMib =
                heap.map(EmbeddedSizing::mebibytes)
                        .orElse(clamp(physicalMemory / 8 / MIB, 1024, 4096));
        int slots = taskSlots.orElse((int) clamp(heapMib / 128, 8, 32));
        if (slots < 1) {
            throw new IllegalArgumentException(
                    "mt.flink.embedded.task-slots must be at least 1; was " + slots);
        }
        return new EmbeddedSizing(slots, heap.orElse(heapMib + "m"));
    }

    /** The machine's memory as the JVM sees it (container-aware). */
    public static long physicalMemory() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean memory) {
            return memory.getTotalMemorySize();
        }
        return 8 * 1024 * MIB; // an unknown JVM: sized as for 8 GiB
    }

    /** {@code 1g}, {@code 1536m}, {@code 2048k}: as -Xmx reads it. */
    static long mebibytes(String size) {
        String s = size.strip().toLowerCase(Locale.ROOT);
        try {
            long number = Long.parseLong(s.replaceAll("[kmg]$", ""));
            return switch (s.charAt(s.length() - 1)) {
                case 'g' -> number * 1024;
                case 'm' -> number;
                case 'k' -> number / 1024;
                default -> number / MIB;
            };
        } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
            throw new IllegalArgumentException(
                    "mt.flink.embedded.heap must be a JVM heap size such as 2g or 1536m; was '"
                            + size
                            + "'");
        }
    }

    private static long clamp(long value, long min, long max) {
        return Math.max(min, Math.min(max, value));
    }
}
