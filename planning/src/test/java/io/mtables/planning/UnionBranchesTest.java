package io.mtables.planning;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class UnionBranchesTest {

    @Test
    void aUnionAllOfThreeHasThreeBranchesInOrder() {
        var branches =
                UnionBranches.of(
                        "SELECT `p`.`id`, `p`.`name` FROM `c`.`s`.`people` AS `p` UNION ALL SELECT"
                                + " `id`, `plan` FROM `c`.`s`.`accounts` UNION ALL SELECT `id`, 'x'"
                                + " FROM `c`.`s`.`t` WHERE `id` > 1");
        assertThat(branches).hasSize(3);
        assertThat(branches.get(0)).contains("`p`.`name`").contains("`c`.`s`.`people`");
        assertThat(branches.get(2)).contains("WHERE `id` > 1");
    }

    @Test
    void aUnionWithoutAllOrAnyOtherQueryHasNoBranches() {
        assertThat(UnionBranches.of("SELECT `a` FROM `t` UNION SELECT `a` FROM `u`")).isEmpty();
        assertThat(UnionBranches.of("SELECT `a` FROM `t`")).isEmpty();
        assertThat(
                        UnionBranches.of(
                                "SELECT * FROM (SELECT `a` FROM `t` UNION ALL SELECT `a` FROM"
                                        + " `u`)"))
                .isEmpty();
    }

    @Test
    void aDistinctUnionInsideAUnionAllIsOneBranch() {
        assertThat(
                        UnionBranches.of(
                                "(SELECT `a` FROM `t` UNION SELECT `a` FROM `u`) UNION ALL SELECT"
                                        + " `a` FROM `v`"))
                .hasSize(2);
    }
}
