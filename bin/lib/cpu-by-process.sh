#!/usr/bin/env bash
# Which kinds of process a test run's CPU went to: samples every process's CPU time (ps) every few
# seconds until the file named by $2 exists, then writes "<kind><TAB><cpu seconds>" lines, most
# first, to $1. A process that ends between two samples loses at most an interval of its CPU.
# Kinds: the brokers, the object store, HDFS, PostgreSQL, Maven, each lane's test JVMs (surefire),
# each packaged service (by module), the embedded and session Flink clusters, everything else.
# Also writes how busy the whole machine was, as "<epoch seconds><TAB><percent of all cores busy>"
# lines each interval, to cpu-busy.tsv beside the output (from /proc/stat: what was not idle).
# Usage: cpu-by-process.sh <output file> <stop file> [interval seconds, default 5]
set -uo pipefail

OUT="$1"
STOP="$2"
INTERVAL="${3:-5}"

sample() {
  ps -ww -eo pid=,times=,args= | awk '
    {
      pid = $1; cpu = $2; args = $0
      kind = "other"
      # By main class first: a Flink cluster a test started has Maven and the tests on its class path.
      if (args ~ /org\.codehaus\.plexus\.classworlds\.launcher\.Launcher/) kind = "Maven"
      else if (args ~ /LocalFlinkCluster|org\.apache\.flink\.runtime\.(entrypoint|taskexecutor)/) kind = "Flink clusters"
      else if (args ~ / kafka\.Kafka /) kind = "kafka broker"
      else if (args ~ /org\.gaul\.s3proxy/) kind = "object store (S3Proxy)"
      else if (args ~ /MiniHadoopClusterManager/) kind = "HDFS"
      else if (args ~ / postgres: |bin\/postgres /) kind = "PostgreSQL"
      else if (args ~ /surefirebooter/) kind = "test JVMs (surefire)"
      else if (args ~ /quarkus-run\.jar/) {
        match(args, /[A-Za-z0-9_-]+\/target\/quarkus-app\/quarkus-run\.jar/)
        kind = "service " substr(args, RSTART, index(substr(args, RSTART), "/") - 1)
      }
      else if (args ~ /java/) kind = "other JVMs"
      print pid, cpu, kind
    }'
}

BUSY="$(dirname "$OUT")/cpu-busy.tsv"
: >"$BUSY"
# "<busy jiffies> <all jiffies>" of every core since boot.
jiffies() { awk '/^cpu / { all = 0; for (i = 2; i <= NF; i++) all += $i; print all - $5 - $6, all }' /proc/stat; }

declare -A last total
# What ran before the sampler started counts from its first sample on, not from its own start.
while read -r pid cpu kind; do last[$pid]=$cpu; done < <(sample)
read -r busy_before all_before < <(jiffies)
while [[ ! -e "$STOP" ]]; do
  read -r busy all < <(jiffies)
  if (( all > all_before )); then
    printf '%s\t%s\n' "$(date +%s)" $(( 100 * (busy - busy_before) / (all - all_before) )) >>"$BUSY"
  fi
  busy_before=$busy all_before=$all
  while read -r pid cpu kind; do
    previous="${last[$pid]:-0}"
    (( cpu >= previous )) || previous=0   # a pid used again by a new process
    total[$kind]=$(( ${total[$kind]:-0} + cpu - previous ))
    last[$pid]=$cpu
  done < <(sample)
  sleep "$INTERVAL"
done
for kind in "${!total[@]}"; do printf '%s\t%s\n' "$kind" "${total[$kind]}"; done | sort -t$'\t' -k2 -n -r >"$OUT"
