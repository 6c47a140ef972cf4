#!/usr/bin/env bash
# Where a test run's time went, from what it left behind:
# - bin/test's own phases: a file of "<phase><TAB><seconds>" lines (starting the broker, the store,
#   HDFS and PostgreSQL; the build; each lane of tests);
# - surefire's reports (target/surefire-reports/TEST-*.xml): each test class's wall time;
# - the Maven logs of the run: within each class (after surefire's "Running <class>"), the lines
#   "[time] <phase>: <seconds> s" the tests print (services started and stopped, workloads driven,
#   agreement with PostgreSQL awaited) and Quarkus's "started in <seconds>s." (an application
#   started in the test JVM).
# - the CPU seconds per kind of process beside the phases file (cpu-by-process.tsv, written by
#   bin/lib/cpu-by-process.sh), when there is one, and how busy the machine was while each phase
#   ran (cpu-busy.tsv against spans.tsv: "<phase><TAB><start><TAB><end>", epoch seconds).
# Prints the phases, the test time per module split into those phases, the CPU, how busy the
# cores were in each phase, and the slowest classes (each with how busy the cores were meanwhile).
# Usage: test-report.sh <repo root> <phases file> [maven log...]
set -euo pipefail

ROOT="$1"
PHASES="$2"
shift 2
TOP=10

# "<module> <class> <seconds> <end>" for every test class that ran (end: its report's modification
# time, epoch seconds: the class ended then).
class_times() {
  local report module
  for report in "$ROOT"/*/target/surefire-reports/TEST-*.xml; do
    [[ -f "$report" ]] || continue
    module="${report#"$ROOT"/}"
    module="${module%%/*}"
    # The testsuite element is the second line; its name and time are attributes.
    sed -n '2{s/.* name="\([^"]*\)" time="\([^"]*\)".*/\1 \2/p;q}' "$report" \
      | awk -v module="$module" -v end="$(stat -c %Y "$report")" '{ gsub(",", "", $2); print module, $1, $2, end }'
  done
}

# "<class> <phase> <seconds>" for every timed phase the logs show.
class_phases() {
  (( $# > 0 )) || return 0
  awk '
    /Running [a-z]+\.[A-Za-z0-9_.$]+$/ { class = $NF; next }
    /\[time\] [^:]+: [0-9.]+ s/ {
      line = $0; sub(/.*\[time\] /, "", line)
      phase = line; sub(/:.*/, "", phase); gsub(/ /, "_", phase)
      seconds = line; sub(/.*: /, "", seconds); sub(/ s.*/, "", seconds)
      if (class != "") print class, phase, seconds
      next
    }
    / started in [0-9.]+s\./ {
      seconds = $0; sub(/.* started in /, "", seconds); sub(/s\..*/, "", seconds)
      if (class != "") print class, "start_services", seconds
    }' "$@"
}

times="$(class_times)"
phases="$(class_phases "$@")"

echo
echo "== where the time went =="
if [[ -s "$PHASES" ]]; then
  awk -F'\t' '{ printf "  %-46s %6.0f s\n", $1, $2 }' "$PHASES"
fi
if [[ -z "$times" ]]; then
  echo "  (no test reports)"
  exit 0
fi
echo
echo "test time per module, classes one after the other, and what the tests spent it on:"
printf "  %-26s %7s %8s %8s %9s %9s %8s\n" module classes "total s" "start s" "stop s" "workload s" "await s"
awk '
  FNR == NR { phase[$1 " " $2] += $3; names[$2] = 1; next }
  {
    module = $1; total[module] += $3; count[module]++
    for (p in names) { spent = phase[$2 " " p]; within[module " " p] += spent; accounted[module] += spent }
  }
  END {
    for (m in total) {
      printf "  %-26s %7d %8.0f %8.0f %9.0f %9.0f %8.0f\n", m, count[m], total[m], \
        within[m " start_services"], within[m " stop_services"], within[m " workload"], \
        within[m " awaiting_agreement"]
    }
  }' <(printf '%s\n' "$phases" | grep . || echo "- none 0") <(printf '%s\n' "$times") | sort -k3 -n -r
echo "  (start: services as processes and Quarkus in the test JVM, Flink clusters included;"
echo "   await: agreement with PostgreSQL; the rest is the tests' own steps and waits)"
echo
CPU="$(dirname "$PHASES")/cpu-by-process.tsv"
if [[ -s "$CPU" ]]; then
  echo "CPU seconds by kind of process (two cores: a minute of wall time has 120):"
  awk -F'\t' '{ printf "  %-46s %6d s\n", $1, $2 }' "$CPU"
  echo
fi
BUSY="$(dirname "$PHASES")/cpu-busy.tsv"
SPANS="$(dirname "$PHASES")/spans.tsv"
if [[ -s "$BUSY" && -s "$SPANS" ]]; then
  echo "how busy both cores were while each phase ran (100%: both busy; sampled every few seconds):"
  # The last span of each lane ends it; between the first lane's end and the last's, one lane ran.
  awk -F'\t' '
    FNR == NR { at[NR] = $1; busy[NR] = $2; samples = NR; next }
    {
      name[++spans] = $1; from[spans] = $2; to[spans] = $3
      if ($1 ~ /^tests: /) { lane = $1; sub(/^tests: /, "", lane); sub(/ lane:.*/, "", lane); if ($3 > last[lane]) last[lane] = $3 }
    }
    function share(a, b,   i, sum, n) {
      for (i = 1; i <= samples; i++) if (at[i] > a && at[i] <= b) { sum += busy[i]; n++ }
      return n ? sprintf("%3.0f%%", sum / n) : "   -"
    }
    END {
      for (s = 1; s <= spans; s++) printf "  %-46s %s\n", name[s], share(from[s], to[s])
      first = ""; for (l in last) if (first == "" || last[l] < last[first]) first = l
      end = 0; for (l in last) if (last[l] > end) { end = last[l]; alone = l }
      if (first != "" && alone != first)
        printf "  %-46s %s (%d s)\n", "the " alone " lane alone, after the " first " lane", share(last[first], end), end - last[first]
    }' "$BUSY" "$SPANS"
  echo
fi
echo "the $TOP slowest test classes:"
# awk, not head, takes the first lines: it reads to the end, so sort never meets a closed pipe
# (SIGPIPE under pipefail failed a green run with exit 141 once the classes outgrew one buffer).
# With how busy both cores were while each ran, where the run sampled it.
BUSY_FILE="$(dirname "$PHASES")/cpu-busy.tsv"
[[ -s "$BUSY_FILE" ]] || BUSY_FILE=/dev/null
sort -k3 -g -r <<<"$times" | awk -v top="$TOP" '
  FNR == NR { at[FNR] = $1; busy[FNR] = $2; samples = FNR; next }
  FNR <= top {
    sum = 0; n = 0
    for (i = 1; i <= samples; i++) if (at[i] > $4 - $3 && at[i] <= $4) { sum += busy[i]; n++ }
    printf "  %7.0f s  %-26s %-62s %s\n", $3, $1, $2, n ? sprintf("cores %3.0f%% busy", sum / n) : ""
  }' "$BUSY_FILE" -
