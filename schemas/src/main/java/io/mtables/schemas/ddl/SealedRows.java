package io.mtables.schemas.ddl;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * A query's rows as the result of a command carries them on {@code mt.ddl.results}, which every
 * client principal reads: sealed with the key its sender gave in the command's {@code
 * mt-result-key} header ({@code EventHeaders.RESULT_KEY}), so that only who holds the key opens
 * them. The key travels on {@code mt.ddl.commands}, which only ddl-service and the broker's admins
 * read.
 *
 * <p>The JDK's AES-256-GCM: the text is base64 of a random 12-byte nonce followed by the cipher
 * text of the rows' JSON array; the request id is the associated data, so rows moved under another
 * request id do not open.
 *
 * <p>ddl-service's own key for a caller's request ({@link #keyFor}) is derived from the caller's
 * credential and the request id by HKDF-SHA256 (RFC 5869, on the JDK's HMAC): any instance the
 * caller sends the request to, again or first, derives the same key and opens the rows, and whoever
 * reads the result log without the credential does not.
 */
public final class SealedRows {

    /** A key's length: AES-256. */
    public static final int KEY_BYTES = 32;

    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final String CIPHER = "AES/GCM/NoPadding";
    private static final String HMAC = "HmacSHA256";
    private static final byte[] SALT = "mtables sealed rows v1".getBytes(StandardCharsets.UTF_8);
    private static final ObjectMapper JSON =
            new ObjectMapper()
                    .findAndRegisterModules()
                    .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    private static final SecureRandom RANDOM = new SecureRandom();

    private SealedRows() {}

    /** A new random key, as the header carries it (base64). */
    public static String newKey() {
        byte[] key = new byte[KEY_BYTES];
        RANDOM.nextBytes(key);
        return Base64.getEncoder().encodeToString(key);
    }

    /**
     * The key a header carries.
     *
     * @throws IllegalArgumentException unless it is base64 of {@value #KEY_BYTES} bytes
     */
    public static SecretKey key(String base64) {
        byte[] key;
        try {
            key = Base64.getDecoder().decode(base64.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the result key is not base64", e);
        }
        if (key.length != KEY_BYTES) {
            throw new IllegalArgumentException(
                    "the result key has " + key.length + " bytes, not " + KEY_BYTES + " (AES-256)");
        }
        return new SecretKeySpec(key, "AES");
    }

    /**
     * The key for the rows of {@code requestId} sent with {@code authorization} (the caller's
     * {@code Bearer <token>}): HKDF-SHA256 with the credential as input keying material, a fixed
     * salt and the request id as info.
     */
    public static SecretKey keyFor(String authorization, String requestId) {
        return new SecretKeySpec(
                hkdfSha256(
                        SALT,
                        authorization.getBytes(StandardCharsets.UTF_8),
                        requestId.getBytes(StandardCharsets.UTF_8)),
                "AES");
    }

    /**
     * HKDF-SHA256 (RFC 5869): extract, then the first block of expand, which is all of a 32-byte
     * key.
     */
    static byte[] hkdfSha256(byte[] salt, byte[] inputKeyingMaterial, byte[] info) {
        try {
            Mac extract = Mac.getInstance(HMAC);
            extract.init(new SecretKeySpec(salt, HMAC));
            byte[] pseudoRandomKey = extract.doFinal(inputKeyingMaterial);
            Mac expand = Mac.getInstance(HMAC);
            expand.init(new SecretKeySpec(pseudoRandomKey, HMAC));
            expand.update(info);
            expand.update((byte) 1);
            return expand.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
        }
    }

    /** The key {@link #keyFor} gives, as the header carries it (base64). */
    public static String headerFor(String authorization, String requestId) {
        return Base64.getEncoder().encodeToString(keyFor(authorization, requestId).getEncoded());
    }

    /** {@code rows} sealed with {@code key} for the result of {@code requestId}. */
    public static String seal(List<List<Object>> rows, String requestId, SecretKey key) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance(CIPHER);
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(requestId.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(JSON.writeValueAsBytes(rows));
            return Base64.getEncoder()
                    .encodeToString(
                            ByteBuffer.allocate(NONCE_BYTES + sealed.length)
                                    .put(nonce)
                                    .put(sealed)
                                    .array());
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("sealing the rows of " + requestId, e);
        }
    }

    /**
     * The rows {@code sealed} holds.
     *
     * @throws IllegalArgumentException when {@code key} does not open them for {@code requestId}
     */
    public static List<List<Object>> open(String sealed, String requestId, SecretKey key) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(sealed);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the sealed rows are not base64", e);
        }
        if (bytes.length <= NONCE_BYTES) {
            throw new IllegalArgumentException("the sealed rows are too short");
        }
        try {
            Cipher cipher = Cipher.getInstance(CIPHER);
            cipher.init(
                    Cipher.DECRYPT_MODE,
                    key,
                    new GCMParameterSpec(TAG_BITS, bytes, 0, NONCE_BYTES));
            cipher.updateAAD(requestId.getBytes(StandardCharsets.UTF_8));
            byte[] json = cipher.doFinal(bytes, NONCE_BYTES, bytes.length - NONCE_BYTES);
            return JSON.readValue(json, new TypeReference<List<List<Object>>>() {});
        } catch (AEADBadTagException e) {
            throw new IllegalArgumentException(
                    "the key does not open the rows of " + requestId + " (another key's?)", e);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("opening the rows of " + requestId, e);
        }
    }
}
