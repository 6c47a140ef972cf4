package io.mtables.testing.stores;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The stores bin/test starts besides the broker, for the tests of a warehouse, checkpoints and
 * savepoints that are not on the local disk: an S3-compatible object store (bin/objectstore, at
 * MT_TEST_S3_ENDPOINT, bucket mtables) and HDFS (bin/hdfs, at MT_TEST_HDFS_URI).
 */
public final class TestStores {

    /** The bucket bin/objectstore makes. */
    public static final String BUCKET = "mtables";

    private TestStores() {}

    /** The services' settings (mt.s3.*) that reach the tests' object store. */
    public static Map<String, String> objectStoreSettings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put(
                "mt.s3.endpoint",
                required("MT_TEST_S3_ENDPOINT", "the object store (bin/objectstore)"));
        settings.put("mt.s3.path-style-access", "true");
        settings.put("mt.s3.access-key", "mt");
        settings.put("mt.s3.secret-key", "mt-secret-key");
        return settings;
    }

    /** The tests' HDFS, {@code hdfs://host:port}. */
    public static String hdfsUri() {
        return required("MT_TEST_HDFS_URI", "HDFS (bin/hdfs)");
    }

    private static String required(String variable, String what) {
        String value = System.getenv(variable);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(
                    variable + " is not set: run the tests with bin/test, which starts " + what);
        }
        return value;
    }
}
