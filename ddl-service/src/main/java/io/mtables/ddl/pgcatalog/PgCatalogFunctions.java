package io.mtables.ddl.pgcatalog;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL's catalog functions that psql and pgJDBC call, as H2 aliases (pg_catalog.sql) over the
 * emulated tables. H2 passes the connection first to those that look something up.
 */
public final class PgCatalogFunctions {

    /** pg_class's own oid, as {@code 'pg_class'::regclass} says it. */
    static final int PG_CLASS = 1259;

    private PgCatalogFunctions() {}

    /** pg_get_userbyid(role): the role's name. */
    public static String userById(Connection connection, Integer role) throws SQLException {
        return role == null
                ? null
                : lookup(connection, "SELECT rolname FROM mtpg.pg_roles WHERE oid = ?", role);
    }

    /** current_database(): the one database a client connects to, the catalog of the tables. */
    public static String databaseName() {
        return PgCatalogRows.DEFAULT_DATABASE;
    }

    /** pg_encoding_to_char(encoding): every database here is UTF-8. */
    public static String encodingName(Integer encoding) {
        return encoding == null ? null : "UTF8";
    }

    /** pg_table_is_visible(oid) and its kin: every schema is on the search path. */
    public static Boolean visible(Integer oid) {
        return oid == null ? null : Boolean.TRUE;
    }

    /** format_type(type, typmod). */
    public static String formatType(Integer type, Integer typmod) {
        return type == null ? null : PgColumnType.format(type, typmod == null ? -1 : typmod);
    }

    /** information_schema.columns.data_type: the type's SQL name, ARRAY for arrays. */
    public static String dataTypeName(Integer type) {
        if (type == null) {
            return null;
        }
        PgColumnType.BuiltIn builtIn = PgColumnType.BuiltIn.byOid(type);
        return builtIn != null ? PgColumnType.format(type, -1) : "ARRAY";
    }

    /** pg_get_expr(expression, relation): expressions are kept as their text. */
    public static String expression(String expression, Integer relation) {
        return expression;
    }

    /** pg_get_expr(expression, relation, pretty). */
    public static String expression(String expression, Integer relation, Boolean pretty) {
        return expression;
    }

    /** pg_get_indexdef(index). */
    public static String indexDefinition(Connection connection, Integer index) throws SQLException {
        return definition(connection, index);
    }

    /** pg_get_indexdef(index, column, pretty): column 0 is the whole definition. */
    public static String indexDefinition(
            Connection connection, Integer index, Integer column, Boolean pretty)
            throws SQLException {
        return column == null || column == 0 ? definition(connection, index) : null;
    }

    /** pg_get_constraintdef(constraint). */
    public static String constraintDefinition(Connection connection, Integer constraint)
            throws SQLException {
        return definition(connection, constraint);
    }

    /** pg_get_constraintdef(constraint, pretty). */
    public static String constraintDefinition(
            Connection connection, Integer constraint, Boolean pretty) throws SQLException {
        return definition(connection, constraint);
    }

    /** col_description(table, column). */
    public static String columnDescription(Connection connection, Integer table, Integer column)
            throws SQLException {
        return table == null || column == null
                ? null
                : lookup(
                        connection,
                        "SELECT description FROM mtpg.pg_description WHERE objoid = ? AND objsubid"
                                + " = ?",
                        table,
                        column);
    }

    /** obj_description(object). */
    public static String objectDescription(Connection connection, Integer object)
            throws SQLException {
        return columnDescription(connection, object, 0);
    }

    /** obj_description(object, catalog). */
    public static String objectDescription(Connection connection, Integer object, String catalog)
            throws SQLException {
        return columnDescription(connection, object, 0);
    }

    /** pg_relation_is_publishable(relation): nothing here is published. */
    public static Boolean never(Integer relation) {
        return Boolean.FALSE;
    }

    /** Functions over what mtables has none of (statistics objects, views, triggers). */
    public static String none(Integer oid) {
        return null;
    }

    /** The same with a {@code pretty} argument. */
    public static String none(Integer oid, Boolean pretty) {
        return null;
    }

    /** pg_table_size(relation) and its kin: sizes are not measured here. */
    public static Long size(Integer relation) {
        return null;
    }

