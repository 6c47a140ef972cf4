package io.mtables.ddl.wire;

import io.mtables.schemas.ddl.StatementResult.ResultColumn;
import java.util.List;

/** The backend messages that carry a {@link Reply}: errors, notices, row descriptions and rows. */
final class WireReplies {

    static final short TEXT = 0;
    static final short BINARY = 1;

    private WireReplies() {}

    /**
     * An ErrorResponse ({@code severity} ERROR or FATAL); {@code base} is where the statement
     * starts in the query string the client sent, so that its position (1-based) points into that.
     */
    static WireOutput.Message error(String severity, Reply.Failed failed, int base) {
        WireOutput.Message message =
                new WireOutput.Message('E')
                        .byte1('S')
                        .cstring(severity)
                        .byte1('V')
                        .cstring(severity)
                        .byte1('C')
                        .cstring(failed.sqlState())
                        .byte1('M')
                        .cstring(failed.message() == null ? failed.sqlState() : failed.message());
        if (failed.detail() != null) {
            message.byte1('D').cstring(failed.detail());
        }
        if (failed.hint() != null) {
            message.byte1('H').cstring(failed.hint());
        }
        if (failed.position() >= 0) {
            message.byte1('P').cstring(Integer.toString(base + failed.position() + 1));
        }
        return message.byte1('\0');
    }

    static WireOutput.Message notice(String text) {
        return new WireOutput.Message('N')
                .byte1('S')
                .cstring("NOTICE")
                .byte1('V')
                .cstring("NOTICE")
                .byte1('C')
                .cstring("00000")
                .byte1('M')
                .cstring(text)
                .byte1('\0');
    }

    /** The format each column goes out in, as the client asked. */
    static short[] formats(List<ResultColumn> columns, short[] requested) {
        short[] formats = new short[columns.size()];
        for (int i = 0; i < formats.length; i++) {
            short asked =
                    requested.length == 0
                            ? TEXT
                            : requested.length == 1 ? requested[0] : requested[i];
            formats[i] = asked == BINARY ? BINARY : TEXT;
        }
        return formats;
    }

    static WireOutput.Message rowDescription(List<ResultColumn> columns, short[] formats) {
        WireOutput.Message message = new WireOutput.Message('T').int16(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            PgTypes type = PgTypes.of(columns.get(i).type());
            message.cstring(columns.get(i).name())
                    .int32(0) // no table of PostgreSQL's
                    .int16(0)
                    .int32(type.oid)
                    .int16(type.size)
                    .int32(-1)
                    .int16(formats[i]);
        }
        return message;
    }

    static PgTypes[] types(List<ResultColumn> columns) {
        return columns.stream().map(column -> PgTypes.of(column.type())).toArray(PgTypes[]::new);
    }

    static WireOutput.Message dataRow(PgTypes[] types, List<Object> row, short[] formats) {
        WireOutput.Message message = new WireOutput.Message('D').int16(row.size());
        for (int i = 0; i < row.size(); i++) {
            Object value = row.get(i);
            if (value == null) {
                message.int32(-1);
            } else {
                byte[] bytes = formats[i] == BINARY ? types[i].binary(value) : types[i].text(value);
                message.int32(bytes.length).bytes(bytes);
            }
        }
        return message;
    }

    static WireOutput.Message commandComplete(String tag) {
        return new WireOutput.Message('C').cstring(tag);
    }
}
