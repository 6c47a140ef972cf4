package io.mtables.jobmanager.flink;

/**
 * The cluster's task slots as its REST API reports them ({@code /overview}, {@code
 * /jobs/overview}).
 *
 * @param totalSlots every slot of the registered TaskManagers
 * @param freeSlots slots no job holds
 * @param taskManagers TaskManagers registered
 * @param jobsWaitingForSlots jobs submitted that hold no slot yet (initializing, or none of their
 *     tasks deployed): the free slots are theirs as soon as Flink places them
 */
public record ClusterCapacity(
        int totalSlots, int freeSlots, int taskManagers, int jobsWaitingForSlots) {}
