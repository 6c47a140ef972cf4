package io.mtables.jobmanager;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * The pipeline tests that read and write the warehouse, checkpoints and savepoints, for the
 * variants that put them on another store than the local disk ({@link PipelinesOnObjectStoreIT},
 * {@link PipelinesOnHdfsIT}): the tests whose storage is not what they are about run once, in
 * {@link PipelinesIT}.
 */
abstract class PipelinesAboutStorage extends PipelinesIT {

    static final String NOT_ABOUT_STORAGE = "not about storage: PipelinesIT runs it";

    @Override
    @Test
    @Disabled(NOT_ABOUT_STORAGE)
    void ticksDuringARefreshAreCoalescedIntoOne() {}

    @Override
    @Test
    @Disabled(NOT_ABOUT_STORAGE)
    void fiveFailedRefreshesInARowSuspendTheTable() {}

    @Override
    @Test
    @Disabled(NOT_ABOUT_STORAGE)
    void theEmbeddedClusterLogsAtInfoIntoItsLogFileAndNothingFiner() {}

    @Override
    @Test
    @Disabled(NOT_ABOUT_STORAGE)
    void aRestoreFlinkRefusesFallsBackToASwitchOver() {}

    @Override
    @Test
    @Disabled(NOT_ABOUT_STORAGE)
    void aTableReadingASwitchedOverTableIsRebuiltFromTheNewRows() {}
}
