package io.mtables.ddl.wire;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The backend's messages, each built whole ({@link Message}) and buffered until {@link #flush()}:
 * after ReadyForQuery, on a client's Flush, and when the buffer fills while rows stream.
 */
final class WireOutput {

    private final OutputStream out;

    WireOutput(OutputStream out) {
        this.out = new BufferedOutputStream(out, 64 * 1024);
    }

    void send(Message message) throws IOException {
        message.writeTo(out);
    }

    /** One byte with no frame: the answer to an SSL or GSSAPI encryption request. */
    void sendByte(char answer) throws IOException {
        out.write(answer);
        out.flush();
    }

    void flush() throws IOException {
        out.flush();
    }

    /** One backend message: its type byte, then a body built field by field. */
    static final class Message {
        private final char type;
        private final ByteArrayOutputStream body = new ByteArrayOutputStream(64);

        Message(char type) {
            this.type = type;
        }

        Message int32(int value) {
            body.write(value >>> 24);
            body.write(value >>> 16);
            body.write(value >>> 8);
            body.write(value);
            return this;
        }

        Message int16(int value) {
            body.write(value >>> 8);
            body.write(value);
            return this;
        }

        Message byte1(char value) {
            body.write(value);
            return this;
        }

        Message bytes(byte[] value) {
            body.write(value, 0, value.length);
            return this;
        }

        /** A string and its terminating NUL. */
        Message cstring(String value) {
            return bytes(value.getBytes(StandardCharsets.UTF_8)).byte1('\0');
        }

        private void writeTo(OutputStream out) throws IOException {
            int length = body.size() + 4;
            out.write(type);
            out.write(length >>> 24);
            out.write(length >>> 16);
            out.write(length >>> 8);
            out.write(length);
            body.writeTo(out);
        }
    }
}
