package io.mtables.planning;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@link FlinkQueryAnalyzer} reads in the text of Flink's EXPLAIN: only the names Flink gives
 * its operators, changelog modes and expressions, never a verdict of our own.
 */
final class ExplainText {

    private static final String PHYSICAL_PLAN = "== Optimized Physical Plan ==";
    private static final String EXECUTION_PLAN = "== Optimized Execution Plan ==";
    private static final Pattern CHANGELOG = Pattern.compile("changelogMode=(\\[[A-Z,]+\\])");

    /** An operator line of a plan: tree drawing, then the operator's name and its attributes. */
    private static final Pattern OPERATOR =
            Pattern.compile("^[\\s:+\\-]*([A-Za-z]+)\\((.*)\\)\\s*$");

    private static final Pattern SCANNED_TABLE = Pattern.compile("table=\\[\\[([^\\]]+)\\]\\]");
    private static final Pattern INNER_OR_OUTER =
            Pattern.compile(
                    "joinType=\\[(InnerJoin|LeftOuterJoin|RightOuterJoin|FullOuterJoin)\\]");
    private static final Pattern CONDITION = Pattern.compile("condition=\\[(.*?)\\](?:, |\\)$|$)");

    /** Functions whose value moves with the wall clock; Flink prints them by these names. */
    private static final Pattern CURRENT_TIME =
            Pattern.compile(
                    "\\b(NOW|CURRENT_TIMESTAMP|LOCALTIMESTAMP|CURRENT_DATE|CURRENT_TIME|LOCALTIME|PROCTIME|CURRENT_ROW_TIMESTAMP|UNIX_TIMESTAMP)\\b");

    /** Functions whose value changes while the inputs do not: the clock's, and random values. */
    private static final Pattern VOLATILE =
            Pattern.compile(
                    "\\b(NOW|CURRENT_TIMESTAMP|LOCALTIMESTAMP|CURRENT_DATE|CURRENT_TIME|LOCALTIME|PROCTIME|CURRENT_ROW_TIMESTAMP|UNIX_TIMESTAMP|RAND|RAND_INTEGER|UUID)\\b");

    /** Streaming operators whose state is kept per key forever unless a TTL says otherwise. */
    private static final Map<String, String> UNBOUNDED_STATE =
            Map.of(
                    "Join", "regular join",
                    "MultiJoin", "regular join",
                    "GroupAggregate", "group aggregation",
                    "GlobalGroupAggregate", "group aggregation",
                    "IncrementalGroupAggregate", "group aggregation",
                    "Rank", "Top-N",
                    "Deduplicate", "deduplication",
                    "ChangelogNormalize", "changelog normalization");

    /** The changelog mode of the first node of the optimized physical plan: the query's output. */
    static String rootChangelog(String explain) {
        Matcher matcher = CHANGELOG.matcher(physicalPlan(explain).lines().findFirst().orElse(""));
        if (!matcher.find()) {
            throw new IllegalStateException("no changelogMode on the root of Flink's plan");
        }
        return matcher.group(1);
    }

    /** The operators of the streaming plan that keep state per key forever, in words, once each. */
    static List<String> statefulOperators(String explain) {
        Set<String> found = new LinkedHashSet<>();
        for (String line : physicalPlan(explain).lines().toList()) {
            Matcher operator = OPERATOR.matcher(line);
            if (operator.matches()
                    && UNBOUNDED_STATE.containsKey(operator.group(1))
                    && !operator.group(2).contains("stateTtlHints=")) {
                found.add(UNBOUNDED_STATE.get(operator.group(1)));
            }
        }
        return List.copyOf(found);
    }

    /**
     * Whether the streaming plan has an inner or outer regular join (Flink's Join or MultiJoin;
     * semi and anti joins are not batched).
     */
    static boolean hasRegularJoin(String explain) {
        return physicalPlan(explain)
                .lines()
                .map(OPERATOR::matcher)
                .anyMatch(
                        operator ->
                                operator.matches()
                                        && (operator.group(1).equals("MultiJoin")
                                                || operator.group(1).equals("Join")
                                                        && INNER_OR_OUTER
                                                                .matcher(operator.group(2))
                                                                .find()));
    }

    /** The sources Flink reads as a changelog (updates and deletes), not as appended events. */
    static List<String> changelogSources(String explain) {
        Set<String> found = new LinkedHashSet<>();
        for (String line : physicalPlan(explain).lines().toList()) {
            Matcher operator = OPERATOR.matcher(line);
            if (operator.matches() && operator.group(1).equals("TableSourceScan")) {
                Matcher table = SCANNED_TABLE.matcher(operator.group(2));
                Matcher changelog = CHANGELOG.matcher(operator.group(2));
                if (table.find() && changelog.find() && !changelog.group(1).equals("[I]")) {
                    found.add(table.group(1).replace(", ", "."));
                }
            }
        }
        return List.copyOf(found);
    }

    /** Current-time functions in the filter and join conditions of the logical plan, once each. */
    static List<String> timeFunctionsInConditions(String logicalPlan) {
        Set<String> found = new LinkedHashSet<>();
        for (String line : logicalPlan.lines().toList()) {
            Matcher condition = CONDITION.matcher(line);
            while (condition.find()) {
                Matcher function = CURRENT_TIME.matcher(condition.group(1));
                while (function.find()) {
                    found.add(function.group(1));
                }
            }
        }
        return List.copyOf(found);
    }

    /** The volatile functions anywhere in a plan, once each. */
    static List<String> volatileFunctions(String plan) {
        Set<String> found = new LinkedHashSet<>();
        Matcher function = VOLATILE.matcher(plan);
        while (function.find()) {
            found.add(function.group(1));
        }
        return List.copyOf(found);
    }

    static String physicalPlan(String explain) {
        int start = explain.indexOf(PHYSICAL_PLAN);
        if (start < 0) {
            throw new IllegalStateException("no optimized physical plan in Flink's explanation");
        }
        int end = explain.indexOf(EXECUTION_PLAN, start);
        return explain.substring(start + PHYSICAL_PLAN.length(), end < 0 ? explain.length() : end)
                .strip();
    }

    private ExplainText() {}
}
