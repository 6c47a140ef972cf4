package io.mtables.ddl.statements;

import io.mtables.ddl.audit.AuditProjection;
import io.mtables.ddl.domain.PlanProjection;
import io.mtables.ddl.domain.RefreshStatusProjection;
import io.mtables.ddl.infra.WarehouseReader;

/**
 * What statements read besides the catalog: the projections of the other services' events, the
 * warehouse the materialized tables are in, and the audit trail's newest records.
 */
public record ReadModels(
        PlanProjection plans,
        RefreshStatusProjection statuses,
        WarehouseReader warehouse,
        AuditProjection audits) {}
