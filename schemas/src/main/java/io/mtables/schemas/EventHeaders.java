package io.mtables.schemas;

/**
 * Kafka header names of the event envelope: CloudEvents 1.0 in binary mode (the payload is the
 * record value, the attributes are {@code ce_*} headers), as the CloudEvents Kafka binding names
 * them.
 */
public final class EventHeaders {

    public static final String SPEC_VERSION = "ce_specversion";
    public static final String ID = "ce_id";
    public static final String SOURCE = "ce_source";

    /** {@code io.mtables.mt.<EventName>.v<N>}: which contract the payload follows. */
    public static final String TYPE = "ce_type";

    /** The table identifier, the same as the record key. */
    public static final String SUBJECT = "ce_subject";

    public static final String TIME = "ce_time";

    /**
     * A CloudEvents extension on a {@code StatementResult.v1} that answers a command of {@code
     * mt.ddl.commands}: the command's position, {@code topic-partition@offset}. A command
     * redelivered after a crash (the same position) is not answered again; one sent again (another
     * position, the same request id) gets its first result once more.
     */
    public static final String COMMAND = "ce_mtcommand";

    public static final String CONTENT_TYPE = "content-type";

    /**
     * On a command of {@code mt.ddl.commands}: its sender's credential, {@code Bearer <token>} (an
     * API key or a JWT), checked by ddl-service exactly as on its REST port, since Kafka does not
     * tell a consumer who produced a record. Not a CloudEvents attribute: a secret, read only by
     * ddl-service (docs/security.md).
     */
    public static final String AUTHORIZATION = "authorization";

    /**
     * On a command of {@code mt.ddl.commands} that is a query: a 256-bit AES key (base64) its
     * sender made, with which ddl-service seals the query's rows in the result ({@code
     * StatementResult.sealedRows}, {@code SealedRows}). A query without one is refused: its rows
     * would be on {@code mt.ddl.results} for every client principal to read. A secret, as {@link
     * #AUTHORIZATION} is.
     */
    public static final String RESULT_KEY = "mt-result-key";

    /** The CloudEvents version we write. */
    public static final String SPEC_VERSION_1_0 = "1.0";

    /** The prefix of every event type we define. */
    public static final String TYPE_PREFIX = "io.mtables.mt.";

    private EventHeaders() {}
}