    /** pg_size_pretty(bytes). */
    public static String sizePretty(Long bytes) {
        return bytes == null ? null : bytes + " bytes";
    }

    /** current_schemas(implicit): every schema, as every one is on the search path. */
    public static String[] currentSchemas(Connection connection, Boolean implicit)
            throws SQLException {
        List<String> schemas = new ArrayList<>();
        try (PreparedStatement query =
                        connection.prepareStatement(
                                "SELECT nspname FROM mtpg.pg_namespace WHERE nspname <>"
                                        + " 'information_schema' AND (? OR nspname <> 'pg_catalog')"
                                        + " ORDER BY oid");
                ResultSet rows = bind(query, Boolean.TRUE.equals(implicit)).executeQuery()) {
            while (rows.next()) {
                schemas.add(rows.getString(1));
            }
        }
        return schemas.toArray(String[]::new);
    }

    /** {@code 'name'::regclass}: the oid of the relation named, or an error as PostgreSQL gives. */
    public static Integer regclassOf(Connection connection, String name) throws SQLException {
        if (name == null) {
            return null;
        }
        String unquoted = name.replace("\"", "");
        int dot = unquoted.lastIndexOf('.');
        String relation = dot < 0 ? unquoted : unquoted.substring(dot + 1);
        String schema = dot < 0 ? null : unquoted.substring(0, dot);
        String found =
                lookup(
                        connection,
                        "SELECT c.oid FROM mtpg.pg_class c JOIN mtpg.pg_namespace n ON n.oid ="
                                + " c.relnamespace WHERE c.relname = ? AND (? IS NULL OR n.nspname"
                                + " = ?) ORDER BY c.oid",
                        relation,
                        schema,
                        schema);
        if (found == null) {
            throw new SQLException("relation \"" + name + "\" does not exist", "42P01");
        }
        return Integer.valueOf(found);
    }

    /** array_upper(array, dimension): the upper bound of a one-dimensional array. */
    public static Integer arrayUpper(Array array, Integer dimension) throws SQLException {
        if (array == null || dimension == null || dimension != 1) {
            return null;
        }
        int length = ((Object[]) array.getArray()).length;
        return length == 0 ? null : length;
    }

    /** array_to_string(array, delimiter): the elements that are not null, joined. */
    public static String arrayToString(Array array, String delimiter) throws SQLException {
        if (array == null || delimiter == null) {
            return null;
        }
        StringBuilder joined = new StringBuilder();
        for (Object element : (Object[]) array.getArray()) {
            if (element != null) {
                joined.append(joined.isEmpty() ? "" : delimiter).append(element);
            }
        }
        return joined.toString();
    }

    /**
     * The 1-based place of column {@code number} in {@code key} (a conkey or indkey), or null when
     * the column is not in it.
     */
    public static Integer keyPosition(Array key, Integer number) throws SQLException {
        if (key == null || number == null) {
            return null;
        }
        Object[] numbers = (Object[]) key.getArray();
        for (int i = 0; i < numbers.length; i++) {
            if (numbers[i] != null && ((Number) numbers[i]).intValue() == number) {
                return i + 1;
            }
        }
        return null;
    }

    /** has_table_privilege(...) and its kin: a client sees only what it may read. */
    public static Boolean granted(String object, String privilege) {
        return Boolean.TRUE;
    }

    /** The same for a named user. */
    public static Boolean granted(String user, String object, String privilege) {
        return Boolean.TRUE;
    }

    private static String definition(Connection connection, Integer oid) throws SQLException {
        return oid == null
                ? null
                : lookup(
                        connection,
                        "SELECT definition FROM mtpg.mt_definitions WHERE oid = ?",
                        oid);
    }

    private static String lookup(Connection connection, String sql, Object... parameters)
            throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(sql);
                ResultSet rows = bind(query, parameters).executeQuery()) {
            return rows.next() ? rows.getString(1) : null;
        }
    }

    private static PreparedStatement bind(PreparedStatement query, Object... parameters)
            throws SQLException {
        for (int i = 0; i < parameters.length; i++) {
            query.setObject(i + 1, parameters[i]);
        }
        return query;
    }
}
