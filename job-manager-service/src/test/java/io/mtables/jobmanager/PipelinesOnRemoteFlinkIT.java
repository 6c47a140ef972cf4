package io.mtables.jobmanager;

import io.mtables.testing.kafka.KafkaBrokerTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * The pipelines, run on a remote Flink session cluster (a separate JVM the job manager did not
 * start): a streaming job, SUSPEND and RESUME, a new freshness, FULL refreshes and the cluster's
 * log. The tests of what the job manager decides whatever the cluster (ticks coalesced, failures
 * counted, chains, changed partitions) run in {@link PipelinesIT}; DistributedIT and
 * CapacityOnSessionClusterIT run remote clusters of separate processes.
 */
@QuarkusTest
@TestProfile(PipelinesOnRemoteFlinkIT.RemoteFlink.class)
@QuarkusTestResource(KafkaBrokerTestResource.class)
class PipelinesOnRemoteFlinkIT extends PipelinesIT {

    /** Restricts the remote cluster resource to this test class. */
    public static class RemoteFlink implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(RemoteFlinkTestResource.class));
        }
    }

    private static final String NOT_ABOUT_THE_TARGET =
            "the same on any cluster: PipelinesIT runs it";

    @Override
    @Test
    @Disabled(NOT_ABOUT_THE_TARGET)
    void ticksDuringARefreshAreCoalescedIntoOne() {}

    @Override
    @Test
    @Disabled(NOT_ABOUT_THE_TARGET)
    void fiveFailedRefreshesInARowSuspendTheTable() {}

    @Override
    @Test
    @Disabled(NOT_ABOUT_THE_TARGET)
    void aChainOfThreeReadsEachUpstreamAsItIsWritten() {}

    @Override
    @Test
    @Disabled(NOT_ABOUT_THE_TARGET)
    void aRefreshOverwritesOnlyThePartitionsWhoseInputsChangedAndEmptiesOnesLeftWithoutRows() {}

    @Override
    @Test
    @Disabled(NOT_ABOUT_THE_TARGET)
    void aCompatibleChangeGoesOnFromTheOldStateBesideTheTableWithTheWrittenRowsRewritten() {}

    @Override
    @Test
    @Disabled(NOT_ABOUT_THE_TARGET)
    void aRestoreFlinkRefusesFallsBackToASwitchOver() {}

    @Override
    @Test
    @Disabled(NOT_ABOUT_THE_TARGET)
    void aTableReadingASwitchedOverTableIsRebuiltFromTheNewRows() {}

    @Override
    boolean embeddedCluster() {
        return false;
    }

    @Override
    int flinkPort() {
        return RemoteFlinkTestResource.PORT;
    }

    @Override
    Path clusterLog() {
        return RemoteFlinkTestResource.HOME.resolve("cluster.log");
    }
}
