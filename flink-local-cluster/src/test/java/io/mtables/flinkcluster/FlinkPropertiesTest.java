package io.mtables.flinkcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FlinkPropertiesTest {

    @Test
    void linesOfKeyAndValueAreSettingsAndFormatReadsBack() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("s3.endpoint", "http://10.0.0.1:9900");
        settings.put("execution.checkpointing.dir", "s3://mtables/checkpoints");
        assertEquals(settings, FlinkProperties.parse(FlinkProperties.format(settings)));
        assertEquals(Map.of("a", "b: c"), FlinkProperties.parse("# comment\n\n  a :  b: c  \n"));
    }

    @Test
    void aLineWithoutKeyIsRefusedWithItsNumberAndNotItsValue() {
        var error =
                assertThrows(
                        IllegalArgumentException.class,
                        () -> FlinkProperties.parse("a: b\nsecret-without-colon\n"));
        assertTrue(
                error.getMessage().contains("line 2") && !error.getMessage().contains("secret"),
                error.getMessage());
        assertThrows(IllegalArgumentException.class, () -> FlinkProperties.parse(": value"));
        assertFalse(FlinkProperties.parse("").containsKey(""));
    }
}
