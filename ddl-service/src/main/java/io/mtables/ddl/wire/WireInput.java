package io.mtables.ddl.wire;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The frontend's messages as they arrive: the startup packet (a length, then the rest) and then
 * typed messages (a type byte, a length, the rest), each read whole, up to a size limit.
 */
final class WireInput {

    private final DataInputStream in;
    private final int largestMessage;

    WireInput(InputStream in, int largestMessage) {
        this.in = new DataInputStream(in);
        this.largestMessage = largestMessage;
    }

    /** The startup packet's body (its protocol code first), or null at the end of the stream. */
    Payload startup() throws IOException {
        int length;
        try {
            length = in.readInt();
        } catch (EOFException closed) {
            return null;
        }
        return new Payload('\0', body(length));
    }

    /** Whether the client's next message has begun to arrive (reading it would not wait). */
    boolean hasBuffered() throws IOException {
        return in.available() > 0;
    }

    /** The next typed message, or null at the end of the stream. */
    Payload next() throws IOException {
        int type = in.read();
        if (type < 0) {
            return null;
        }
        return new Payload((char) type, body(in.readInt()));
    }

    private ByteBuffer body(int length) throws IOException {
        if (length < 4 || length - 4 > largestMessage) {
            throw new WireProtocolException(
                    length < 4
                            ? "a message length of " + length + " bytes"
                            : "a message of "
                                    + length
                                    + " bytes, over the largest accepted ("
                                    + largestMessage
                                    + ", mt.ddl.max-statement-bytes and some)");
        }
        byte[] body = new byte[length - 4];
        in.readFully(body);
        return ByteBuffer.wrap(body);
    }

    /** One message's body, read field by field in order. */
    static final class Payload {
        final char type;
        private final ByteBuffer body;

        Payload(char type, ByteBuffer body) {
            this.type = type;
            this.body = body;
        }

        int int32() {
            return body.getInt();
        }

        short int16() {
            return body.getShort();
        }

        byte byte1() {
            return body.get();
        }

        byte[] bytes(int count) {
            if (count < 0 || count > body.remaining()) {
                throw new WireProtocolException(
                        "a value of "
                                + count
                                + " bytes in a message of "
                                + body.remaining()
                                + " more");
            }
            byte[] bytes = new byte[count];
            body.get(bytes);
            return bytes;
        }

        boolean hasMore() {
            return body.hasRemaining();
        }

        /** A NUL-terminated UTF-8 string. */
        String cstring() {
            int start = body.position();
            int end = start;
            while (end < body.limit() && body.get(end) != 0) {
                end++;
            }
            if (end == body.limit()) {
                throw new WireProtocolException("a string without its terminating NUL");
            }
            String text = new String(body.array(), start, end - start, StandardCharsets.UTF_8);
            body.position(end + 1);
            return text;
        }
    }
}
