package io.mtables.schemas.catalog;

import java.util.Objects;

/**
 * A table's identifier as every contract writes it, {@code catalog.database.name} (the name may
 * hold dots; catalog and database do not), and the one way to quote identifiers in the SQL we
 * generate.
 *
 * @param catalog the catalog, e.g. {@code default_catalog}
 * @param database the database
 * @param name the table's name
 */
public record TableId(String catalog, String database, String name) {

    public TableId {
        Objects.requireNonNull(catalog);
        Objects.requireNonNull(database);
        Objects.requireNonNull(name);
    }

    /** {@code catalog.database.name} split in three; refused when it has fewer parts. */
    public static TableId of(String qualified) {
        String[] parts = qualified.split("\\.", 3);
        if (parts.length < 3) {
            throw new IllegalArgumentException(
                    "'"
                            + qualified
                            + "' is not a qualified table identifier (catalog.database.name)");
        }
        return new TableId(parts[0], parts[1], parts[2]);
    }

    /** {@code catalog.database.name}, as the contracts write it. */
    public String qualified() {
        return catalog + "." + database + "." + name;
    }

    /** {@code `catalog`.`database`.`name`}, for SQL. */
    public String quoted() {
        return quote(catalog) + "." + quote(database) + "." + quote(name);
    }

    /** {@code `catalog`.`database`}, for SQL. */
    public String quotedDatabase() {
        return quote(catalog) + "." + quote(database);
    }

    /** One identifier in backticks, a backtick in it doubled (Flink's SQL). */
    public static String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }

    @Override
    public String toString() {
        return qualified();
    }
}
