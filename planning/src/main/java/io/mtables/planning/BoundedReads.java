package io.mtables.planning;

import java.util.Map;

/**
 * How a FULL refresh reads a source: as a batch, up to what the source holds when the refresh
 * starts. A Kafka source is unbounded unless told where to stop, so a batch read stops at the
 * latest offsets of the moment; a source that declares its own bound keeps it.
 */
public final class BoundedReads {

    private BoundedReads() {}

    /** The options to add to a source's options for a batch read; empty when none are needed. */
    public static Map<String, String> extraOptions(Map<String, String> sourceOptions) {
        if ("kafka".equals(sourceOptions.get("connector"))
                && !sourceOptions.containsKey("scan.bounded.mode")) {
            return Map.of("scan.bounded.mode", "latest-offset");
        }
        return Map.of();
    }
}
