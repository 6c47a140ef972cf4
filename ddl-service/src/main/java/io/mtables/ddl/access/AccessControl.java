package io.mtables.ddl.access;

import io.mtables.schemas.access.AccessChanged;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Who may do what, as {@code mt.ddl.access} left it: the roles, who holds each, and the grants;
 * with the admins of the configuration ({@code mt.auth.admins}) and each table's owner (on its
 * definition). An admin may do everything; a table's owner everything on that table; anyone else
 * what is granted to them or to a role they hold, on the table or on its schema. A grant on a table
 * holds for that table only: one created later under the same name starts without it. Who may
 * declare a source table over a Kafka topic is granted on the topic (or a prefix of topics).
 */
public final class AccessControl {

    /** The prefix of a role as a grantee. */
    public static final String ROLE = "role:";

    /**
     * One grant.
     *
     * @param grantee {@code role:<name>}, {@code user:<sub>} or {@code service-account:<name>}
     * @param privilege what it allows
     * @param objectType SCHEMA, TABLE or TOPIC
     * @param object the schema ({@code catalog.database}), table, or topic (a name, or a prefix
     *     ending in '*')
     * @param objectCreatedAt the table's creation time; null for a schema
     * @param by who granted it
     * @param at when
     */
    public record Grant(
            String grantee,
            Privilege privilege,
            String objectType,
            String object,
            Instant objectCreatedAt,
            String by,
            Instant at) {

        boolean sameAs(Grant other) {
            return grantee.equals(other.grantee)
                    && privilege == other.privilege
                    && objectType.equals(other.objectType)
                    && object.equals(other.object)
                    && Objects.equals(objectCreatedAt, other.objectCreatedAt);
        }
    }

    private final Set<String> admins;
    private final Set<String> roles = new TreeSet<>();
    private final Map<String, Set<String>> rolesOf = new HashMap<>();
    private final List<Grant> grants = new ArrayList<>();

    /**
     * @param admins the principals that may do everything
     */
    public AccessControl(Set<String> admins) {
        this.admins = Set.copyOf(admins);
    }

    /** Takes one change, in the order of the log. */
    public synchronized void apply(AccessChanged change) {
        switch (change.action()) {
            case CREATE_ROLE -> roles.add(change.role());
            case DROP_ROLE -> {
                roles.remove(change.role());
                rolesOf.values().forEach(held -> held.remove(change.role()));
                grants.removeIf(g -> g.grantee().equals(ROLE + change.role()));
            }
            case GRANT_ROLE ->
                    rolesOf.computeIfAbsent(change.grantee(), p -> new TreeSet<>())
                            .add(change.role());
            case REVOKE_ROLE -> {
                Set<String> held = rolesOf.get(change.grantee());
                if (held != null) {
                    held.remove(change.role());
                }
            }
            case GRANT -> {
                for (Grant grant : grantsOf(change)) {
                    if (grants.stream().noneMatch(grant::sameAs)) {
                        grants.add(grant);
                    }
                }
            }
            case REVOKE -> {
                for (Grant grant : grantsOf(change)) {
                    grants.removeIf(grant::sameAs);
                }
            }
        }
    }

    private static List<Grant> grantsOf(AccessChanged change) {
        return change.privileges().stream()
                .map(
                        p ->
                                new Grant(
                                        change.grantee(),
                                        Privilege.valueOf(p),
                                        change.objectType(),
                                        change.object(),
                                        change.objectCreatedAt(),
                                        change.by(),
                                        change.at()))
                .toList();
    }

    public boolean isAdmin(String principal) {
        return admins.contains(principal);
    }

    public synchronized boolean roleExists(String role) {
        return roles.contains(role);
    }

    public synchronized List<String> roles() {
        return List.copyOf(roles);
    }

    /** Who holds {@code role}, sorted. */
    public synchronized List<String> membersOf(String role) {
        return rolesOf.entrySet().stream()
                .filter(e -> e.getValue().contains(role))
                .map(Map.Entry::getKey)
                .sorted()
                .toList();
    }

