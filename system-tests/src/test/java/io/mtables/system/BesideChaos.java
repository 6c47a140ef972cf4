package io.mtables.system;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A system test that may run beside {@link ChaosIT}: it reads neither the machine's PostgreSQL nor
 * the broker {@code KAFKA_BOOTSTRAP_SERVERS} names while ChaosIT crashes both, so bin/test runs it
 * in a lane of its own with a broker of its own (JUnit tag {@value #TAG}). A test without this mark
 * runs in ChaosIT's lane, one class after the other.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(BesideChaos.TAG)
@interface BesideChaos {
    String TAG = "beside-chaos";
}
