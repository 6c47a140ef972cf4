package io.mtables.ddl.statements;

import io.mtables.ddl.access.AccessControl;
import io.mtables.ddl.access.AccessStatement;
import io.mtables.ddl.access.AccessStatement.Grantee;
import io.mtables.ddl.access.AccessStatement.Name;
import io.mtables.ddl.access.AccessStatementParser;
import io.mtables.ddl.access.Privilege;
import io.mtables.ddl.domain.Catalog;
import io.mtables.ddl.domain.StatementException;
import io.mtables.ddl.infra.FlinkSql;
import io.mtables.planning.SourceConnectors;
import io.mtables.schemas.access.AccessChanged;
import io.mtables.schemas.access.AccessChanged.Action;
import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.ddl.StatementResult.ResultColumn;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * CREATE ROLE, DROP ROLE, GRANT, REVOKE, SHOW GRANTS and SHOW ROLES. Roles, schema and topic grants
 * are an admin's; a table's owner may grant and revoke on that table too. A change is an {@link
 * AccessChanged} event, taken only once Kafka acknowledged it.
 */
final class AccessStatements {

    private static final List<ResultColumn> GRANT_COLUMNS =
            List.of(
                    new ResultColumn("grantee", "STRING"),
                    new ResultColumn("privilege", "STRING"),
                    new ResultColumn("object_type", "STRING"),
                    new ResultColumn("object", "STRING"),
                    new ResultColumn("granted_by", "STRING"),
                    new ResultColumn("granted_at", "STRING"));

    private static final List<ResultColumn> ROLE_COLUMNS =
            List.of(new ResultColumn("role", "STRING"), new ResultColumn("member", "STRING"));

    private final AccessControl access;
    private final Catalog catalog;
    private final FlinkSql flink;

    AccessStatements(AccessControl access, Catalog catalog, FlinkSql flink) {
        this.access = access;
        this.catalog = catalog;
        this.flink = flink;
    }

    Outcome execute(String text, String principal, String requestId, Instant now) {
        AccessStatement statement = AccessStatementParser.parse(text);
        if (statement instanceof AccessStatement.ShowGrants show) {
            return showGrants(show, principal);
        }
        if (statement instanceof AccessStatement.ShowRoles) {
            return showRoles(principal);
        }
        if (statement instanceof AccessStatement.CreateRole create) {
            return createRole(create, principal, requestId, now);
        }
        if (statement instanceof AccessStatement.DropRole drop) {
            return dropRole(drop, principal, requestId, now);
        }
        if (statement instanceof AccessStatement.RoleMembership membership) {
            return membership(membership, principal, requestId, now);
        }
        return privileges((AccessStatement.Privileges) statement, principal, requestId, now);
    }

    private Outcome createRole(
            AccessStatement.CreateRole create, String principal, String requestId, Instant now) {
        requireAdmin(principal, "create roles");
        if (access.roleExists(create.role())) {
            throw StatementException.conflict(
                    "RoleAlreadyExists", "Role " + create.role() + " already exists.");
        }
        return change(
                new AccessChanged(
                        Action.CREATE_ROLE,
                        create.role(),
                        List.of(),
                        null,
                        null,
                        null,
                        null,
                        principal,
                        now,
                        requestId),
                "Role " + create.role() + " created.");
    }

    private Outcome dropRole(
            AccessStatement.DropRole drop, String principal, String requestId, Instant now) {
        requireAdmin(principal, "drop roles");
        if (!access.roleExists(drop.role())) {
            if (drop.ifExists()) {
                return new Outcome.Unchanged(
                        null,
                        "Role " + drop.role() + " does not exist; nothing changed (IF EXISTS).");
            }
            throw roleNotFound(drop.role());
        }
        return change(
                new AccessChanged(
                        Action.DROP_ROLE,
                        drop.role(),
                        List.of(),
                        null,
                        null,
                        null,
                        null,
                        principal,
                        now,
                        requestId),
                "Role " + drop.role() + " dropped, with its grants and memberships.");
    }

    private Outcome membership(
            AccessStatement.RoleMembership membership,
            String principal,
            String requestId,
            Instant now) {
        requireAdmin(principal, (membership.grant() ? "grant" : "revoke") + " roles");
        if (!access.roleExists(membership.role())) {
            throw roleNotFound(membership.role());
        }
        String member = membership.member().principal();
        boolean holds = access.rolesOf(member).contains(membership.role());
        if (holds == membership.grant()) {
            return new Outcome.Unchanged(
                    null,
                    member
                            + (holds ? " holds" : " does not hold")
                            + " role "
                            + membership.role()
                            + " already; nothing changed.");
        }
        return change(
                new AccessChanged(
                        membership.grant() ? Action.GRANT_ROLE : Action.REVOKE_ROLE,
                        membership.role(),
                        List.of(),
                        null,
                        null,
                        null,
                        member,
                        principal,
                        now,
                        requestId),
                membership.grant()
                        ? "Role " + membership.role() + " granted to " + member + "."
                        : "Role " + membership.role() + " revoked from " + member + ".");
    }

