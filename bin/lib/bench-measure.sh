# Sourced by bin/bench: what its commands measure of the processes they start (their resident
# memory, and flight recordings with MT_BENCH_PROFILE set). Uses bin/bench's pids, names, ROOT,
# MT_RUN_DIR and log.

# Each process's peak resident set (the kernel's VmHWM) and the sum of those peaks, printed at the end
# of every command beside its figures: the processes this command started and its broker.
peak_memory() {
  local rows=() total=0 kafka_pid
  kafka_pid="$(cat "$MT_RUN_DIR/kafka/kafka.pid" 2>/dev/null || true)"
  local all_pids=("${pids[@]}") all_names=("${names[@]}")
  [ -n "$kafka_pid" ] && { all_pids+=("$kafka_pid"); all_names+=(kafka-broker); }
  for i in "${!all_pids[@]}"; do
    local kib; kib="$(awk '/^VmHWM:/ {print $2}' "/proc/${all_pids[$i]}/status" 2>/dev/null || true)"
    [ -n "$kib" ] || continue
    rows+=("${all_names[$i]}=$((kib / 1024))MiB"); total=$((total + kib))
  done
  (( ${#rows[@]} )) && echo "peak RSS (VmHWM) per process: ${rows[*]}; sum of the peaks $((total / 1024)) MiB"
}

# One line of a system's resident sets (bin/run's processes under $MT_RUN_DIR): each process's
# /proc field $2 (VmRSS now, VmHWM its peak) and their sum, titled $1.
resident_sets() {
  local title="$1" field="$2" rows=() total=0 name pid kib
  for file in "$MT_RUN_DIR"/system/*.pid "$MT_RUN_DIR/data/flink/cluster.pid" "$MT_RUN_DIR/kafka/kafka.pid"; do
    [ -f "$file" ] || continue
    name="$(basename "$file" .pid)"; [ "$name" = cluster ] && name=flink-cluster; [ "$name" = kafka ] && name=kafka-broker
    pid="$(cat "$file")"
    kib="$(awk -v f="$field:" '$1 == f {print $2}' "/proc/$pid/status" 2>/dev/null || true)"
    [ -n "$kib" ] || continue
    rows+=("$name $((kib / 1024))"); total=$((total + kib))
  done
  echo "$title ($field, MiB): ${rows[*]/%/,} total $((total / 1024))"
}

profile_start() { # with MT_BENCH_PROFILE set: a flight recording of every process started so far
  [ -n "${MT_BENCH_PROFILE:-}" ] || return 0
  mkdir -p "$MT_RUN_DIR/profiles"
  for pid in "${pids[@]}"; do jcmd "$pid" JFR.start name=bench settings=profile >/dev/null; done
  log "profiling ${names[*]}"
}
profile_dump() {
  [ -n "${MT_BENCH_PROFILE:-}" ] || return 0
  for i in "${!pids[@]}"; do
    local file="$MT_RUN_DIR/profiles/${names[$i]}.jfr"
    jcmd "${pids[$i]}" JFR.dump name=bench filename="$file" >/dev/null 2>&1 || continue
    java -cp "$ROOT/bench/target/classes" io.mtables.bench.JfrTop "$file" 25 io.mtables,org.apache,com.fasterxml,io.quarkus,io.smallrye || true
  done
}
