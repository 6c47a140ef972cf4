package io.mtables.ddl.statements;

import io.mtables.ddl.domain.CaptureSnapshotProjection;
import io.mtables.ddl.domain.PlanProjection;
import io.mtables.ddl.domain.RefreshStatusProjection;
import io.mtables.ddl.infra.WarehouseReader;

/**
 * What statements read besides the catalog: the projections of the other services' events (the
 * capture's snapshots among them), the warehouse the materialized tables are in (read by {@code
 * queries}, off the catalog's lock; the refresh history and the audit trail are tables in it).
 */
public record ReadModels(
        PlanProjection plans,
        RefreshStatusProjection statuses,
        WarehouseReader warehouse,
        QueryRunner queries,
        CaptureSnapshotProjection captures) {}
