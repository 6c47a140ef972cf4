package io.mtables.jobmanager.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class EmbeddedSizingTest {

    private static final long GIB = 1024L * 1024 * 1024;

    @Test
    void theHeapIsAnEighthOfTheMachineAndASlotPer128MiBOfIt() {
        assertThat(EmbeddedSizing.of(Optional.empty(), Optional.empty(), 24 * GIB))
                .isEqualTo(new EmbeddedSizing(24, "3072m"));
        assertThat(EmbeddedSizing.of(Optional.empty(), Optional.empty(), 16 * GIB))
                .isEqualTo(new EmbeddedSizing(16, "2048m"));
    }

    @Test
    void smallAndLargeMachinesStayWithinBounds() {
        assertThat(EmbeddedSizing.of(Optional.empty(), Optional.empty(), 4 * GIB))
                .as("1 GiB heap at least, 8 slots at least")
                .isEqualTo(new EmbeddedSizing(8, "1024m"));
        assertThat(EmbeddedSizing.of(Optional.empty(), Optional.empty(), 256 * GIB))
                .as("4 GiB heap, 32 slots at most")
                .isEqualTo(new EmbeddedSizing(32, "4096m"));
    }

    @Test
    void explicitSettingsWinAndTheSlotsFollowAnExplicitHeap() {
        assertThat(EmbeddedSizing.of(Optional.of(6), Optional.of("1g"), 24 * GIB))
                .isEqualTo(new EmbeddedSizing(6, "1g"));
        assertThat(EmbeddedSizing.of(Optional.empty(), Optional.of("2g"), 4 * GIB))
                .isEqualTo(new EmbeddedSizing(16, "2g"));
        assertThat(EmbeddedSizing.of(Optional.empty(), Optional.of("1536m"), 4 * GIB).taskSlots())
                .isEqualTo(12);
    }

    @Test
    void aBadSettingIsRefusedWithWhatIsAllowed() {
        assertThatThrownBy(() -> EmbeddedSizing.of(Optional.empty(), Optional.of("lots"), 4 * GIB))
                .hasMessage(
                        "mt.flink.embedded.heap must be a JVM heap size such as 2g or 1536m; was"
                                + " 'lots'");
        assertThatThrownBy(() -> EmbeddedSizing.of(Optional.of(0), Optional.empty(), 4 * GIB))
                .hasMessage("mt.flink.embedded.task-slots must be at least 1; was 0");
    }

    @Test
    void theMachinesMemoryIsKnown() {
        assertThat(EmbeddedSizing.physicalMemory()).isGreaterThan(GIB);
    }
}
