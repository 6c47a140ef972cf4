package io.mtables.schemas;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.catalog.TableDropped;
import io.mtables.schemas.ddl.DdlCommand;
import io.mtables.schemas.ddl.StatementResult;
import io.mtables.schemas.lifecycle.RefreshRequested;
import io.mtables.schemas.plan.RefreshPlan;
import java.util.List;
import java.util.Optional;

/** Every contract of the system, by event type. */
public final class Contracts {

  /** A statement submitted on {@link Topics#DDL_COMMANDS}. */
  public static final Contract<DdlCommand> DDL_COMMAND_V1 =
      new Contract<>("DdlCommand", 1, DdlCommand.class);

  /** The outcome of one statement, on {@link Topics#DDL_RESULTS}. */
  public static final Contract<StatementResult> STATEMENT_RESULT_V1 =
      new Contract<>("StatementResult", 1, StatementResult.class);

  /** A version of a table, on {@link Topics#TABLE_DEFINITIONS}. */
  public static final Contract<TableDefinition> TABLE_DEFINED_V1 =
      new Contract<>("TableDefined", 1, TableDefinition.class);

  /** A dropped table, on {@link Topics#TABLE_DEFINITIONS}. */
  public static final Contract<TableDropped> TABLE_DROPPED_V1 =
      new Contract<>("TableDropped", 1, TableDropped.class);

  /** A manual refresh, on {@link Topics#LIFECYCLE_COMMANDS}. */
  public static final Contract<RefreshRequested> REFRESH_REQUESTED_V1 =
      new Contract<>("RefreshRequested", 1, RefreshRequested.class);

  /** A table's refresh plan, on {@link Topics#REFRESH_PLANS}. */
  public static final Contract<RefreshPlan> REFRESH_PLANNED_V1 =
      new Contract<>("RefreshPlanned", 1, RefreshPlan.class);

  public static final List<Contract<?>> ALL =
      List.of(
          DDL_COMMAND_V1,
          STATEMENT_RESULT_V1,
          TABLE_DEFINED_V1,
          TABLE_DROPPED_V1,
          REFRESH_REQUESTED_V1,
          REFRESH_PLANNED_V1);

  private Contracts() {}

  /** The contract whose CloudEvents type is {@code type}, if we define one. */
  public static Optional<Contract<?>> byType(String type) {
    return ALL.stream().filter(contract -> contract.type().equals(type)).findFirst();
  }
}
