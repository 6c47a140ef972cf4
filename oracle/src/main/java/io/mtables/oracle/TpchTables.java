package io.mtables.oracle;

import java.util.List;

/** The eight TPC-H tables of {@link Tpch}, declared for PostgreSQL and for Flink. */
final class TpchTables {

    /** A TPC-H table: its columns as PostgreSQL and as Flink declare them, and its key. */
    record Table(String name, String postgresColumns, String flinkColumns, String key) {}

    static final List<Table> ALL =
            List.of(
                    new Table(
                            "region",
                            "r_regionkey BIGINT, r_name TEXT NOT NULL, r_comment TEXT NOT NULL",
                            "r_regionkey BIGINT NOT NULL, r_name STRING NOT NULL, r_comment STRING"
                                    + " NOT NULL",
                            "r_regionkey"),
                    new Table(
                            "nation",
                            "n_nationkey BIGINT, n_name TEXT NOT NULL, n_regionkey BIGINT NOT NULL,"
                                    + " n_comment TEXT NOT NULL",
                            "n_nationkey BIGINT NOT NULL, n_name STRING NOT NULL, n_regionkey"
                                    + " BIGINT NOT NULL, n_comment STRING NOT NULL",
                            "n_nationkey"),
                    new Table(
                            "supplier",
                            "s_suppkey BIGINT, s_name TEXT NOT NULL, s_address TEXT NOT NULL,"
                                + " s_nationkey BIGINT NOT NULL, s_phone TEXT NOT NULL, s_acctbal"
                                + " NUMERIC(15, 2) NOT NULL, s_comment TEXT NOT NULL",
                            "s_suppkey BIGINT NOT NULL, s_name STRING NOT NULL, s_address STRING"
                                + " NOT NULL, s_nationkey BIGINT NOT NULL, s_phone STRING NOT NULL,"
                                + " s_acctbal DECIMAL(15, 2) NOT NULL, s_comment STRING NOT NULL",
                            "s_suppkey"),
                    new Table(
                            "customer",
                            "c_custkey BIGINT, c_name TEXT NOT NULL, c_address TEXT NOT NULL,"
                                + " c_nationkey BIGINT NOT NULL, c_phone TEXT NOT NULL, c_acctbal"
                                + " NUMERIC(15, 2) NOT NULL, c_mktsegment TEXT NOT NULL, c_comment"
                                + " TEXT NOT NULL",
                            "c_custkey BIGINT NOT NULL, c_name STRING NOT NULL, c_address STRING"
                                + " NOT NULL, c_nationkey BIGINT NOT NULL, c_phone STRING NOT NULL,"
                                + " c_acctbal DECIMAL(15, 2) NOT NULL, c_mktsegment STRING NOT"
                                + " NULL, c_comment STRING NOT NULL",
                            "c_custkey"),
                    new Table(
                            "part",
                            "p_partkey BIGINT, p_name TEXT NOT NULL, p_mfgr TEXT NOT NULL, p_brand"
                                    + " TEXT NOT NULL, p_type TEXT NOT NULL, p_size INT NOT NULL,"
                                    + " p_container TEXT NOT NULL, p_retailprice NUMERIC(15, 2) NOT"
                                    + " NULL, p_comment TEXT NOT NULL",
                            "p_partkey BIGINT NOT NULL, p_name STRING NOT NULL, p_mfgr STRING NOT"
                                + " NULL, p_brand STRING NOT NULL, p_type STRING NOT NULL, p_size"
                                + " INT NOT NULL, p_container STRING NOT NULL, p_retailprice"
                                + " DECIMAL(15, 2) NOT NULL, p_comment STRING NOT NULL",
                            "p_partkey"),
                    new Table(
                            "partsupp",
                            "ps_partkey BIGINT, ps_suppkey BIGINT, ps_availqty INT NOT NULL,"
                                    + " ps_supplycost NUMERIC(15, 2) NOT NULL, ps_comment TEXT NOT"
                                    + " NULL",
                            "ps_partkey BIGINT NOT NULL, ps_suppkey BIGINT NOT NULL, ps_availqty"
                                + " INT NOT NULL, ps_supplycost DECIMAL(15, 2) NOT NULL, ps_comment"
                                + " STRING NOT NULL",
                            "ps_partkey, ps_suppkey"),
                    new Table(
                            "orders",
                            "o_orderkey BIGINT, o_custkey BIGINT NOT NULL, o_orderstatus TEXT NOT"
                                + " NULL, o_totalprice NUMERIC(15, 2) NOT NULL, o_orderdate DATE"
                                + " NOT NULL, o_orderpriority TEXT NOT NULL, o_clerk TEXT NOT NULL,"
                                + " o_shippriority INT NOT NULL, o_comment TEXT NOT NULL",
                            "o_orderkey BIGINT NOT NULL, o_custkey BIGINT NOT NULL, o_orderstatus"
                                + " STRING NOT NULL, o_totalprice DECIMAL(15, 2) NOT NULL,"
                                + " o_orderdate DATE NOT NULL, o_orderpriority STRING NOT NULL,"
                                + " o_clerk STRING NOT NULL, o_shippriority INT NOT NULL, o_comment"
                                + " STRING NOT NULL",
                            "o_orderkey"),
                    new Table(
                            "lineitem",
                            "l_orderkey BIGINT, l_partkey BIGINT NOT NULL, l_suppkey BIGINT NOT"
                                + " NULL, l_linenumber INT, l_quantity NUMERIC(15, 2) NOT NULL,"
                                + " l_extendedprice NUMERIC(15, 2) NOT NULL, l_discount NUMERIC(15,"
                                + " 2) NOT NULL, l_tax NUMERIC(15, 2) NOT NULL, l_returnflag TEXT"
                                + " NOT NULL, l_linestatus TEXT NOT NULL, l_shipdate DATE NOT NULL,"
                                + " l_commitdate DATE NOT NULL, l_receiptdate DATE NOT NULL,"
                                + " l_shipinstruct TEXT NOT NULL, l_shipmode TEXT NOT NULL,"
                                + " l_comment TEXT NOT NULL",
                            "l_orderkey BIGINT NOT NULL, l_partkey BIGINT NOT NULL, l_suppkey"
                                + " BIGINT NOT NULL, l_linenumber INT NOT NULL, l_quantity"
                                + " DECIMAL(15, 2) NOT NULL, l_extendedprice DECIMAL(15, 2) NOT"
                                + " NULL, l_discount DECIMAL(15, 2) NOT NULL, l_tax DECIMAL(15, 2)"
                                + " NOT NULL, l_returnflag STRING NOT NULL, l_linestatus STRING NOT"
                                + " NULL, l_shipdate DATE NOT NULL, l_commitdate DATE NOT NULL,"
                                + " l_receiptdate DATE NOT NULL, l_shipinstruct STRING NOT NULL,"
                                + " l_shipmode STRING NOT NULL, l_comment STRING NOT NULL",
                            "l_orderkey, l_linenumber"));

    private TpchTables() {}
}
