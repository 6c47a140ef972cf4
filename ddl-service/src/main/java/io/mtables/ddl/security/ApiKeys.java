package io.mtables.ddl.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;

/**
 * Service accounts' API keys: {@code mtk.<account>.<secret>}, checked against the SHA-256 of the
 * key stored for the account.
 *
 * <p>A plain SHA-256, not a slow password hash: the secret is 32 random bytes, which no dictionary
 * guesses, so a slow hash would add nothing but its cost (bcrypt's ~100 ms against the 5 ms a
 * statement's authentication may take). The digests are compared in constant time.
 */
public final class ApiKeys {

    /** What every API key starts with, so that it is never taken for a JWT. */
    public static final String PREFIX = "mtk.";

    private ApiKeys() {}

    public static boolean looksLikeApiKey(String token) {
        return token.startsWith(PREFIX);
    }

    /**
     * The account that {@code key} belongs to, if it is one of {@code accounts}' keys.
     *
     * @param accounts each account's hex SHA-256 of its key
     */
    public static Optional<String> accountOf(String key, Map<String, String> accounts) {
        if (!looksLikeApiKey(key)) {
            return Optional.empty();
        }
        int end = key.indexOf('.', PREFIX.length());
        if (end < 0) {
            return Optional.empty();
        }
        String account = key.substring(PREFIX.length(), end);
        String stored = accounts.get(account);
        if (stored == null) {
            return Optional.empty();
        }
        byte[] expected;
        try {
            expected = HexFormat.of().parseHex(stored.trim().toLowerCase());
        } catch (IllegalArgumentException notHex) {
            return Optional.empty();
        }
        return MessageDigest.isEqual(sha256(key), expected)
                ? Optional.of(account)
                : Optional.empty();
    }

    /**
     * The hex SHA-256 of {@code key}, as {@code mt.auth.service-accounts.<name>.key-sha256} holds
     * it.
     */
    public static String sha256Hex(String key) {
        return HexFormat.of().formatHex(sha256(key));
    }

    private static byte[] sha256(String key) {
        try {
            return MessageDigest.getInstance("SHA-256")
                    .digest(key.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