    private Outcome privileges(
            AccessStatement.Privileges statement, String principal, String requestId, Instant now) {
        Grantee grantee = statement.grantee();
        if (grantee.isRole() && !access.roleExists(grantee.role())) {
            throw roleNotFound(grantee.role());
        }
        String verb = statement.grant() ? "granted" : "revoked";
        String names =
                statement.privileges().stream()
                        .map(Privilege::name)
                        .collect(Collectors.joining(", "));
        if (statement.on() == AccessStatement.ObjectKind.TOPIC) {
            return onTopic(statement, principal, requestId, now);
        }
        if (statement.on() == AccessStatement.ObjectKind.SCHEMA) {
            requireAdmin(principal, (statement.grant() ? "grant" : "revoke") + " on a schema");
            String schema = qualifySchema(statement.object());
            return change(
                    new AccessChanged(
                            statement.grant() ? Action.GRANT : Action.REVOKE,
                            null,
                            names(statement.privileges()),
                            "SCHEMA",
                            schema,
                            null,
                            grantee.principal(),
                            principal,
                            now,
                            requestId),
                    names
                            + " on schema "
                            + schema
                            + " "
                            + verb
                            + (statement.grant() ? " to " : " from ")
                            + grantee.principal()
                            + ".");
        }
        if (statement.privileges().contains(Privilege.CREATE) && !statement.all()) {
            throw StatementException.invalidAt(
                    "InvalidStatement",
                    "CREATE is a privilege on a schema (to create tables in it), not on a"
                            + " table. Nothing was changed.",
                    statement.privilegesAt(),
                    "GRANT CREATE ON SCHEMA s TO ...; on a table: SELECT, ALTER, DROP or ALL");
        }
        TableDefinition table = table(statement.object());
        if (!access.isAdmin(principal) && !principal.equals(table.owner())) {
            throw StatementException.permissionDenied(
                    principal
                            + " may not grant or revoke on "
                            + table.table()
                            + ": only its owner"
                            + (table.owner() == null ? "" : " (" + table.owner() + ")")
                            + " and admins may. Nothing was changed.",
                    "ask " + (table.owner() == null ? "an admin" : table.owner() + " or an admin"));
        }
        List<Privilege> onTable =
                statement.privileges().stream().filter(p -> p != Privilege.CREATE).toList();
        return change(
                new AccessChanged(
                        statement.grant() ? Action.GRANT : Action.REVOKE,
                        null,
                        names(onTable),
                        "TABLE",
                        table.table(),
                        table.createdAt(),
                        grantee.principal(),
                        principal,
                        now,
                        requestId),
                onTable.stream().map(Privilege::name).collect(Collectors.joining(", "))
                        + " on "
                        + table.table()
                        + " "
                        + verb
                        + (statement.grant() ? " to " : " from ")
                        + grantee.principal()
                        + ".");
    }

    /**
     * SELECT on a topic, or on every topic of a prefix: who holds it may declare source tables over
     * it. An admin's, as topics have no owner.
     */
    private Outcome onTopic(
            AccessStatement.Privileges statement, String principal, String requestId, Instant now) {
        requireAdmin(principal, (statement.grant() ? "grant" : "revoke") + " on a topic");
        if (!statement.all() && !statement.privileges().equals(List.of(Privilege.SELECT))) {
            throw StatementException.invalidAt(
                    "InvalidStatement",
                    "A topic takes SELECT only (a source table may read it). Nothing was changed.",
                    statement.privilegesAt(),
                    "GRANT SELECT ON TOPIC 'topic' | 'prefix*' TO ...");
        }
        String topic = statement.object().parts().get(0);
        if (SourceConnectors.isSystemTopic(topic)) {
            throw StatementException.invalidAt(
                    "InvalidStatement",
                    "Topic '"
                            + topic
                            + "' is the system's or Kafka's own: no source table reads it, whatever"
                            + " is granted. Nothing was changed.",
                    statement.object().at(),
                    "a topic whose name starts with neither 'mt.' nor '__'");
        }
        return change(
                new AccessChanged(
                        statement.grant() ? Action.GRANT : Action.REVOKE,
                        null,
                        List.of(Privilege.SELECT.name()),
                        "TOPIC",
                        topic,
                        null,
                        statement.grantee().principal(),
                        principal,
                        now,
                        requestId),
                "SELECT on topic '"
                        + topic
                        + "' "
                        + (statement.grant() ? "granted to " : "revoked from ")
                        + statement.grantee().principal()
                        + ".");
    }

