package io.mtables.schemas;

/**
 * One versioned contract: the event type written in {@code ce_type}, the Java record a payload maps
 * to, and the JSON Schema that is the source of truth for its shape.
 *
 * @param name the event name, such as {@code StatementResult}
 * @param version the major version; a change that a reader of the old version cannot read bumps it
 * @param javaType the record the payload maps to
 * @param <T> the record type
 */
public record Contract<T>(String name, int version, Class<T> javaType) {

    /** The CloudEvents type, for example {@code io.mtables.mt.StatementResult.v1}. */
    public String type() {
        return EventHeaders.TYPE_PREFIX + name + ".v" + version;
    }

    /** The class-path location of the JSON Schema of this contract. */
    public String schemaResource() {
        return "/io/mtables/schemas/v" + version + "/" + name + ".schema.json";
    }
}
