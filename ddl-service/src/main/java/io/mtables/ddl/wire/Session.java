package io.mtables.ddl.wire;

import java.util.LinkedHashMap;
import java.util.Map;

/** One client's session: its settings and where it is in a transaction block. */
final class Session {

    /** ReadyForQuery's status: idle, in a transaction block, in a failed one. */
    enum Transaction {
        IDLE('I'),
        BLOCK('T'),
        FAILED('E');

        final char status;

        Transaction(char status) {
            this.status = status;
        }
    }

    /** The settings reported to the client at start-up (ParameterStatus) and read by SHOW. */
    final Map<String, String> settings = new LinkedHashMap<>();

    Transaction transaction = Transaction.IDLE;

    Session(String user, String applicationName) {
        settings.put("server_version", "15.0");
        settings.put("server_encoding", "UTF8");
        settings.put("client_encoding", "UTF8");
        settings.put("DateStyle", "ISO, MDY");
        settings.put("IntervalStyle", "postgres");
        settings.put("TimeZone", "UTC");
        settings.put("integer_datetimes", "on");
        settings.put("standard_conforming_strings", "on");
        settings.put("is_superuser", "off");
        settings.put("session_authorization", user);
        settings.put("application_name", applicationName);
    }

    /** The setting named {@code name} in any case, or null. */
    String setting(String name) {
        return settings.entrySet().stream()
                .filter(entry -> entry.getKey().equalsIgnoreCase(name))
                .map(Map.Entry::getValue)
                .findFirst()
                .orElse(null);
    }

    /** Sets {@code name} (in the case it was reported in, when it was). */
    void set(String name, String value) {
        String known =
                settings.keySet().stream()
                        .filter(key -> key.equalsIgnoreCase(name))
                        .findFirst()
                        .orElse(name.toLowerCase(java.util.Locale.ROOT));
        settings.put(known, value);
    }

    /** A failed statement inside a block fails the block; outside, nothing. */
    void failed() {
        if (transaction == Transaction.BLOCK) {
            transaction = Transaction.FAILED;
        }
    }
}
