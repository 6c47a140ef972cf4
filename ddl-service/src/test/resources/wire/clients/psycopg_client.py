"""WireProtocolIT's psycopg 3 client: the statements a Python user would send, one line each out.

Usage: psycopg_client.py <port> <certificate> <schema>; the token in MT_TOKEN.
"""
import os
import sys

import psycopg

port, certificate, schema = sys.argv[1], sys.argv[2], sys.argv[3]
settings = dict(host="localhost", port=port, dbname="mtables", user="tests",
                password=os.environ["MT_TOKEN"], sslmode="verify-full", sslrootcert=certificate)

with psycopg.connect(autocommit=True, **settings) as connection:
    connection.execute(
        f"CREATE TABLE {schema}.py_source (a INT) WITH ('connector' = 'datagen')")
    names = [row[0] for row in connection.execute(f"SHOW TABLES FROM {schema}")]
    print("tables", ",".join(sorted(name.rsplit(".", 1)[1] for name in names)))
    columns = connection.execute(
        "SELECT column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = %s AND table_name = 'daily' ORDER BY ordinal_position",
        (schema,)).fetchall()
    print("columns", ",".join(f"{name}:{kind}" for name, kind in columns))
    # Parameters go as the extended protocol's, bound by the server.
    row = connection.execute(
        f"SELECT ds, n FROM {schema}.daily WHERE ds = %s AND n > %s", ("2026-11-28", 4)).fetchone()
    print("row", row[0], row[1], type(row[1]).__name__)
    try:
        connection.execute(f"SELECT * FROM {schema}.nowhere")
    except psycopg.errors.UndefinedTable as error:
        print("error", error.diag.sqlstate, error.diag.statement_position)

# psycopg's default: every statement inside a transaction block. Reads work; a change is refused.
with psycopg.connect(**settings) as connection:
    count = connection.execute(f"SELECT COUNT(*) FROM {schema}.daily").fetchone()[0]
    print("count", count)
    try:
        connection.execute(f"DROP TABLE {schema}.py_source")
    except psycopg.errors.ActiveSqlTransaction as error:
        print("refused", error.diag.sqlstate)
