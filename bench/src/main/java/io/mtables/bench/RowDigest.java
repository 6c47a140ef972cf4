package io.mtables.bench;

import java.nio.charset.StandardCharsets;

/**
 * An order-independent digest of a set of rows (their count and the sum of a 64-bit hash of each),
 * so the bench can compare a large table with the expected result without holding both in memory.
 */
final class RowDigest {

    private long rows;
    private long sum;

    void add(Object... values) {
        long hash = 0xcbf29ce484222325L; // FNV-1a over the values' text, separated
        for (Object value : values) {
            for (byte b : String.valueOf(value).getBytes(StandardCharsets.UTF_8)) {
                hash = (hash ^ (b & 0xff)) * 0x100000001b3L;
            }
            hash = (hash ^ 0x1f) * 0x100000001b3L;
        }
        rows++;
        sum += hash;
    }

    long rows() {
        return rows;
    }

    boolean sameAs(RowDigest other) {
        return rows == other.rows && sum == other.sum;
    }

    @Override
    public String toString() {
        return String.format("%,d rows, digest %016x", rows, sum);
    }
}
