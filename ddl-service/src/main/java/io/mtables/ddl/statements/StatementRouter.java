package io.mtables.ddl.statements;

import io.mtables.ddl.domain.Catalog;
import io.mtables.ddl.domain.StatementException;
import io.mtables.ddl.infra.FlinkSql;
import io.mtables.ddl.infra.ParsedStatement;
import java.time.Instant;
import org.apache.calcite.sql.SqlNode;
import org.apache.flink.sql.parser.ddl.SqlAlterMaterializedTable;
import org.apache.flink.sql.parser.ddl.SqlAlterMaterializedTableRefresh;
import org.apache.flink.sql.parser.ddl.SqlCreateMaterializedTable;
import org.apache.flink.sql.parser.ddl.SqlCreateTable;
import org.apache.flink.sql.parser.ddl.SqlDropMaterializedTable;
import org.apache.flink.sql.parser.ddl.SqlDropTable;
import org.apache.flink.sql.parser.dql.SqlRichDescribeTable;
import org.apache.flink.sql.parser.dql.SqlShowTables;

/** Sends each parsed statement to the class that handles its kind; refuses the rest, saying what is allowed. */
public class StatementRouter {

  private static final java.util.regex.Pattern TEMPORARY =
      java.util.regex.Pattern.compile("(?is)^\\s*CREATE\\s+(OR\\s+REPLACE\\s+)?TEMPORARY\\b");

  private final FlinkSql flink;
  private final SourceTableStatements sourceTables;
  private final MaterializedTableStatements materializedTables;
  private final CatalogQueries queries;

  public StatementRouter(FlinkSql flink, Catalog catalog, io.mtables.ddl.domain.PlanProjection plans) {
    this.flink = flink;
    this.sourceTables = new SourceTableStatements(flink, catalog);
    this.materializedTables = new MaterializedTableStatements(flink, catalog);
    this.queries = new CatalogQueries(flink, catalog, plans);
  }

  /** What {@code statement} comes to; nothing is changed yet. */
  public Outcome route(String statement, String requestId, Instant now) {
    if (io.mtables.ddl.infra.InformationSchema.isQueryOver(statement)) {
      return queries.informationSchema(statement);
    }
    ParsedStatement parsed = flink.parse(statement);
    SqlNode node = parsed.node();
    if (node instanceof SqlCreateMaterializedTable) {
      return materializedTables.create(parsed, requestId, now);
    }
    if (node instanceof SqlAlterMaterializedTableRefresh refresh) {
      return materializedTables.refresh(refresh, requestId, now);
    }
    if (node instanceof SqlAlterMaterializedTable alter) {
      return materializedTables.alter(parsed, alter, requestId, now);
    }
    if (node instanceof SqlDropMaterializedTable drop) {
      return materializedTables.drop(drop, requestId, now);
    }
    if (node instanceof SqlCreateTable create) {
      return sourceTables.create(parsed, create, requestId, now);
    }
    if (node instanceof SqlDropTable drop) {
      return sourceTables.drop(drop, requestId, now);
    }
    if (node instanceof SqlShowTables show) {
      return queries.show(show);
    }
    if (node instanceof SqlRichDescribeTable describe) {
      return queries.describe(describe, parsed.describeMaterialized());
    }
    if (node.getKind().belongsTo(org.apache.calcite.sql.SqlKind.QUERY)) {
      return queries.select(parsed);
    }
    if (TEMPORARY.matcher(parsed.text()).find()) {
      Statements.refuseTemporary(true, "object", node);
    }
    throw StatementException.invalidAt(
        "UnsupportedStatement",
        "Statement " + node.getKind() + " is not part of the dialect.",
        FlinkSql.positionOf(node),
        Statements.ALLOWED);
  }
}
