package io.mtables.messaging;

import io.mtables.schemas.KafkaPrincipals;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The broker's ACLs for {@link KafkaPrincipals}: what an operator (or a test, as the broker's
 * admin) creates with {@code Admin.createAcls}. Everything not listed is denied by a broker that
 * runs an authorizer with {@code allow.everyone.if.no.acl.found=false}.
 */
public final class KafkaAcls {

    private KafkaAcls() {}

    /** The ACLs of every principal of the system. */
    public static List<AclBinding> all() {
        List<AclBinding> bindings = new ArrayList<>();
        KafkaPrincipals.ALL.forEach(principal -> bindings.addAll(of(principal)));
        return bindings;
    }

    /** The ACLs of one principal. */
    public static List<AclBinding> of(KafkaPrincipals.Principal principal) {
        // a set: a topic both written and read is described once
        LinkedHashSet<AclBinding> bindings = new LinkedHashSet<>();
        for (String topic : principal.writes()) {
            allow(bindings, principal, topic(topic, PatternType.LITERAL), AclOperation.WRITE);
            allow(bindings, principal, topic(topic, PatternType.LITERAL), AclOperation.DESCRIBE);
        }
        for (String topic : principal.reads()) {
            allow(bindings, principal, topic(topic, PatternType.LITERAL), AclOperation.READ);
            allow(bindings, principal, topic(topic, PatternType.LITERAL), AclOperation.DESCRIBE);
        }
        List<ResourcePattern> owned = new ArrayList<>();
        principal.owned().forEach(topic -> owned.add(topic(topic, PatternType.LITERAL)));
        if (principal.ownedPrefix() != null) {
            owned.add(topic(principal.ownedPrefix(), PatternType.PREFIXED));
        }
        for (ResourcePattern topic : owned) {
            for (AclOperation operation :
                    List.of(
                            AclOperation.CREATE,
                            AclOperation.WRITE,
                            AclOperation.READ,
                            AclOperation.DESCRIBE,
                            AclOperation.DESCRIBE_CONFIGS)) {
                allow(bindings, principal, topic, operation);
            }
        }
        if (principal.readPrefix() != null) {
            ResourcePattern read = topic(principal.readPrefix(), PatternType.PREFIXED);
            allow(bindings, principal, read, AclOperation.READ);
            allow(bindings, principal, read, AclOperation.DESCRIBE);
            allow(bindings, principal, read, AclOperation.DESCRIBE_CONFIGS);
        }
        allow(
                bindings,
                principal,
                new ResourcePattern(
                        ResourceType.GROUP, principal.groupPrefix(), PatternType.PREFIXED),
                AclOperation.READ);
        if (principal.transactionalIdPrefix() != null) {
            ResourcePattern transactions =
                    new ResourcePattern(
                            ResourceType.TRANSACTIONAL_ID,
                            principal.transactionalIdPrefix(),
                            PatternType.PREFIXED);
            allow(bindings, principal, transactions, AclOperation.WRITE);
            allow(bindings, principal, transactions, AclOperation.DESCRIBE);
        }
        return List.copyOf(bindings);
    }

    private static ResourcePattern topic(String name, PatternType type) {
        return new ResourcePattern(ResourceType.TOPIC, name, type);
    }

    private static void allow(
            LinkedHashSet<AclBinding> bindings,
            KafkaPrincipals.Principal principal,
            ResourcePattern resource,
            AclOperation operation) {
        bindings.add(
                new AclBinding(
                        resource,
                        new AccessControlEntry(
                                "User:" + principal.name(),
                                "*",
                                operation,
                                AclPermissionType.ALLOW)));
    }
}
