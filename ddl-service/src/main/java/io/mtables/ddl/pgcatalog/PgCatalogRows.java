package io.mtables.ddl.pgcatalog;

import io.mtables.ddl.pgcatalog.PgColumnType.BuiltIn;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The rows of the emulated pg_catalog for a set of tables: a PostgreSQL database per Flink catalog,
 * a schema per Flink database, a table per table (source and materialized alike: {@code relkind
 * 'r'}, so that {@code \dt} and getTables list them), a column per column, a primary key as the
 * unique index and the constraint PostgreSQL would have, a table's COMMENT as its description.
 */
final class PgCatalogRows {

    /** The role that owns what no principal does (PostgreSQL's bootstrap superuser is 10). */
    static final int SYSTEM_ROLE = 10;

    static final String SYSTEM_ROLE_NAME = "mtables";

    /** btree's oid in PostgreSQL: a primary key's index. */
    private static final int INDEX_METHOD = 403;

    static final int PG_CATALOG = 11;
    static final int INFORMATION_SCHEMA = 13_000;
    static final String DEFAULT_DATABASE = "default_catalog";

    /** The tables a load replaces; the others hold what never changes. */
    private static final List<String> LOADED =
            List.of(
                    "pg_database",
                    "pg_namespace",
                    "pg_roles",
                    "pg_am",
                    "pg_class",
                    "pg_attribute",
                    "pg_index",
                    "pg_constraint",
                    "pg_description",
                    "mt_definitions");