    /** The roles {@code principal} holds. */
    public synchronized Set<String> rolesOf(String principal) {
        return Set.copyOf(rolesOf.getOrDefault(principal, Set.of()));
    }

    /** Whether {@code principal} may do {@code privilege} on {@code table}. */
    public synchronized boolean allows(
            String principal, Privilege privilege, TableDefinition table) {
        if (principal.equals(table.owner())) {
            return true;
        }
        String schema = schemaOf(table.table());
        return adminOrGranted(
                principal,
                g ->
                        g.privilege() == privilege
                                && (g.objectType().equals("SCHEMA") && g.object().equals(schema)
                                        || g.objectType().equals("TABLE")
                                                && g.object().equals(table.table())
                                                && Objects.equals(
                                                        g.objectCreatedAt(), table.createdAt())));
    }

    /** Whether {@code principal} may do {@code privilege} on the schema itself (CREATE in it). */
    public synchronized boolean allowsOnSchema(
            String principal, Privilege privilege, String schema) {
        return adminOrGranted(
                principal,
                g ->
                        g.privilege() == privilege
                                && g.objectType().equals("SCHEMA")
                                && g.object().equals(schema));
    }

    /**
     * Whether {@code principal} may declare a source table over {@code topic}: an admin, or SELECT
     * granted on the topic itself or on a prefix of its name ({@code cdc.shop.*}).
     */
    public synchronized boolean allowsTopic(String principal, String topic) {
        return adminOrGranted(
                principal,
                g ->
                        g.privilege() == Privilege.SELECT
                                && g.objectType().equals("TOPIC")
                                && covers(g.object(), topic));
    }

    /**
     * Whether {@code principal} is an admin, or holds a grant {@code matching} (or a role does).
     */
    private boolean adminOrGranted(String principal, Predicate<Grant> matching) {
        if (isAdmin(principal)) {
            return true;
        }
        Set<String> as = grantees(principal);
        return grants.stream().anyMatch(g -> as.contains(g.grantee()) && matching.test(g));
    }

    /** Whether a topic grant's object (a name, or a prefix ending in '*') covers {@code topic}. */
    public static boolean covers(String granted, String topic) {
        return granted.endsWith("*")
                ? topic.startsWith(granted.substring(0, granted.length() - 1))
                : granted.equals(topic);
    }

    /** Whether {@code principal} may see {@code table} at all: any privilege on it. */
    public boolean sees(String principal, TableDefinition table) {
        for (Privilege privilege : List.of(Privilege.SELECT, Privilege.ALTER, Privilege.DROP)) {
            if (allows(principal, privilege, table)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The grants in force, oldest first: every one for an admin; for anyone else those to them or
     * their roles, and those on tables they own ({@code owned}).
     */
    public synchronized List<Grant> grantsVisibleTo(String principal, Set<String> owned) {
        Set<String> as = grantees(principal);
        return grants.stream()
                .filter(
                        g ->
                                isAdmin(principal)
                                        || as.contains(g.grantee())
                                        || g.objectType().equals("TABLE")
                                                && owned.contains(g.object()))
                .sorted(Comparator.comparing(Grant::at))
                .toList();
    }

    /** The principal itself and each role it holds, as grantees. */
    private Set<String> grantees(String principal) {
        Set<String> as = new HashSet<>();
        as.add(principal);
        for (String role : rolesOf.getOrDefault(principal, Set.of())) {
            as.add(ROLE + role);
        }
        return as;
    }

    /** {@code catalog.database} of a table. */
    public static String schemaOf(String table) {
        TableId id = TableId.of(table);
        return id.catalog() + "." + id.database();
    }

    /** The admins, for SHOW GRANTS and messages. */
    public Set<String> admins() {
        return new LinkedHashSet<>(admins);
    }
}
