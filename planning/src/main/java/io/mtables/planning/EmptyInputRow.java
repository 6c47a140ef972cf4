package io.mtables.planning;

import io.mtables.schemas.catalog.TableDefinition;
import io.mtables.schemas.plan.SyntheticKey;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.flink.table.api.Table;

/**
 * The row a global aggregate answers when it reads no rows (COUNT 0, SUM NULL, and what the query
 * computes from them), as SQL defines it and a batch job returns it. A stream has no aggregate for
 * an empty input, so the streaming job holds this row while the query has none.
 *
 * <p>Found by Calcite's own rules, not by hand: the aggregate's input is replaced by an empty one
 * and the query is reduced (Calcite's AggregateValuesRule and the Values reductions, with Flink's
 * expression reducer) to a single row of literals. A query it cannot reduce that far (an aggregate
 * function those rules do not know, a join above the aggregate) has none, and its plan says so.
 *
 * <p>Flink hides its planner's classes (Calcite among them) in a class loader of their own, so the
 * calls go through reflection, as {@link FlinkUniqueKeys} does; pinned Flink version 2.2.1, checked
 * by FlinkQueryAnalyzerTest. Must run on the thread that created the TableEnvironment.
 */
public final class EmptyInputRow {

    private static final List<String> REDUCTIONS =
            List.of(
                    "AGGREGATE_REDUCE_FUNCTIONS",
                    "AGGREGATE_VALUES",
                    "FILTER_VALUES_MERGE",
                    "PROJECT_VALUES_MERGE",
                    "PROJECT_FILTER_VALUES_MERGE");

    private EmptyInputRow() {}

