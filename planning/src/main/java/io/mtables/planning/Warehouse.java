package io.mtables.planning;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Where the Paimon warehouse is, and what its file system needs to be reached: nothing for a local
 * path, the endpoint and credentials for an S3-compatible object store ({@code s3://}). Every
 * Paimon catalog of the services is opened with {@link #catalogOptions()}: a catalog declared in
 * Flink SQL and one opened through Paimon's Java API read the same keys.
 *
 * @param uri the warehouse ({@code file:/...}, {@code s3://bucket/path})
 * @param fileSystemOptions Paimon's options for its file IO ({@code s3.endpoint}, ...)
 */
public record Warehouse(String uri, Map<String, String> fileSystemOptions) {

    public Warehouse {
        fileSystemOptions = Map.copyOf(fileSystemOptions);
    }

    /**
     * A warehouse whose file system needs no settings (a local path, or one configured elsewhere).
     */
    public static Warehouse at(String uri) {
        return new Warehouse(uri, Map.of());
    }

    /**
     * A warehouse with the S3 settings given: {@code mt.s3.endpoint}, {@code
     * mt.s3.path-style-access} (true for most self-hosted stores), {@code mt.s3.access-key} and
     * {@code mt.s3.secret-key} (absent: the store's default credential chain).
     */
    public static Warehouse withS3(
            String uri,
            Optional<String> endpoint,
            boolean pathStyleAccess,
            Optional<String> accessKey,
            Optional<String> secretKey) {
        Map<String, String> options = new LinkedHashMap<>();
        endpoint.ifPresent(value -> options.put("s3.endpoint", value));
        if (endpoint.isPresent() || pathStyleAccess) {
            options.put("s3.path.style.access", String.valueOf(pathStyleAccess));
        }
        accessKey.ifPresent(value -> options.put("s3.access-key", value));
        secretKey.ifPresent(value -> options.put("s3.secret-key", value));
        return new Warehouse(uri, options);
    }

    /**
     * The options of a Paimon catalog over this warehouse: {@code warehouse} and the file system's.
     */
    public Map<String, String> catalogOptions() {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("warehouse", uri);
        options.putAll(fileSystemOptions);
        return options;
    }

    /** The warehouse without its secrets, for logs and messages. */
    @Override
    public String toString() {
        return uri
                + (fileSystemOptions.containsKey("s3.endpoint")
                        ? " (endpoint " + fileSystemOptions.get("s3.endpoint") + ")"
                        : "");
    }
}
