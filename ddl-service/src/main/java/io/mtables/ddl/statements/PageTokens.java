package io.mtables.ddl.statements;

import io.mtables.ddl.domain.StatementException;
import io.mtables.ddl.infra.ScanPosition;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;

/**
 * A page token: where the next page of a SELECT's rows starts ({@link ScanPosition}), for that
 * statement only (a digest of its text). It holds no secret and grants nothing: the statement is
 * checked and authorized again with each page, and reads the same snapshot of the same table.
 */
public final class PageTokens {

    /** The reason of a page token that is not one, or not this statement's. */
    public static final String INVALID_PAGE_TOKEN = "InvalidPageToken";

    private static final String VERSION = "p1";

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
                .encodeToString(text.getBytes(StandardCharsets.UTF_8));
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
        if (parts.length != 7 || !parts[0].equals(VERSION) || parts[2].isEmpty()) {
            throw invalid("it is not a token this service gave");
        }
        if (!parts[1].equals(digest(statement))) {
            throw invalid("it was given for another statement");
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
                "the nextPageToken of the previous page, with the same statement, unchanged");
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