    private static final Pattern PLAIN_IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_$]*");

    private final Connection connection;
    private final Oids oids;

    PgCatalogRows(Connection connection, Oids oids) {
        this.connection = connection;
        this.oids = oids;
    }

    /** pg_type's rows: the built-in types and their array types. */
    static void loadTypes(Connection connection) throws SQLException {
        List<Object[]> rows = new ArrayList<>();
        for (BuiltIn type : BuiltIn.values()) {
            boolean byValue = type.length > 0 && type.length <= 8;
            int collation = type.category == 'S' ? 100 : 0;
            rows.add(
                    typeRow(
                            type.oid,
                            type.typname,
                            type.length,
                            byValue,
                            type.category,
                            0,
                            type.arrayOid,
                            collation));
            rows.add(
                    typeRow(
                            type.arrayOid,
                            "_" + type.typname,
                            -1,
                            false,
                            'A',
                            type.oid,
                            0,
                            collation));
        }
        insert(connection, "pg_type", rows);
        insert(
                connection,
                "pg_namespace",
                List.of(
                        new Object[] {PG_CATALOG, "pg_catalog", SYSTEM_ROLE, null},
                        new Object[] {
                            INFORMATION_SCHEMA, "information_schema", SYSTEM_ROLE, null
                        }));
    }

    private static Object[] typeRow(
            int oid,
            String name,
            int length,
            boolean byValue,
            char category,
            int element,
            int array,
            int collation) {
        return new Object[] {
            oid,
            name,
            PG_CATALOG,
            SYSTEM_ROLE,
            (short) length,
            byValue,
            "b",
            String.valueOf(category),
            false,
            true,
            ",",
            0,
            0,
            element,
            array,
            name + "in",
            name + "out",
            name + "recv",
            name + "send",
            "i",
            length > 0 ? "p" : "x",
            false,
            0,
            -1,
            0,
            collation,
            null,
            null
        };
    }

    /** Replaces the loaded tables' rows with those of {@code tables}. */
    void load(List<TableDefinition> tables) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            for (String table : LOADED) {
                statement.execute(
                        table.equals("pg_namespace")
                                ? "DELETE FROM mtpg.pg_namespace WHERE oid NOT IN (11, 13000)"
                                : "TRUNCATE TABLE mtpg." + table);
            }
        }
        List<TableDefinition> sorted = new ArrayList<>(tables);
        sorted.sort(Comparator.comparing(TableDefinition::table));

        Set<String> databases = new TreeSet<>(Set.of(DEFAULT_DATABASE));
        Set<String> schemas = new TreeSet<>();
        Set<String> owners = new TreeSet<>();
        for (TableDefinition table : sorted) {
            TableId id = TableId.of(table.table());
            databases.add(id.catalog());
            schemas.add(id.database());
            if (table.owner() != null) {
                owners.add(table.owner());
            }
        }
        List<Object[]> roles = new ArrayList<>();
        roles.add(role(SYSTEM_ROLE, SYSTEM_ROLE_NAME));
        Map<String, Integer> roleOids = new HashMap<>();
        for (String owner : owners) {
            int oid = oids.of("role:" + owner);
            roleOids.put(owner, oid);
            roles.add(role(oid, owner));
        }
        insert(connection, "pg_roles", roles);

        List<Object[]> databaseRows = new ArrayList<>();
        for (String database : databases) {
            databaseRows.add(
                    new Object[] {
                        oids.of("database:" + database),
                        database,
                        SYSTEM_ROLE,
                        6,
                        "c",
                        false,
                        true,
                        -1,
                        1663,
                        "C.UTF-8",
                        "C.UTF-8",
                        null,
                        null,
                        null
                    });
        }
        insert(connection, "pg_database", databaseRows);

        Map<String, Integer> schemaOids = new HashMap<>();
        List<Object[]> namespaces = new ArrayList<>();
        for (String schema : schemas) {
            int oid = oids.of("schema:" + schema);
            schemaOids.put(schema, oid);
            namespaces.add(new Object[] {oid, schema, SYSTEM_ROLE, null});
        }
        insert(connection, "pg_namespace", namespaces);

        // A table's access method says where its rows are: Paimon for a materialized table, the
        // connector for a source table (psql's \d+ prints it).
        Map<String, Integer> accessMethods = new HashMap<>();
        List<Object[]> methods = new ArrayList<>();
        methods.add(new Object[] {2, "heap", "heap_tableam_handler", "t"});
        accessMethods.put("heap", 2);
        methods.add(new Object[] {INDEX_METHOD, "btree", "bthandler", "i"});
        for (TableDefinition table : sorted) {
            String method = accessMethod(table);
            if (!accessMethods.containsKey(method)) {
                int oid = oids.of("am:" + method);
                accessMethods.put(method, oid);
                methods.add(new Object[] {oid, method, null, "t"});
            }
        }
        insert(connection, "pg_am", methods);

        Rows rows = new Rows();
        rows.classes.add(
                relation(
                        PgCatalogFunctions.PG_CLASS,
                        "pg_class",
                        PG_CATALOG,
                        SYSTEM_ROLE,
                        2,
                        "r",
                        false,
                        33,
                        "d"));
        for (TableDefinition table : sorted) {
            TableId id = TableId.of(table.table());
            add(
                    rows,
                    table,
                    id,
                    schemaOids.get(id.database()),
                    table.owner() == null ? SYSTEM_ROLE : roleOids.get(table.owner()),
                    accessMethods.get(accessMethod(table)));
        }
        insert(connection, "pg_class", rows.classes);
        insert(connection, "pg_attribute", rows.attributes);
        insert(connection, "pg_index", rows.indexes);
        insert(connection, "pg_constraint", rows.constraints);
        insert(connection, "pg_description", rows.descriptions);
        insert(connection, "mt_definitions", rows.definitions);
    }

    /** What one table adds to each table of the catalog. */
    private static final class Rows {
        final List<Object[]> classes = new ArrayList<>();
        final List<Object[]> attributes = new ArrayList<>();
        final List<Object[]> indexes = new ArrayList<>();
        final List<Object[]> constraints = new ArrayList<>();
        final List<Object[]> descriptions = new ArrayList<>();
        final List<Object[]> definitions = new ArrayList<>();
    }

    private static String accessMethod(TableDefinition table) {
        if (table.kind() == TableDefinition.Kind.MATERIALIZED_TABLE) {
            return "paimon";
        }
        String connector = table.options() == null ? null : table.options().get("connector");
        return connector == null || connector.isBlank() ? "heap" : connector;
    }

    private void add(
            Rows rows, TableDefinition table, TableId id, int schema, int owner, int accessMethod)
            throws SQLException {
        int oid = oids.of("table:" + table.table());
        List<String> key = table.primaryKey() == null ? List.of() : table.primaryKey();
        List<TableDefinition.Column> columns = table.columns();
        rows.classes.add(
                relation(
                        oid,
                        id.name(),
                        schema,
                        owner,
                        accessMethod,
                        "r",
                        !key.isEmpty(),
                        columns.size(),
                        "d"));
        List<Short> keyNumbers = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            TableDefinition.Column column = columns.get(i);
            PgColumnType type = PgColumnType.of(column.type());
            boolean notNull = !column.nullable() || key.contains(column.name());
            boolean byValue = type.type().length > 0 && type.type().length <= 8;
            rows.attributes.add(
                    new Object[] {
                        oid,
                        column.name(),
                        type.type().oid,
                        -1,
                        (short) type.type().length,
                        (short) (i + 1),
                        0,
                        -1,
                        type.typmod(),
                        byValue,
                        "i",
                        type.type().length > 0 ? "p" : "x",
                        "",
                        notNull,
                        false,
                        false,
                        "",
                        "",
                        false,
                        true,
                        0,
                        type.type().category == 'S' ? 100 : 0,
                        null,
                        null,
                        null,
                        null
                    });
            if (key.contains(column.name())) {
                keyNumbers.add((short) (i + 1));
            }
        }
        if (table.comment() != null && !table.comment().isBlank()) {
            rows.descriptions.add(
                    new Object[] {oid, PgCatalogFunctions.PG_CLASS, 0, table.comment()});
        }
        if (keyNumbers.isEmpty()) {
            return;
        }
        int index = oid + 1;
        int constraint = oid + 2;
        String indexName = id.name() + "_pkey";
        rows.classes.add(
                relation(
                        index,
                        indexName,
                        schema,
                        owner,
                        INDEX_METHOD,
                        "i",
                        false,
                        keyNumbers.size(),
                        "n"));
        Short[] keyArray = keyNumbers.toArray(Short[]::new);
        Integer[] zeros = new Integer[keyArray.length];
        Short[] noOptions = new Short[keyArray.length];
        java.util.Arrays.fill(zeros, 0);
        java.util.Arrays.fill(noOptions, (short) 0);
        rows.indexes.add(
                new Object[] {
                    index,
                    oid,
                    (short) keyArray.length,
                    (short) keyArray.length,
                    true,
                    false,
                    true,
                    false,
                    true,
                    false,
                    true,
                    false,
                    true,
                    true,
                    false,
                    array("SMALLINT", keyArray),
                    array("INTEGER", zeros),
                    array("INTEGER", zeros),
                    array("SMALLINT", noOptions),
                    null,
                    null
                });
        rows.constraints.add(
                new Object[] {
                    constraint,
                    indexName,
                    schema,
                    "p",
                    false,
                    false,
                    true,
                    oid,
                    0,
                    index,
                    0,
                    0,
                    " ",
                    " ",
                    " ",
                    true,
                    0,
                    true,
                    array("SMALLINT", keyArray),
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null
                });
        String keyColumns = String.join(", ", key.stream().map(PgCatalogRows::quoted).toList());
        rows.definitions.add(
                new Object[] {
                    index,
                    "CREATE UNIQUE INDEX "
                            + quoted(indexName)
                            + " ON "
                            + quoted(id.database())
                            + "."
                            + quoted(id.name())
                            + " USING btree ("
                            + keyColumns
                            + ")"
                });
        rows.definitions.add(new Object[] {constraint, "PRIMARY KEY (" + keyColumns + ")"});
    }

    private static Object[] relation(
            int oid,
            String name,
            int schema,
            int owner,
            int accessMethod,
            String kind,
            boolean hasIndex,
            int columns,
            String identity) {
        return new Object[] {
            oid,
            name,
            schema,
            0,
            0,
            owner,
            accessMethod,
            oid,
            0,
            0,
            -1f,
            0,
            0,
            hasIndex,
            false,
            "p",
            kind,
            (short) columns,
            (short) 0,
            false,
            false,
            false,
            false,
            false,
            true,
            identity,
            false,
            0,
            0,
            0,
            null,
            null,
            null
        };
    }

    private static Object[] role(int oid, String name) {
        return new Object[] {
            oid,
            name,
            oid == SYSTEM_ROLE,
            true,
            false,
            false,
            true,
            false,
            -1,
            "********",
            null,
            false,
            null
        };
    }

    private java.sql.Array array(String type, Object[] values) throws SQLException {
        return connection.createArrayOf(type, values);
    }

    /** {@code identifier} as PostgreSQL prints it: in double quotes unless plain lower case. */
    static String quoted(String identifier) {
        return PLAIN_IDENTIFIER.matcher(identifier).matches()
                ? identifier
                : "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    private static void insert(Connection connection, String table, List<Object[]> rows)
            throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        String marks = String.join(", ", java.util.Collections.nCopies(rows.get(0).length, "?"));
        try (PreparedStatement insert =
                connection.prepareStatement(
                        "INSERT INTO mtpg." + table + " VALUES (" + marks + ")")) {
            for (Object[] row : rows) {
                for (int i = 0; i < row.length; i++) {
                    insert.setObject(i + 1, row[i]);
                }
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    /**
     * Oids that stay the same for the same name across loads, so that a client may send back an oid
     * it read a moment before: from the name's hash, four apart (a table's index and constraint
     * take the next two), probing on a collision in name order.
     */
    static final class Oids {
        private static final int FIRST = 16_384;
        private final Map<String, Integer> byName = new HashMap<>();
        private final Set<Integer> taken = new HashSet<>();

        synchronized int of(String name) {
            Integer known = byName.get(name);
            if (known != null) {
                return known;
            }
            int slot = name.hashCode() & 0x0FFF_FFFF;
            while (taken.contains(slot)) {
                slot = (slot + 1) & 0x0FFF_FFFF;
            }
            taken.add(slot);
            int oid = FIRST + slot * 4;
            byName.put(name, oid);
            return oid;
        }
    }
}
