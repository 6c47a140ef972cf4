package io.mtables.ddl.domain;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDropped;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The tables that exist now, by fully qualified identifier, and the last version each identifier
 * had (dropped ones too, so that a table created again continues its version sequence). It is a
 * projection of the definition events: {@link #apply} is the only way in.
 */
public class Catalog {

    // One writer (the statement thread); concurrent maps so metrics read it from their own thread.
    private final Map<String, TableDefinition> tables = new ConcurrentHashMap<>();
    private final Map<String, Long> lastVersions = new ConcurrentHashMap<>();

    /** Takes in a definition event; older or repeated versions change nothing. */
    public void apply(TableDefinition definition) {
        if (definition.version() <= lastVersion(definition.table())) {
            return;
        }
        tables.put(definition.table(), definition);
        lastVersions.put(definition.table(), definition.version());
    }

    /** Takes in a drop event; older or repeated versions change nothing. */
    public void apply(TableDropped dropped) {
        if (dropped.version() <= lastVersion(dropped.table())) {
            return;
        }
        tables.remove(dropped.table());
        lastVersions.put(dropped.table(), dropped.version());
    }

    public Optional<TableDefinition> find(String table) {
        return Optional.ofNullable(tables.get(table));
    }

    /** The version the next change of {@code table} gets. */
    public long nextVersion(String table) {
        return lastVersion(table) + 1;
    }

    /** Every table of {@code kind}, sorted by identifier. */
    public List<TableDefinition> tables(TableDefinition.Kind kind) {
        return tables.values().stream()
                .filter(table -> table.kind() == kind)
                .sorted(Comparator.comparing(TableDefinition::table))
                .toList();
    }

    /** The materialized tables whose query reads {@code table}. */
    public List<String> readersOf(String table) {
        return tables.values().stream()
                .filter(
                        reader ->
                                reader.sources().stream()
                                        .anyMatch(source -> source.table().equals(table)))
                .map(TableDefinition::table)
                .sorted()
                .toList();
    }

    /** Every table, in an order where each table comes after the tables it reads. */
    public List<TableDefinition> inDependencyOrder() {
        List<TableDefinition> ordered = new ArrayList<>();
        Set<String> placed = new HashSet<>();
        List<TableDefinition> pending = new ArrayList<>(tables.values());
        pending.sort(Comparator.comparing(TableDefinition::table));
        while (!pending.isEmpty()) {
            boolean progress = false;
            for (var iterator = pending.iterator(); iterator.hasNext(); ) {
                TableDefinition table = iterator.next();
                if (table.sources().stream()
                        .allMatch(
                                s ->
                                        placed.contains(s.table())
                                                || !tables.containsKey(s.table()))) {
                    ordered.add(table);
                    placed.add(table.table());
                    iterator.remove();
                    progress = true;
                }
            }
            if (!progress) { // a cycle cannot be created through DDL; keep going rather than loop
                ordered.addAll(pending);
                break;
            }
        }
        return ordered;
    }

    private long lastVersion(String table) {
        return lastVersions.getOrDefault(table, 0L);
    }
}