    /**
     * Each column's value (as SQL text; null for NULL) when {@code query}, a global aggregate,
     * reads no rows; the empty list when the query then answers no row at all (a HAVING that fails
     * on the empty aggregate, as in a batch); null when it cannot be known here.
     */
    static List<String> of(Table query) {
        try {
            Object operation = query.getQueryOperation();
            Object root = operation.getClass().getMethod("getCalciteTree").invoke(operation);
            ClassLoader planner = root.getClass().getClassLoader();
            Calcite calcite = new Calcite(planner);
            Object emptied = calcite.withEmptyAggregateInput(root);
            if (emptied == null) {
                return null;
            }
            Object reduced = calcite.reduce(emptied);
            if (!calcite.values.isInstance(reduced)) {
                return null;
            }
            List<?> tuples = (List<?>) calcite.values.getMethod("getTuples").invoke(reduced);
            if (tuples.size() != 1) {
                return tuples.isEmpty() ? List.of() : null;
            }
            List<String> row = new ArrayList<>();
            for (Object literal : (List<?>) tuples.get(0)) {
                boolean isNull = (Boolean) literal.getClass().getMethod("isNull").invoke(literal);
                row.add(
                        isNull
                                ? null
                                : text(literal.getClass().getMethod("getValue").invoke(literal)));
            }
            return row.size() == query.getResolvedSchema().getColumnCount()
                    ? Collections.unmodifiableList(row)
                    : null;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    /**
     * The one-row table {@link #held} joins from, declared in the job's session by {@link
     * #DECLARE_ONE_ROW}.
     */
    public static final String ONE_ROW = "`default_catalog`.`default_database`.`__mt_one_row`";

    /**
     * A bounded source of exactly one row (Flink's datagen, a sequence from 1 to 1). Not a VALUES:
     * Calcite's decorrelator leaves a correlated subquery in the query (TPC-H Q17's) undecorrelated
     * once it is joined with a VALUES ("unexpected correlate variable"), and not with a table scan.
     */
    public static final String DECLARE_ONE_ROW =
            "CREATE TEMPORARY TABLE IF NOT EXISTS "
                    + ONE_ROW
                    + " (`__mt_one` INT NOT NULL) WITH ('connector' = 'datagen',"
                    + " 'fields.__mt_one.kind' = 'sequence', 'fields.__mt_one.start' = '1',"
                    + " 'fields.__mt_one.end' = '1')";

    /**
     * The streaming job's query for a global aggregate that holds {@code row} while it has none:
     * the one-row table left-joined with the query gives the query's row when there is one, else
     * {@code row}; when the aggregate's row comes (or goes, all its input deleted), the join
     * retracts the one and emits the other, under the same constant synthetic key. Needs {@link
     * #DECLARE_ONE_ROW}.
     */
    public static String held(TableDefinition definition, List<String> row) {
        if (row.size() != definition.columns().size()) {
            throw new IllegalStateException(
                    "the plan's empty-input row has "
                            + row.size()
                            + " values, and "
                            + definition.table()
                            + " has "
                            + definition.columns().size()
                            + " columns");
        }
        List<String> names =
                definition.columns().stream()
                        .map(column -> PaimonTables.quote(column.name()))
                        .toList();
        List<String> selected = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            String type = definition.columns().get(i).type();
            String empty =
                    row.get(i) == null
                            ? "CAST(NULL AS " + type + ")"
                            : "CAST(" + PaimonTables.literal(row.get(i)) + " AS " + type + ")";
            selected.add(
                    "CASE WHEN `q`.`__mt_one` IS NULL THEN "
                            + empty
                            + " ELSE `q`."
                            + names.get(i)
                            + " END AS "
                            + names.get(i));
        }
        selected.add(
                SyntheticKey.expression(List.of(), "`q`")
                        + " AS "
                        + PaimonTables.quote(SyntheticKey.COLUMN));
        return "SELECT "
                + String.join(", ", selected)
                + "\nFROM "
                + ONE_ROW
                + " AS `e`\nLEFT JOIN (SELECT `q0`.*, 1 AS `__mt_one` FROM (\n"
                + definition.query().expanded()
                + "\n) AS `q0` ("
                + String.join(", ", names)
                + ")) AS `q` ON `e`.`__mt_one` = `q`.`__mt_one`";
    }

    /**
     * A literal's value as SQL would cast it from text: a character literal without its character
     * set.
     */
    private static String text(Object value) throws ReflectiveOperationException {
        if (value instanceof BigDecimal decimal) {
            return decimal.toPlainString();
        }
        if (value.getClass().getSimpleName().equals("NlsString")) {
            return (String) value.getClass().getMethod("getValue").invoke(value);
        }
        return value.toString();
    }

    /** The few Calcite classes and calls this needs, loaded from the planner's class loader. */
    private static final class Calcite {
        final ClassLoader loader;
        final Class<?> relNode;
        final Class<?> aggregate;
        final Class<?> project;
        final Class<?> filter;
        final Class<?> values;

        Calcite(ClassLoader loader) throws ClassNotFoundException {
            this.loader = loader;
            this.relNode = load("org.apache.calcite.rel.RelNode");
            this.aggregate = load("org.apache.calcite.rel.core.Aggregate");
            this.project = load("org.apache.calcite.rel.core.Project");
            this.filter = load("org.apache.calcite.rel.core.Filter");
            this.values = load("org.apache.calcite.rel.core.Values");
        }

        private Class<?> load(String name) throws ClassNotFoundException {
            return Class.forName(name, true, loader);
        }

        /**
         * The tree with the input of its global aggregate made empty: the aggregate must be reached
         * from the top through projections and filters only (a HAVING, computed columns); else
         * null.
         */
        Object withEmptyAggregateInput(Object node) throws ReflectiveOperationException {
            if (aggregate.isInstance(node)) {
                if ((Integer) aggregate.getMethod("getGroupCount").invoke(node) != 0) {
                    return null;
                }
                Object input = inputs(node).get(0);
                Object cluster = relNode.getMethod("getCluster").invoke(node);
                Object rowType = relNode.getMethod("getRowType").invoke(input);
                Class<?> logicalValues = load("org.apache.calcite.rel.logical.LogicalValues");
                Object empty =
                        logicalValues
                                .getMethod(
                                        "createEmpty",
                                        load("org.apache.calcite.plan.RelOptCluster"),
                                        load("org.apache.calcite.rel.type.RelDataType"))
                                .invoke(null, cluster, rowType);
                return copy(node, empty);
            }
            if (project.isInstance(node) || filter.isInstance(node)) {
                Object below = withEmptyAggregateInput(inputs(node).get(0));
                return below == null ? null : copy(node, below);
            }
            return null;
        }

        private List<?> inputs(Object node) throws ReflectiveOperationException {
            return (List<?>) relNode.getMethod("getInputs").invoke(node);
        }

        private Object copy(Object node, Object input) throws ReflectiveOperationException {
            Object traits = relNode.getMethod("getTraitSet").invoke(node);
            Method copy =
                    relNode.getMethod(
                            "copy", load("org.apache.calcite.plan.RelTraitSet"), List.class);
            return copy.invoke(node, traits, List.of(input));
        }

        /**
         * Calcite's reductions of an aggregate over no rows, and of projections and filters over
         * literal rows. Each constant expression is first simplified by Calcite and, when SQL's
         * null rules make it NULL (SUM(x) / COUNT(*) is NULL / 0), taken as NULL: Flink's own
         * reducer refuses a literal zero divisor even where the dividend is NULL, which a query
         * over no rows evaluates to NULL.
         */
        Object reduce(Object tree) throws ReflectiveOperationException {
            Class<?> rule = load("org.apache.calcite.plan.RelOptRule");
            Class<?> coreRules = load("org.apache.calcite.rel.rules.CoreRules");
            Class<?> builderClass = load("org.apache.calcite.plan.hep.HepProgramBuilder");
            Object builder = builderClass.getConstructor().newInstance();
            for (String name : REDUCTIONS) {
                builderClass
                        .getMethod("addRuleInstance", rule)
                        .invoke(builder, coreRules.getField(name).get(null));
            }
            Object program = builderClass.getMethod("build").invoke(builder);
            Class<?> hepPlanner = load("org.apache.calcite.plan.hep.HepPlanner");
            Object planner =
                    hepPlanner
                            .getConstructor(load("org.apache.calcite.plan.hep.HepProgram"))
                            .newInstance(program);
            hepPlanner.getMethod("setRoot", relNode).invoke(planner, tree);
            // The reductions use the executor of the tree's own planner (Flink's): it is wrapped
            // meanwhile.
            Object cluster = relNode.getMethod("getCluster").invoke(tree);
            Object flinkPlanner = cluster.getClass().getMethod("getPlanner").invoke(cluster);
            Class<?> relOptPlanner = load("org.apache.calcite.plan.RelOptPlanner");
            Class<?> executorClass = load("org.apache.calcite.rex.RexExecutor");
            Object flinkExecutor = relOptPlanner.getMethod("getExecutor").invoke(flinkPlanner);
            Method setExecutor = relOptPlanner.getMethod("setExecutor", executorClass);
            setExecutor.invoke(flinkPlanner, nullsFirst(executorClass, flinkExecutor));
            try {
                return hepPlanner.getMethod("findBestExp").invoke(planner);
            } finally {
                setExecutor.invoke(flinkPlanner, flinkExecutor);
            }
        }

        /**
         * An executor that reduces what SQL's null rules make NULL itself, and hands the rest to
         * {@code flink}.
         */
        private Object nullsFirst(Class<?> executorClass, Object flink)
                throws ReflectiveOperationException {
            Class<?> rexNode = load("org.apache.calcite.rex.RexNode");
            Class<?> rexBuilder = load("org.apache.calcite.rex.RexBuilder");
            Class<?> rexLiteral = load("org.apache.calcite.rex.RexLiteral");
            Class<?> bitSet = load("org.apache.calcite.util.ImmutableBitSet");
            Object noNullColumns =
                    bitSet.getMethod("of", int[].class).invoke(null, (Object) new int[0]);
            Method isNull =
                    load("org.apache.calcite.plan.Strong").getMethod("isNull", rexNode, bitSet);
            Class<?> simplifyClass = load("org.apache.calcite.rex.RexSimplify");
            Class<?> predicates = load("org.apache.calcite.plan.RelOptPredicateList");
            Object noPredicates = predicates.getField("EMPTY").get(null);
            Method reduce = executorClass.getMethod("reduce", rexBuilder, List.class, List.class);
            return Proxy.newProxyInstance(
                    loader,
                    new Class<?>[] {executorClass},
                    (proxy, method, args) -> {
                        if (!method.equals(reduce)) {
                            return method.invoke(flink, args);
                        }
                        Object builder = args[0];
                        @SuppressWarnings("unchecked")
                        List<Object> reduced = (List<Object>) args[2];
                        Object simplify =
                                simplifyClass
                                        .getConstructor(rexBuilder, predicates, executorClass)
                                        .newInstance(builder, noPredicates, flink);
                        for (Object expression : (List<?>) args[1]) {
                            Object simplified =
                                    simplifyClass
                                            .getMethod("simplify", rexNode)
                                            .invoke(simplify, expression);
                            Object type = rexNode.getMethod("getType").invoke(expression);
                            if ((Boolean) isNull.invoke(null, simplified, noNullColumns)) {
                                reduced.add(
                                        rexBuilder
                                                .getMethod(
                                                        "makeNullLiteral",
                                                        load(
                                                                "org.apache.calcite.rel.type.RelDataType"))
                                                .invoke(builder, type));
                            } else if (rexLiteral.isInstance(simplified)) {
                                reduced.add(
                                        rexBuilder
                                                .getMethod(
                                                        "makeCast",
                                                        load(
                                                                "org.apache.calcite.rel.type.RelDataType"),
                                                        rexNode)
                                                .invoke(builder, type, simplified));
                            } else {
                                List<Object> one = new ArrayList<>();
                                reduce.invoke(flink, builder, List.of(simplified), one);
                                reduced.addAll(one);
                            }
                        }
                        return null;
                    });
        }
    }
}
