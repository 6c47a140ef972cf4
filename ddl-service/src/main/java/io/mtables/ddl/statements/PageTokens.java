package io.mtables.ddl.statements;

import io.mtables.ddl.domain.StatementException;
import io.mtables.ddl.infra.ScanPosition;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A page token: where the next page of a SELECT's rows starts ({@link ScanPosition}), for that
 * statement only (a digest of its text), signed by this instance (an HMAC under a key made at
 * start): a caller can neither point a page elsewhere in the snapshot (a skip of a billion rows),
 * nor at another snapshot, nor past its LIMIT. It grants nothing: the statement is checked and
 * authorized again with each page. Another instance's token, or one from before a restart, is
 * refused: the SELECT is run again from its first page.
 */
public final class PageTokens {

    /** The reason of a page token that is not one, or not this statement's. */
    public static final String INVALID_PAGE_TOKEN = "InvalidPageToken";

    private static final String VERSION = "p1";
    private static final String MAC = "HmacSHA256";
    private static final byte[] KEY = new byte[32];

    static {
        new SecureRandom().nextBytes(KEY);
    }

    private PageTokens() {}

    /** The token of {@code position} in {@code statement}'s rows. */
    public static String of(ScanPosition position, String statement) {
        String text =
                String.join(
                        ":",
                        VERSION,
                        digest(statement),
                        position.uuid(),
                        Long.toString(position.snapshot()),
                        Integer.toString(position.split()),
                        Long.toString(position.rowInSplit()),
                        Long.toString(position.returned()));
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(
                        (text + ":" + signature(text, statement)).getBytes(StandardCharsets.UTF_8));
    }

    /** The token's signature: its text and the whole statement, under this instance's key. */
    private static String signature(String text, String statement) {
        try {
            Mac mac = Mac.getInstance(MAC);
            mac.init(new SecretKeySpec(KEY, MAC));
            mac.update(text.getBytes(StandardCharsets.UTF_8));
            mac.update((byte) 0);
            return HexFormat.of()
                    .formatHex(mac.doFinal(statement.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java runtime has " + MAC, e);
        }
    }

    /** Where {@code token} says {@code statement}'s next page starts. */
    public static ScanPosition read(String token, String statement) {
        String[] parts;
        try {
            parts =
                    new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8)
                            .split(":", -1);
        } catch (IllegalArgumentException notBase64) {
            throw invalid("it is not a token this service gave");
        }
        if (parts.length != 8 || !parts[0].equals(VERSION) || parts[2].isEmpty()) {
            throw invalid("it is not a token this service gave");
        }
        if (!parts[1].equals(digest(statement))) {
            throw invalid("it was given for another statement");
        }
        String text = String.join(":", java.util.Arrays.asList(parts).subList(0, 7));
        if (!MessageDigest.isEqual(
                signature(text, statement).getBytes(StandardCharsets.US_ASCII),
                parts[7].getBytes(StandardCharsets.US_ASCII))) {
            throw invalid(
                    "this instance did not give it (another instance did, or this one before a"
                            + " restart), or it was changed");
        }
        try {
            ScanPosition position =
                    new ScanPosition(
                            parts[2],
                            Long.parseLong(parts[3]),
                            Integer.parseInt(parts[4]),
                            Long.parseLong(parts[5]),
                            Long.parseLong(parts[6]));
            if (position.snapshot() < 0
                    || position.split() < 0
                    || position.rowInSplit() < 0
                    || position.returned() < 0) {
                throw invalid("it is not a token this service gave");
            }
            return position;
        } catch (NumberFormatException notNumbers) {
            throw invalid("it is not a token this service gave");
        }
    }

    private static StatementException invalid(String why) {
        return StatementException.invalid(
                INVALID_PAGE_TOKEN,
                "The page token cannot be used: " + why + ".",
                "the nextPageToken of the previous page, with the same statement, unchanged, sent"
                        + " to the instance that gave it; else the SELECT again from its first"
                        + " page");
    }

    private static String digest(String statement) {
        try {
            byte[] hash =
                    MessageDigest.getInstance("SHA-256")
                            .digest(statement.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
