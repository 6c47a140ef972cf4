package io.mtables.ddl.statements;

import io.mtables.schemas.ddl.StatementResult.ResultColumn;
import io.mtables.schemas.plan.RefreshPlan;
import io.mtables.schemas.plan.SyntheticKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A refresh plan as property rows, the same in DESCRIBE MATERIALIZED TABLE and EXPLAIN. */
final class PlanRows {

    static final List<ResultColumn> COLUMNS =
            List.of(new ResultColumn("property", "STRING"), new ResultColumn("value", "STRING"));

    private PlanRows() {}

    static void append(List<List<Object>> rows, RefreshPlan plan) {
        property(rows, "plan.status", plan.status());
        property(rows, "plan.mode", plan.mode());
        property(
                rows,
                "plan.freshness",
                plan.freshness() == null
                        ? null
                        : "INTERVAL '"
                                + plan.freshness().interval()
                                + "' "
                                + plan.freshness().unit()
                                + (plan.freshnessDeclared() ? "" : " (default)"));
        property(rows, "plan.checkpoint_interval", plan.checkpointInterval());
        property(rows, "plan.mini_batch", plan.miniBatch());
        property(rows, "plan.cron", plan.cron());
        property(rows, "plan.time_zone", plan.timeZone());
        property(rows, "plan.changelog_mode", plan.changelogMode());
        property(
                rows,
                "plan.upsert_key",
                plan.upsertKey() == null
                        ? null
                        : switch (plan.upsertKey().origin()) {
                            case DECLARED ->
                                    "("
                                            + String.join(", ", plan.upsertKey().columns())
                                            + ") declared";
                            case DERIVED ->
                                    "("
                                            + String.join(", ", plan.upsertKey().columns())
                                            + ") derived from the query";
                            case SYNTHETIC -> synthetic(plan.upsertKey());
                        });
        if (plan.incremental() != null) {
            property(
                    rows,
                    "refresh.incremental",
                    plan.incremental().level() + ": " + plan.incremental().reason());
        }
        for (int i = 0; i < plan.reasons().size(); i++) {
            property(rows, "plan.reason." + (i + 1), plan.reasons().get(i));
        }
        for (var warning : plan.warnings()) {
            property(rows, "plan.warning." + warning.code(), warning.message());
        }
    }

    private static void property(List<List<Object>> rows, String name, Object value) {
        rows.add(Arrays.asList(name, value == null ? null : String.valueOf(value)));
    }

    private static String synthetic(RefreshPlan.UpsertKey key) {
        if (key.branches() != null) {
            List<String> branches = new ArrayList<>();
            for (int i = 0; i < key.branches().size(); i++) {
                branches.add((i + 1) + " (" + String.join(", ", key.branches().get(i)) + ")");
            }
            return SyntheticKey.COLUMN
                    + " = the UNION ALL branch's number and the NULL-safe encoding of its key:"
                    + " branch "
                    + String.join(", branch ", branches);
        }
        return key.columns().isEmpty()
                ? SyntheticKey.COLUMN
                        + ", a constant: one row at most"
                        + emptyInput(key.emptyInputRow())
                : SyntheticKey.COLUMN
                        + " = NULL-safe encoding of ("
                        + String.join(", ", key.columns())
                        + "), derived from the query";
    }

    /** The row a global aggregate's table holds while its query reads no rows. */
    private static String emptyInput(List<String> row) {
        if (row == null) {
            return "";
        }
        if (row.isEmpty()) {
            return "; none over no rows";
        }
        return "; ("
                + String.join(
                        ", ", row.stream().map(value -> value == null ? "NULL" : value).toList())
                + ") over no rows";
    }
}
