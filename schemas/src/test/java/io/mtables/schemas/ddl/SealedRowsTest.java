package io.mtables.schemas.ddl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import javax.crypto.SecretKey;
import org.junit.jupiter.api.Test;

class SealedRowsTest {

    private static final List<List<Object>> ROWS =
            List.of(
                    Arrays.asList("alice", 3, 2.5, true, null),
                    Arrays.asList("bob", 0, -1.0, false, "x"));

    @Test
    void rowsSealedWithAKeyOpenWithItForTheSameRequestOnly() {
        SecretKey key = SealedRows.key(SealedRows.newKey());

        String sealed = SealedRows.seal(ROWS, "r1", key);

        assertThat(SealedRows.open(sealed, "r1", key)).isEqualTo(ROWS);
        assertThat(new String(Base64.getDecoder().decode(sealed), StandardCharsets.ISO_8859_1))
                .doesNotContain("alice");
        assertThat(SealedRows.seal(ROWS, "r1", key))
                .as("a new nonce each time")
                .isNotEqualTo(sealed);
        assertThatThrownBy(() -> SealedRows.open(sealed, "r2", key))
                .as("moved under another request id")
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not open");
        SecretKey another = SealedRows.key(SealedRows.newKey());
        assertThatThrownBy(() -> SealedRows.open(sealed, "r1", another))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("another key");
    }

    @Test
    void aKeyIsBase64OfThirtyTwoBytes() {
        assertThatThrownBy(() -> SealedRows.key("c2hvcnQ="))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("5 bytes, not 32");
        assertThatThrownBy(() -> SealedRows.key("not base64!"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not base64");
        assertThat(Base64.getDecoder().decode(SealedRows.newKey())).hasSize(32);
    }

    @Test
    void tamperedRowsDoNotOpen() {
        SecretKey key = SealedRows.key(SealedRows.newKey());
        byte[] sealed = Base64.getDecoder().decode(SealedRows.seal(ROWS, "r1", key));
        sealed[sealed.length - 20] ^= 1;
        String tampered = Base64.getEncoder().encodeToString(sealed);

        assertThatThrownBy(() -> SealedRows.open(tampered, "r1", key))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
