package io.mtables.ddl.access;

import io.mtables.ddl.domain.SourcePosition;
import java.util.List;

/** A statement about roles and privileges, as {@link AccessStatementParser} read it. */
public sealed interface AccessStatement {

    /**
     * A name as written: its parts ({@code shop.orders} is two) and where it starts.
     *
     * @param parts the identifiers, unquoted
     * @param at where the name starts
     */
    record Name(List<String> parts, SourcePosition at) {

        @Override
        public String toString() {
            return String.join(".", parts);
        }
    }

    /**
     * Who receives or loses a grant.
     *
     * @param principal {@code role:<name>}, {@code user:<sub>} or {@code service-account:<name>}
     * @param at where it is written
     */
    record Grantee(String principal, SourcePosition at) {

        public boolean isRole() {
            return principal.startsWith(AccessControl.ROLE);
        }

        public String role() {
            return principal.substring(AccessControl.ROLE.length());
        }
    }

    /** CREATE ROLE name. */
    record CreateRole(String role, SourcePosition at) implements AccessStatement {}

    /** DROP ROLE [IF EXISTS] name. */
    record DropRole(String role, boolean ifExists, SourcePosition at) implements AccessStatement {}

    /** GRANT ROLE name TO principal, or REVOKE ROLE name FROM principal. */
    record RoleMembership(boolean grant, String role, SourcePosition roleAt, Grantee member)
            implements AccessStatement {}

    /** What a grant is on. */
    enum ObjectKind {
        SCHEMA,
        TABLE,
        /** Kafka topics a source table may read: one by its name, or every name with a prefix. */
        TOPIC
    }

    /**
     * GRANT privileges ON SCHEMA|TABLE|TOPIC object TO grantee, or REVOKE ... FROM grantee.
     *
     * @param all whether written as ALL [PRIVILEGES]: every one that applies to the object
     * @param on what the object is
     * @param object the schema or table, or the topic (one part: its name as written)
     */
    record Privileges(
            boolean grant,
            List<Privilege> privileges,
            boolean all,
            SourcePosition privilegesAt,
            ObjectKind on,
            Name object,
            Grantee grantee)
            implements AccessStatement {}

    /**
     * SHOW GRANTS [ON SCHEMA s | ON TABLE t | ON TOPIC 'name' | TO grantee]: one of the filters at
     * most.
     */
    record ShowGrants(Name schema, Name table, Name topic, Grantee grantee)
            implements AccessStatement {}

    /** SHOW ROLES. */
    record ShowRoles() implements AccessStatement {}
}
