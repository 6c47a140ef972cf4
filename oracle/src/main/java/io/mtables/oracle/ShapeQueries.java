package io.mtables.oracle;

import java.util.List;

/** The queries of {@link Shapes}: each shape's table, our query and PostgreSQL's. */
final class ShapeQueries {

    /**
     * One shape: its materialized table's name, our query, PostgreSQL's query, the columns to
     * compare, and what the statement declares before AS (a primary key, say).
     */
    record Shape(String name, String query, String postgresQuery, String columns, String declared) {
        Shape(String name, String query, String postgresQuery, String columns) {
            this(name, query, postgresQuery, columns, "");
        }
    }

    /** Every shape, over the schema {@code s}. */
    static List<Shape> all(String s) {
        return List.of(
                new Shape(
                        "shape_distinct",
                        "SELECT DISTINCT lastname FROM " + s + ".people",
                        "SELECT DISTINCT lastname FROM " + s + ".people",
                        "lastname"),
                new Shape(
                        "shape_group_nullable",
                        "SELECT firstname, COUNT(*) AS n FROM " + s + ".people GROUP BY firstname",
                        "SELECT firstname, COUNT(*) FROM " + s + ".people GROUP BY firstname",
                        "firstname, n"),
                new Shape(
                        "shape_having",
                        "SELECT plan, COUNT(*) AS n, SUM(balance) AS total, MAX(balance) AS top"
                                + " FROM "
                                + s
                                + ".accounts GROUP BY plan HAVING COUNT(*) > 1",
                        "SELECT plan, COUNT(*), SUM(balance), MAX(balance) FROM "
                                + s
                                + ".accounts GROUP BY plan HAVING COUNT(*) > 1",
                        "plan, n, total, top"),
                new Shape(
                        "shape_global",
                        "SELECT COUNT(*) AS n, SUM(balance) AS total, COUNT(balance) AS"
                                + " with_balance FROM "
                                + s
                                + ".accounts",
                        "SELECT COUNT(*), SUM(balance), COUNT(balance) FROM " + s + ".accounts",
                        "n, total, with_balance"),
                // No account ever qualifies: the table holds the row SQL answers over no rows.
                new Shape(
                        "shape_global_empty",
                        "SELECT COUNT(*) AS n, SUM(balance) AS total, AVG(balance) AS mean,"
                                + " COALESCE(MAX(plan), 'none') AS top_plan FROM "
                                + s
                                + ".accounts WHERE balance > 1000000",
                        "SELECT COUNT(*), SUM(balance), AVG(balance), COALESCE(MAX(plan), 'none')"
                                + " FROM "
                                + s
                                + ".accounts WHERE balance > 1000000",
                        "n, total, mean, top_plan"),
                new Shape(
                        "shape_left_join",
                        "SELECT p.id AS person_id, a.id AS account_id, a.plan FROM "
                                + s
                                + ".people AS p LEFT JOIN "
                                + s
                                + ".accounts AS a ON a.person_id = p.id",
                        "SELECT p.id, a.id, a.plan FROM "
                                + s
                                + ".people p LEFT JOIN "
                                + s
                                + ".accounts a ON a.person_id = p.id",
                        "person_id, account_id, plan"),
                new Shape(
                        "shape_full_join",
                        "SELECT p.id AS person_id, p.lastname, a.id AS account_id FROM "
                                + s
                                + ".people AS p FULL OUTER JOIN "
                                + s
                                + ".accounts AS a ON a.person_id = p.id",
                        "SELECT p.id, p.lastname, a.id FROM "
                                + s
                                + ".people p FULL OUTER JOIN "
                                + s
                                + ".accounts a ON a.person_id = p.id",
                        "person_id, lastname, account_id"),
                new Shape(
                        "shape_right_join",
                        "SELECT a.id AS account_id, p.id AS person_id, p.city FROM "
                                + s
                                + ".people AS p RIGHT JOIN "
                                + s
                                + ".accounts AS a ON a.person_id = p.id",
                        "SELECT a.id, p.id, p.city FROM "
                                + s
                                + ".people p RIGHT JOIN "
                                + s
                                + ".accounts a ON a.person_id = p.id",
                        "account_id, person_id, city"),
                new Shape(
                        "shape_in",
                        "SELECT p.id, p.firstname FROM "
                                + s
                                + ".people AS p WHERE p.id IN (SELECT a.person_id FROM "
                                + s
                                + ".accounts AS a WHERE a.balance > 50)",
                        "SELECT p.id, p.firstname FROM "
                                + s
                                + ".people p WHERE p.id IN (SELECT a.person_id FROM "
                                + s
                                + ".accounts a WHERE a.balance > 50)",
                        "id, firstname"),
                new Shape(
                        "shape_not_exists",
                        "SELECT p.id, p.lastname FROM "
                                + s
                                + ".people AS p WHERE NOT EXISTS (SELECT 1 FROM "
                                + s
                                + ".accounts AS a WHERE a.person_id = p.id)",
                        "SELECT p.id, p.lastname FROM "
                                + s
                                + ".people p WHERE NOT EXISTS (SELECT 1 FROM "
                                + s
                                + ".accounts a WHERE a.person_id = p.id)",
                        "id, lastname"),
                new Shape(
                        "shape_case",
                        "SELECT id, CASE WHEN balance IS NULL THEN 'none' WHEN balance >= 100 THEN"
                                + " 'high' ELSE 'low' END AS tier, COALESCE(plan, 'free') AS plan,"
                                + " balance * 2 + 1 AS adjusted FROM "
                                + s
                                + ".accounts",
                        "SELECT id, CASE WHEN balance IS NULL THEN 'none' WHEN balance >= 100 THEN"
                            + " 'high' ELSE 'low' END, COALESCE(plan, 'free'), balance * 2 + 1 FROM"
                            + " "
                                + s
                                + ".accounts",
                        "id, tier, plan, adjusted"),
                new Shape(
                        "shape_strings",
                        "SELECT id, UPPER(lastname) AS last_upper, CHAR_LENGTH(firstname) AS"
                                + " first_length, firstname || ' ' || lastname AS full_name FROM "
                                + s
                                + ".people",
                        "SELECT id, UPPER(lastname), CHAR_LENGTH(firstname), firstname || ' ' ||"
                                + " lastname FROM "
                                + s
                                + ".people",
                        "id, last_upper, first_length, full_name"),
                new Shape(
                        "shape_dates",
                        "SELECT id, DATE_FORMAT(opened_at, 'yyyy-MM') AS opened_month, EXTRACT(YEAR"
                                + " FROM opened_at) AS opened_year FROM "
                                + s
                                + ".accounts",
                        "SELECT id, to_char(opened_at, 'YYYY-MM'), EXTRACT(YEAR FROM opened_at)"
                                + " FROM "
                                + s
                                + ".accounts",
                        "id, opened_month, opened_year"),
                new Shape(
                        "shape_top_n",
                        "SELECT person_id, id, balance FROM (SELECT person_id, id, balance,"
                            + " ROW_NUMBER() OVER (PARTITION BY person_id ORDER BY balance DESC,"
                            + " id) AS rn FROM "
                                + s
                                + ".accounts WHERE balance IS NOT NULL AND person_id IS NOT NULL)"
                                + " WHERE rn <= 2",
                        "SELECT person_id, id, balance FROM (SELECT person_id, id, balance,"
                            + " ROW_NUMBER() OVER (PARTITION BY person_id ORDER BY balance DESC,"
                            + " id) AS rn FROM "
                                + s
                                + ".accounts WHERE balance IS NOT NULL AND person_id IS NOT NULL) t"
                                + " WHERE rn <= 2",
                        "person_id, id, balance"),
                new Shape(
                        "shape_union",
                        "SELECT lastname AS name FROM "
                                + s
                                + ".people UNION SELECT plan AS name FROM "
                                + s
                                + ".accounts",
                        "SELECT lastname FROM "
                                + s
                                + ".people UNION SELECT plan FROM "
                                + s
                                + ".accounts",
                        "name"),
                // UNION ALL has no key Flink can derive; each branch has one, so the planner keys a
                // row on its branch and that key.
                new Shape(
                        "shape_union_all",
                        "SELECT id, firstname AS name FROM "
                                + s
                                + ".people UNION ALL SELECT id, plan AS name FROM "
                                + s
                                + ".accounts",
                        "SELECT id, firstname FROM "
                                + s
                                + ".people UNION ALL SELECT id, plan FROM "
                                + s
                                + ".accounts",
                        "id, name"),
                // Or the user says which branch a row comes from and declares the key.
                new Shape(
                        "shape_union_all_keyed",
                        "SELECT CAST('person' AS STRING) AS origin, id, firstname AS name FROM "
                                + s
                                + ".people UNION ALL SELECT CAST('account' AS STRING) AS origin,"
                                + " id, plan AS name FROM "
                                + s
                                + ".accounts",
                        "SELECT 'person', id, firstname FROM "
                                + s
                                + ".people UNION ALL SELECT 'account', id, plan FROM "
                                + s
                                + ".accounts",
                        "origin, id, name",
                        "(PRIMARY KEY (origin, id) NOT ENFORCED) "));
    }

    private ShapeQueries() {}
}
