package io.mtables.planning;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.plan.RefreshPlan.Mode;
import io.mtables.schemas.plan.RefreshPlan.UpsertKey;
import java.util.List;

/**
 * The key a table is written on. A declared PRIMARY KEY always is; otherwise a CONTINUOUS table
 * whose query produces updates takes the smallest key Flink's planner derives from the query (its
 * GROUP BY, or the keys of joined sources that survive the join).
 */
final class KeyChoice {

  private KeyChoice() {}

  /** The key, with its reason added; null when the table is written without one. */
  static UpsertKey choose(TableDefinition table, Mode mode, QueryAnalysis query, List<String> reasons) {
    if (!table.primaryKey().isEmpty()) {
      reasons.add("Upsert on (" + String.join(", ", table.primaryKey()) + "), the declared primary key.");
      return new UpsertKey(table.primaryKey(), UpsertKey.Origin.DECLARED);
    }
    if (mode != Mode.CONTINUOUS || !query.updating()) {
      return null;
    }
    List<List<String>> derived = query.uniqueKeys() == null ? List.of() : query.uniqueKeys();
    if (derived.isEmpty()) {
      reasons.add("Flink's planner derives no key from the query" + (query.uniqueKeys() == null ? " (it could not be asked)" : "") + ".");
      return null;
    }
    List<String> key = derived.get(0);
    reasons.add(
        "Upsert on (" + String.join(", ", key) + "), the key Flink's planner derives from the query"
            + (derived.size() > 1 ? " (smallest of " + derived.size() + " keys; declare PRIMARY KEY to choose another)" : "") + ".");
    return new UpsertKey(key, UpsertKey.Origin.DERIVED);
  }

  /** Whether Flink proves the declared key unique: some derived key is part of it. */
  static boolean provenUnique(List<String> declared, QueryAnalysis query) {
    return query.uniqueKeys() != null && query.uniqueKeys().stream().anyMatch(declared::containsAll);
  }
}
