package io.mtables.jobmanager.pipelines;

import static org.assertj.core.api.Assertions.assertThat;

import io.mtables.jobmanager.flink.ClusterCapacity;
import org.junit.jupiter.api.Test;

class SlotBudgetTest {

    private final SlotBudget budget = new SlotBudget(1, 1);

    @Test
    void aStreamingJobStartsOnlyBeyondTheSlotsKeptForRefreshes() {
        assertThat(budget.admit(new ClusterCapacity(8, 2, 1, 0), 1).admitted()).isTrue();
        assertThat(budget.admit(new ClusterCapacity(8, 1, 1, 0), 1).admitted()).isFalse();
        assertThat(new SlotBudget(0, 1).admit(new ClusterCapacity(8, 1, 1, 0), 1).admitted())
                .as("none kept")
                .isTrue();
    }

    @Test
    void jobsNotYetPlacedCountAsHoldingTheirSlots() {
        assertThat(budget.admit(new ClusterCapacity(8, 3, 1, 1), 1).admitted()).isTrue();
        var admission = budget.admit(new ClusterCapacity(8, 3, 1, 2), 1);
        assertThat(admission.admitted()).isFalse();
        assertThat(admission.freeForStreaming()).isZero();
    }

    @Test
    void aJobOfHigherParallelismNeedsThatManySlots() {
        var admission = budget.admit(new ClusterCapacity(8, 3, 2, 0), 4);
        assertThat(admission.admitted()).isFalse();
        assertThat(admission.reason())
                .isEqualTo(
                        "needs 4 task slots; the cluster has 8 in 2 TaskManagers, 2 free for"
                            + " streaming jobs (1 kept for FULL refreshes); it starts when slots"
                            + " free up: suspend or drop another table, or add a TaskManager");
    }

    @Test
    void aClusterWithoutTaskManagersIsSaidSo() {
        assertThat(budget.admit(new ClusterCapacity(0, 0, 0, 0), 1).reason())
                .isEqualTo(
                        "needs 1 task slot and the cluster has no TaskManager; it starts when one"
                                + " registers");
    }
}
