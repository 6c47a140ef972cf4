package io.mtables.messaging.active;

import io.mtables.messaging.ReadyGate;
import io.quarkus.runtime.Quarkus;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Whether this process is the one instance of its service that acts, among all that run with the
 * same consumer group. Kafka's group coordinator decides, through {@link ActiveInstanceAssignor}:
 * the active instance is given every partition of the group's topics, the others none, and when it
 * leaves the group (stopped, or killed and its session expired) another is made active. A service
 * waits in {@link #awaitActive()} before it reads its state back and starts acting, so a standby
 * has read nothing that could be stale when it takes over.
 */
public final class ActiveInstance {

    private static final Logger LOG = Logger.getLogger(ActiveInstance.class);
    private static final Map<String, ActiveInstance> BY_KEY = new ConcurrentHashMap<>();
    private static final String PROCESS_ID = UUID.randomUUID().toString();

    /** The exit code of a process that lost its role (EX_TEMPFAIL: start it again). */
    public static final int LOST_ROLE_EXIT_CODE = 75;

    private final String group;
    private final Claim claim;
    private volatile int activeGeneration;
    private volatile boolean decided;
    private volatile Instant activeSince;
    private volatile Runnable onLost = () -> LOG.error("this instance is no longer the active one");

    private ActiveInstance(String group, String instanceId) {
        this.group = group;
        this.claim = new Claim(instanceId, System.currentTimeMillis(), 0);
    }

    /** This process's instance of the service whose consumers use {@code group}. */
    public static ActiveInstance of(String group) {
        return of(group, PROCESS_ID);
    }

    /** An instance named in the consumer's settings: several instances in one JVM (tests). */
    static ActiveInstance of(String group, String instanceId) {
        return BY_KEY.computeIfAbsent(
                group + "/" + instanceId, key -> new ActiveInstance(group, instanceId));
    }

    public String group() {
        return group;
    }

    public String instanceId() {
        return claim.instanceId();
    }

    public boolean isActive() {
        return activeGeneration > 0;
    }

    /** When the group made this instance active, if it did. */
    public Optional<Instant> activeSince() {
        return Optional.ofNullable(activeSince);
    }

    /**
     * What happens when another instance was made active while this one thought it was (it was
     * paused or cut off longer than its session): by default only logged; a service stops itself,
     * so that it never acts beside the new active instance.
     */
    public void onLost(Runnable onLost) {
        this.onLost = onLost;
    }

    /**
     * Stands by until the group makes this instance active, saying so in {@code gate} (ready: a
     * standby is healthy); once active, losing the role stops the process ({@link
     * #LOST_ROLE_EXIT_CODE}), so a cut-off instance never acts beside the new one and its
     * orchestrator starts it again as a standby.
     */
    public void standByUntilActive(ReadyGate gate) throws InterruptedException {
        onLost(() -> Quarkus.asyncExit(LOST_ROLE_EXIT_CODE));
        // Not ready before the group decided: a lone instance is ready only once it could act.
        gate.progress("joining the consumer group " + group + " to learn which instance acts");
        awaitDecision();
        if (!isActive()) {
            gate.standBy(
                    "standby: another instance of "
                            + group
                            + " is active; this one takes over when that one leaves");
            LOG.infof("standing by as instance %s of %s", instanceId(), group);
            awaitActive();
        }
        gate.progress("made the active instance of " + group);
    }

    /**
     * {@link #standByUntilActive}, then {@code start}: what a service's start-up thread runs.
     * Returns without starting when the thread is interrupted (the service stops while standing
     * by).
     */
    public void startWhenActive(ReadyGate gate, Runnable start) {
        try {
            standByUntilActive(gate);
        } catch (InterruptedException e) {
            return;
        }
        start.run();
    }

    /** Blocks until the group has told this instance its role once. */
    public synchronized void awaitDecision() throws InterruptedException {
        while (!decided) {
            wait();
        }
    }

    /** Blocks until the group makes this instance active. */
    public synchronized void awaitActive() throws InterruptedException {
        while (!isActive()) {
            wait();
        }
    }

    /** What this instance tells the group when it joins: who it is, and whether it is active. */
    Claim claim() {
        return new Claim(claim.instanceId(), claim.startedAt(), activeGeneration);
    }

    /** The group chose {@code chosenInstance} as the active one, in {@code generation}. */
    synchronized void assigned(String chosenInstance, int generation) {
        boolean chosen = claim.instanceId().equals(chosenInstance);
        decided = true;
        notifyAll();
        if (chosen && !isActive()) {
            activeGeneration = Math.max(generation, 1);
            activeSince = Instant.now();
            LOG.infof("active instance of %s (generation %d)", group, activeGeneration);
            notifyAll();
        } else if (!chosen && isActive()) {
            LOG.errorf(
                    "another instance of %s was made active in generation %d: stopping",
                    group, generation);
            onLost.run();
        }
    }

    /**
     * One member's claim: {@code activeGeneration} is the group generation in which its instance
     * became active (0: standby), so after a split the most recently made active instance keeps the
     * role, decided without comparing clocks.
     */
    record Claim(String instanceId, long startedAt, int activeGeneration) {

        String encode() {
            return instanceId + "|" + startedAt + "|" + activeGeneration;
        }

        static Optional<Claim> decode(String text) {
            String[] parts = text == null ? new String[0] : text.split("\\|");
            if (parts.length != 3) {
                return Optional.empty();
            }
            try {
                return Optional.of(
                        new Claim(parts[0], Long.parseLong(parts[1]), Integer.parseInt(parts[2])));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }
    }
}
