package io.mtables.ddl.pgcatalog;

import org.h2.api.JavaObjectSerializer;

/**
 * The emulated catalog's serializer of H2's JAVA_OBJECT values: none. A client's query could
 * otherwise cast bytes of its choosing to JAVA_OBJECT and have them deserialized in ddl-service.
 */
public final class NoJavaObjects implements JavaObjectSerializer {

    @Override
    public byte[] serialize(Object object) {
        throw new UnsupportedOperationException("Java objects are not values of the catalog");
    }

    @Override
    public Object deserialize(byte[] bytes) {
        throw new UnsupportedOperationException("Java objects are not values of the catalog");
    }
}
