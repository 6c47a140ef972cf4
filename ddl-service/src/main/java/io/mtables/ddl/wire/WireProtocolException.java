package io.mtables.ddl.wire;

/** The client broke the protocol: it is told so (SQLSTATE 08P01) and disconnected. */
final class WireProtocolException extends RuntimeException {

    WireProtocolException(String what) {
        super("Protocol violation: " + what + ".");
    }
}
