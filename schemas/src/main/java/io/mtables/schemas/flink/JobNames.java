package io.mtables.schemas.flink;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The names the job manager gives its Flink jobs, and reads back from the cluster after a restart
 * (also one written by another version or instance): {@code mt:<table>:v<version>:q<fingerprint>}
 * for a CONTINUOUS table's streaming job, {@code mt:<table>:v<version>:refresh:<refresh id>} for a
 * FULL refresh. Users see them in Flink's web UI and in {@code JobStarted.jobName}.
 */
public final class JobNames {

    private static final String PREFIX = "mt:";

    /** The table runs up to the first {@code :v<digits>:} that is followed by a known kind. */
    private static final Pattern NAME =
            Pattern.compile("^mt:(.+?):v(\\d+):(?:q([0-9a-f]*)|refresh:(.*))$", Pattern.DOTALL);

    private JobNames() {}

    /** A job name, read back. */
    public sealed interface Parsed permits Streaming, Refresh {
        String table();

        long version();
    }

    /**
     * @param table the materialized table
     * @param version the definition version the job runs
     * @param queryFingerprint the query whose state the job keeps (job-manager-service's
     *     QueryState)
     */
    public record Streaming(String table, long version, String queryFingerprint)
            implements Parsed {}

    /**
     * @param table the materialized table
     * @param version the definition version the refresh runs
     * @param refreshId the tick id, or the request id of a REFRESH statement
     */
    public record Refresh(String table, long version, String refreshId) implements Parsed {}

    public static String streaming(String table, long version, String queryFingerprint) {
        return PREFIX + table + ":v" + version + ":q" + queryFingerprint;
    }

    public static String refresh(String table, long version, String refreshId) {
        return PREFIX + table + ":v" + version + ":refresh:" + refreshId;
    }

    /** Whether the job manager named the job (it may still be of a table another instance runs). */
    public static boolean isOurs(String name) {
        return name != null && name.startsWith(PREFIX);
    }

    /**
     * The parts of one of our job names; empty for any other name, or one of ours that is
     * malformed.
     */
    public static Optional<Parsed> parse(String name) {
        if (name == null) {
            return Optional.empty();
        }
        Matcher matcher = NAME.matcher(name);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        long version;
        try {
            version = Long.parseLong(matcher.group(2));
        } catch (NumberFormatException tooLong) {
            return Optional.empty();
        }
        return Optional.of(
                matcher.group(3) != null
                        ? new Streaming(matcher.group(1), version, matcher.group(3))
                        : new Refresh(matcher.group(1), version, matcher.group(4)));
    }
}