    private Outcome showGrants(AccessStatement.ShowGrants show, String principal) {
        Set<String> owned =
                catalog.inDependencyOrder().stream()
                        .filter(t -> principal.equals(t.owner()))
                        .map(TableDefinition::table)
                        .collect(Collectors.toSet());
        String schema = show.schema() == null ? null : qualifySchema(show.schema());
        String table = show.table() == null ? null : table(show.table()).table();
        String topic = show.topic() == null ? null : show.topic().parts().get(0);
        String grantee = show.grantee() == null ? null : show.grantee().principal();
        List<List<Object>> rows = new ArrayList<>();
        if (access.isAdmin(principal)
                && schema == null
                && table == null
                && topic == null
                && (grantee == null || access.isAdmin(grantee))) {
            for (String admin : access.admins()) {
                if (grantee == null || grantee.equals(admin)) {
                    rows.add(List.of(admin, "ALL", "SYSTEM", "*", "configuration", ""));
                }
            }
        }
        if (table != null) {
            TableDefinition definition = catalog.find(table).orElseThrow();
            if (definition.owner() != null
                    && (access.isAdmin(principal)
                            || owned.contains(table)
                            || principal.equals(definition.owner()))) {
                rows.add(
                        List.of(
                                definition.owner(),
                                "OWNER",
                                "TABLE",
                                table,
                                "CREATE",
                                definition.createdAt().toString()));
            }
        }
        for (AccessControl.Grant g : access.grantsVisibleTo(principal, owned)) {
            boolean onTable = g.objectType().equals("TABLE");
            if (onTable) {
                TableDefinition current = catalog.find(g.object()).orElse(null);
                if (current == null || !current.createdAt().equals(g.objectCreatedAt())) {
                    continue; // a table dropped since: its grants went with it
                }
            }
            if (schema != null && !(g.objectType().equals("SCHEMA") && g.object().equals(schema))) {
                continue;
            }
            if (table != null && !(onTable && g.object().equals(table))) {
                continue;
            }
            // ON TOPIC 'x': the grants that cover x, a prefix's among them
            if (topic != null
                    && !(g.objectType().equals("TOPIC")
                            && AccessControl.covers(g.object(), topic))) {
                continue;
            }
            if (grantee != null && !g.grantee().equals(grantee)) {
                continue;
            }
            rows.add(
                    List.of(
                            g.grantee(),
                            g.privilege().name(),
                            g.objectType(),
                            g.object(),
                            g.by(),
                            g.at().toString()));
        }
        return new Outcome.Rows(GRANT_COLUMNS, rows);
    }

    private Outcome showRoles(String principal) {
        List<List<Object>> rows = new ArrayList<>();
        boolean admin = access.isAdmin(principal);
        for (String role : access.roles()) {
            List<String> members = access.membersOf(role);
            if (!admin && !members.contains(principal)) {
                continue;
            }
            if (members.isEmpty()) {
                rows.add(java.util.Arrays.asList(role, null));
            }
            for (String member : members) {
                if (admin || member.equals(principal)) {
                    rows.add(List.of(role, member));
                }
            }
        }
        return new Outcome.Rows(ROLE_COLUMNS, rows);
    }

    private TableDefinition table(Name name) {
        String qualified = qualifyTable(name);
        return catalog.find(qualified)
                .orElseThrow(
                        () ->
                                StatementException.notFound(
                                        "Table " + qualified + " does not exist."));
    }

    private String qualifyTable(Name name) {
        String[] current = flink.currentCatalogAndDatabase();
        List<String> parts = name.parts();
        return switch (parts.size()) {
            case 1 -> current[0] + "." + current[1] + "." + parts.get(0);
            case 2 -> current[0] + "." + parts.get(0) + "." + parts.get(1);
            case 3 -> String.join(".", parts);
            default -> throw badName(name, "a table: name, schema.name or catalog.schema.name");
        };
    }

    private String qualifySchema(Name name) {
        String[] current = flink.currentCatalogAndDatabase();
        List<String> parts = name.parts();
        return switch (parts.size()) {
            case 1 -> current[0] + "." + parts.get(0);
            case 2 -> String.join(".", parts);
            default -> throw badName(name, "a schema: name or catalog.name");
        };
    }

    private static StatementException badName(Name name, String allowed) {
        return StatementException.invalidAt(
                "InvalidStatement", "'" + name + "' is not " + allowed + ".", name.at(), allowed);
    }

    private void requireAdmin(String principal, String what) {
        if (!access.isAdmin(principal)) {
            throw StatementException.permissionDenied(
                    principal + " may not " + what + ": only admins may. Nothing was changed.",
                    "an admin: " + String.join(", ", access.admins()) + " (mt.auth.admins)");
        }
    }

    private static StatementException roleNotFound(String role) {
        return StatementException.notFound(
                "RoleNotFound",
                "Role " + role + " does not exist: CREATE ROLE " + role + " first.");
    }

    private static List<String> names(List<Privilege> privileges) {
        return privileges.stream().map(Privilege::name).toList();
    }

    private static Outcome change(AccessChanged change, String message) {
        return new Outcome.AccessChange(change, message);
    }
}
