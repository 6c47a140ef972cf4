#!/bin/sh
# Runs one bin/oracle command for each example, as bin/run does for the demo.
# Usage: oracle-examples.sh prepare|declare <schema> <example>...
set -eu
command="$1" schema="$2"
shift 2
for example in "$@"; do
  java -cp "/deployments/classes:/deployments/lib/*" io.mtables.oracle.OracleCommand "$command" \
    --example "$example" --schema "$schema" --ddl-url "${MT_DDL_URL:-http://127.0.0.1:8081}"
done
