package io.mtables.jobmanager;

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
 * The pipelines that touch storage with the Paimon warehouse, checkpoints and savepoints on an
 * S3-compatible object store (S3Proxy, started by bin/test at MT_TEST_S3_ENDPOINT): the job
 * manager's catalogs, the streaming and batch jobs in the cluster, and the tests' own reads reach
 * the tables through Paimon's S3 file IO; the cluster writes and restores state through Flink's S3
 * file system (a plugin); SUSPEND and RESUME find the savepoint on the store.
 */
@QuarkusTest
@TestProfile(PipelinesOnObjectStoreIT.ObjectStore.class)
@QuarkusTestResource(KafkaBrokerTestResource.class)
class PipelinesOnObjectStoreIT extends PipelinesAboutStorage {

    @Override
    String stateLocation() {
        return "s3://" + TestStores.BUCKET + "/";
    }

    /** A warehouse of its own in the store's bucket for each run. */
    public static class ObjectStore implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            String run = "s3://" + TestStores.BUCKET + "/" + UUID.randomUUID();
            Map<String, String> settings = new HashMap<>(TestStores.objectStoreSettings());
            settings.put("mt.paimon.warehouse", run + "/warehouse");
            settings.put("mt.flink.checkpoint-dir", run + "/checkpoints");
            settings.put("mt.flink.savepoint-dir", run + "/savepoints");
            return settings;
        }
    }
}
