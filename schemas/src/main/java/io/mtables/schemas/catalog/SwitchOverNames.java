package io.mtables.schemas.catalog;

/**
 * The warehouse's names a switch-over uses besides a table's own (docs/evolution.md): the job
 * manager writes them, and a reader of the table by its name (ddl-service's SELECT) looks for the
 * staged table in the moment between the switch-over's two renames. Table names may not end with
 * these suffixes.
 */
public final class SwitchOverNames {

    /**
     * {@code <name>__mt_v<version>}: the Paimon table a new query fills until it takes the table's
     * name.
     */
    public static final String STAGED_SUFFIX = "__mt_v";

    /**
     * {@code <name>__mt_retired}: the replaced Paimon table, for the moment before it is dropped.
     */
    public static final String RETIRED_SUFFIX = "__mt_retired";

    private SwitchOverNames() {}

    /**
     * The staged table of {@code version} of {@code table} (catalog.database.name), in the same
     * database.
     */
    public static String staged(String table, long version) {
        TableId id = TableId.of(table);
        return new TableId(id.catalog(), id.database(), id.name() + STAGED_SUFFIX + version)
                .qualified();
    }

    /** The name of the replaced table of {@code table} during a switch-over. */
    public static String retired(String table) {
        TableId id = TableId.of(table);
        return new TableId(id.catalog(), id.database(), id.name() + RETIRED_SUFFIX).qualified();
    }

    /**
     * Whether {@code name} (a table's last part) is one of these names, which users may not take.
     */
    public static boolean reserved(String name) {
        return name.endsWith(RETIRED_SUFFIX) || name.matches(".*" + STAGED_SUFFIX + "[0-9]+");
    }
}
