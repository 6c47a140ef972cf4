package io.mtables.ddl;

import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.mtables.testing.stores.TestStores;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * SELECT over a table whose warehouse is on an S3-compatible object store (S3Proxy, started by
 * bin/test at MT_TEST_S3_ENDPOINT).
 */
@QuarkusTest
@TestProfile(SelectOnObjectStoreIT.ObjectStore.class)
@QuarkusTestResource(KafkaBrokerTestResource.class)
class SelectOnObjectStoreIT extends SelectIT {

    /** A warehouse of its own in the store's bucket for each run. */
    public static class ObjectStore implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> settings = new HashMap<>(TestStores.objectStoreSettings());
            settings.put(
                    "mt.paimon.warehouse",
                    "s3://" + TestStores.BUCKET + "/" + UUID.randomUUID() + "/warehouse");
            return settings;
        }
    }
}
