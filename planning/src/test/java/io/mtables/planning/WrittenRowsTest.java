package io.mtables.planning;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The rows an old query wrote, rewritten into the new query's from those rows alone. */
class WrittenRowsTest {

    private static final String ITEMS = "`c`.`shop`.`items`";
    private static final String BY_CATEGORY =
            "SELECT `category`, COUNT(*) AS `orders`, SUM(`amount`) AS `revenue` FROM "
                    + ITEMS
                    + " GROUP BY `category`";
    private static final List<String> BY_CATEGORY_COLUMNS =
            List.of("category", "orders", "revenue");

    @Test
    void anOutputColumnIsComputedFromTheColumnsWritten() {
        var rewrite =
                WrittenRows.of(
                        "SELECT `id`, `category`, `amount` FROM " + ITEMS,
                        List.of("id", "category", "amount"),
                        "SELECT `id`, `category`, `amount`, UPPER(`category`) AS `shout` FROM "
                                + ITEMS,
                        List.of("id", "category", "amount", "shout"),
                        List.of("id"));

        assertThat(rewrite.impossible()).isEmpty();
        assertThat(rewrite.query().orElseThrow().replaceAll("\\s+", " "))
                .isEqualTo(
                        "SELECT `id` AS `id`, `category` AS `category`, `amount` AS `amount`,"
                                + " UPPER(`category`) AS `shout` FROM `__mt_written`");
    }

    @Test
    void anAggregateTheOldQueryOutputsIsReadFromItsColumnAndAHavingBecomesAFilter() {
        var rewrite =
                WrittenRows.of(
                        BY_CATEGORY,
                        BY_CATEGORY_COLUMNS,
                        "SELECT `category`, COUNT(*) AS `orders`, SUM(`amount`) AS `revenue`,"
                                + " SUM(`amount`) / COUNT(*) AS `average` FROM "
                                + ITEMS
                                + " GROUP BY `category` HAVING COUNT(*) > 1",
                        List.of("category", "orders", "revenue", "average"),
                        List.of("category"));

        assertThat(rewrite.query().orElseThrow().replaceAll("\\s+", " "))
                .contains("`revenue` / `orders` AS `average`")
                .contains("FROM `__mt_written` WHERE `orders` > 1");
    }

    @Test
    void aQueryAroundTheOldOneReadsTheWrittenRowsInstead() {
        var rewrite =
                WrittenRows.of(
                        BY_CATEGORY,
                        BY_CATEGORY_COLUMNS,
                        "SELECT * FROM (" + BY_CATEGORY + ") AS `t` WHERE `revenue` > 100",
                        BY_CATEGORY_COLUMNS,
                        List.of("category"));

        assertThat(rewrite.query().orElseThrow().replaceAll("\\s+", " "))
                .isEqualTo("SELECT * FROM `__mt_written` AS `t` WHERE `revenue` > 100");
    }

    @Test
    void aColumnTheOldQueryDoesNotOutputCannotBeComputed() {
        var rewrite =
                WrittenRows.of(
                        "SELECT `id`, `category` FROM " + ITEMS,
                        List.of("id", "category"),
                        "SELECT `id`, `category`, `amount` * 2 AS `twice` FROM " + ITEMS,
                        List.of("id", "category", "twice"),
                        List.of("id"));

        assertThat(rewrite.query()).isEmpty();
        assertThat(rewrite.impossible().orElseThrow())
                .isEqualTo(
                        "the new query computes `amount` from what the old query does not output");
    }

    @Test
    void rowsTheOldHavingDroppedAreNotThereToKeep() {
        var rewrite =
                WrittenRows.of(
                        BY_CATEGORY + " HAVING COUNT(*) > 5",
                        BY_CATEGORY_COLUMNS,
                        BY_CATEGORY + " HAVING COUNT(*) > 1",
                        BY_CATEGORY_COLUMNS,
                        List.of("category"));

        assertThat(rewrite.impossible().orElseThrow())
                .contains("the old query's HAVING dropped rows");
    }

    @Test
    void aKeyComputedAnewWouldNotReplaceTheRowItCameFrom() {
        var rewrite =
                WrittenRows.of(
                        BY_CATEGORY,
                        BY_CATEGORY_COLUMNS,
                        "SELECT UPPER(`category`) AS `category`, COUNT(*) AS `orders`,"
                                + " SUM(`amount`) AS `revenue` FROM "
                                + ITEMS
                                + " GROUP BY `category`",
                        BY_CATEGORY_COLUMNS,
                        List.of("category"));

        assertThat(rewrite.impossible().orElseThrow())
                .isEqualTo(
                        "the new query computes the key or partition column category anew"
                                + " (UPPER(`category`))");
    }

    @Test
    void anotherGroupingIsNotARewrite() {
        var rewrite =
                WrittenRows.of(
                        BY_CATEGORY,
                        BY_CATEGORY_COLUMNS,
                        BY_CATEGORY.replace("GROUP BY `category`", "GROUP BY `category`, `id`"),
                        BY_CATEGORY_COLUMNS,
                        List.of("category"));

        assertThat(rewrite.impossible().orElseThrow())
                .isEqualTo("the queries differ in more than their select list and HAVING");
    }
}
