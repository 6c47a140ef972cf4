package io.mtables.jobmanager;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * The pipeline tests that read and write the warehouse, checkpoints and savepoints, for the
 * variants that put them on another store than the local disk ({@link PipelinesOnObjectStoreIT},
 * {@link PipelinesOnHdfsIT}): the tests whose storage is not what they are about run once, in
 * {@link PipelinesIT}; of those that write the same files in the same way (a savepoint, a table
 * created or removed), one runs on each store.
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

    /** Its writes to the store are those of the suspend-and-resume test, which runs here. */
    @Override
    @Test
    @Disabled("its writes are the suspend-and-resume test's, which runs on each store")
    void continuousTableOverAChangeStreamHoldsTheInsertsUpdatesAndDeletes() {}

    /**
     * A switch-over's new table and the old one's removal go through the catalog as on any store:
     * the compatible change beside the old table creates one on each store, DROP removes one.
     */
    @Override
    @Test
    @Disabled(
            "its table creation and removal are the catalog's on any store: the compatible change"
                    + " beside the old table and DROP run here")
    void aNewFreshnessKeepsTheStateAndANewQuerySwitchesReadersOverWithoutAGap() {}

    /** Its savepoint is written and restored as the suspend-and-resume test's, which runs here. */
    @Override
    @Test
    @Disabled("its savepoint is written and restored as in the suspend-and-resume test")
    void aCompatibleChangeWithoutSlotsBesideTheOldJobIsRestoredInPlace() {}
}
