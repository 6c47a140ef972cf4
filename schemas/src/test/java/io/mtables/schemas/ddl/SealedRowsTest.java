package io.mtables.schemas.ddl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
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

    /** RFC 5869, A.1: the first 32 bytes of its output. */
    @Test
    void theKeyDerivationIsHkdfSha256() {
        byte[] ikm = new byte[22];
        Arrays.fill(ikm, (byte) 0x0b);
        byte[] salt = HexFormat.of().parseHex("000102030405060708090a0b0c");
        byte[] info = HexFormat.of().parseHex("f0f1f2f3f4f5f6f7f8f9");

        assertThat(HexFormat.of().formatHex(SealedRows.hkdfSha256(salt, ikm, info)))
                .isEqualTo("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf");
    }

    @Test
    void aCallersKeyIsTheSameForTheSameCredentialAndRequestAndNoOtherwise() {
        SecretKey key = SealedRows.keyFor("Bearer mtk.a.b", "r1");
        String sealed = SealedRows.seal(ROWS, "r1", key);

        assertThat(SealedRows.open(sealed, "r1", SealedRows.keyFor("Bearer mtk.a.b", "r1")))
                .isEqualTo(ROWS);
        assertThat(SealedRows.keyFor("Bearer mtk.a.c", "r1").getEncoded())
                .isNotEqualTo(key.getEncoded());
        assertThat(SealedRows.keyFor("Bearer mtk.a.b", "r2").getEncoded())
                .isNotEqualTo(key.getEncoded());
        assertThat(SealedRows.key(SealedRows.headerFor("Bearer mtk.a.b", "r1")).getEncoded())
                .isEqualTo(key.getEncoded());
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
