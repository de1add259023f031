#!/usr/bin/env bash
# Times kafkalint on the large and hostile inputs of the bad-input matrix, one run each, and
# prints a markdown table of wall time, peak RSS, exit code and the first line of stderr.
#
#   bench/bad-input.sh
#
# Builds the release binary, generates every input under target/bench/bad-input/ (BENCH_DIR to
# change it) and needs nothing beyond bash, python3, coreutils (timeout, mkfifo) and GNU time
# (/usr/bin/time); it installs nothing. Each run is killed after BENCH_TIMEOUT seconds (default
# 60) and shows `killed` then. Targets are printed PASS or MISS; the script fails only when a
# tool is missing or the build fails, never on a missed target.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${BENCH_DIR:-$root/target/bench}/bad-input"
limit="${BENCH_TIMEOUT:-60}"
for tool in cargo python3 timeout mkfifo; do
    command -v "$tool" >/dev/null 2>&1 || { echo "bench/bad-input.sh: needs $tool" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "bench/bad-input.sh: needs GNU time (/usr/bin/time)" >&2; exit 1; }

cd "$root"
cargo build --release --quiet
bin="$root/target/release/kafkalint"
rm -rf "$out"
mkdir -p "$out"
python3 "$root/bench/bad_input.py" "$out"
mkfifo "$out/fifo/server.properties"

# name | target: seconds (0: none), or seconds/MiB of peak RSS | folder to run in | arguments
cases=(
    "alias bomb, named|2|alias-bomb|check alias-bomb.yml"
    "alias bomb, walked beside a broker|2|alias-bomb-walk|check ."
    "alias bomb (merge keys), named|2|alias-bomb-merge|check docker-compose.yml"
    "100,000 nested [ in YAML|2|deep|check flow.yml"
    "100,000 nested - in YAML|2|deep|check block.yml"
    "10,000-service compose|2|compose-10000|check docker-compose.yml"
    "10,000-service compose, json|2|compose-10000|check --format json docker-compose.yml"
    "10,000-service compose, one port|2|compose-10000-one-port|check docker-compose.yml"
    "10,000-service compose, all binding :9092|2|compose-10000-bind-all|check docker-compose.yml"
    "80,000 unknown keys|0|unknown-80000|check server.properties"
    "1,000,000-line .properties|0|million|check server.properties"
    "20,000 [[clusters]]|0|clusters-20000|check ."
    "FIFO named .properties|2|fifo|check server.properties"
    "Ansible inventory, a diamond of groups 30 deep|1|ansible-diamond-30|check ."
    "Ansible inventory, 5 ranges of 1,001 hosts|1|ansible-ranges-5005|check ."
    "Ansible inventory, 20 ranges of 1,001 hosts (over the cap)|1|ansible-ranges-20020|check ."
    "cp-ansible inventory, 4,000 brokers|1|cp-ansible-4000|check ."
    "live snapshot, 80,000 topics|1|snapshot-80000|live --snapshot snapshot.properties"
    "live snapshot, 100 brokers, 200,000 partitions, json|1/200|snapshot-200000|live --snapshot snapshot.properties --format json"
    "live snapshot, 200,000 partitions, --stopping 0, full|1/200|snapshot-200000|live --snapshot snapshot.properties --stopping 0 --format full"
    "live snapshot, 200,000 partitions, --fix|1/200|snapshot-200000|live --snapshot snapshot.properties --fix"
    "800 Terraform releases in one folder|1|terraform-800|check ."

    "200,000 nested \${:-} in a compose value|1|deep-compose-value|check docker-compose.yml"
    "200,000 nested \${:-} in .env|1|deep-dotenv|check docker-compose.yml"
    "200,000 nested \${:-} in an env_file|1|deep-env-file|check docker-compose.yml"
    "300,000 arithmetic signs in a script|1|deep-arithmetic-signs|check kafka.yaml"
    "100,000 nested \$(( )) in a script|1|deep-arithmetic-nested|check kafka.yaml"
    "100,000 nested Jinja if and for|1|deep-jinja|check ."
    "language server, Content-Length 10^12|1|lsp-huge-header|server <input"
)

printf '| Input | Size | Wall (s) | Peak RSS (MB) | Exit | Target | stderr (first line) |\n'
printf '| --- | ---: | ---: | ---: | ---: | --- | --- |\n'
for case in "${cases[@]}"; do
    IFS='|' read -r name target dir args <<<"$case"
    size="$(du -sb --apparent-size "$out/$dir" 2>/dev/null | cut -f1)"
    # `ARGS <FILE`: FILE (in the case's folder) is the run's standard input.
    stdin=/dev/null
    if [[ "$args" == *" <"* ]]; then
        stdin="${args##* <}"
        args="${args% <*}"
    fi
    read -ra argv <<<"$args"
    (
        cd "$out/$dir"
        # The FIFO has no writer: a reader that opens it would wait forever (timeout ends it).
        /usr/bin/time -f '%e %M' -o "$out/time.txt" \
            timeout -s KILL "$limit" "$bin" "${argv[@]}" <"$stdin" >"$out/stdout.txt" 2>"$out/stderr.txt"
    ) && code=0 || code=$?
    # GNU time writes "Command exited with non-zero status N" first when the run fails.
    read -r seconds kilobytes < <(tail -n 1 "$out/time.txt") || { seconds="?"; kilobytes=0; }
    [[ "$seconds" =~ ^[0-9.]+$ ]] || { seconds="?"; kilobytes=0; }
    [ "$code" -eq 137 ] && seconds="killed"
    first="$( (grep -v '^Command ' "$out/stderr.txt" || true) | head -1 | cut -c1-110)"
    verdict="-"
    mebibytes=0
    if [[ "$target" == */* ]]; then
        mebibytes="${target#*/}"
        target="${target%/*}"
    fi
    if [ "$target" != 0 ]; then
        verdict="MISS"
        if [ "$seconds" != killed ] && [ "$seconds" != "?" ] && python3 -c "import sys; sys.exit(0 if float('$seconds') < $target else 1)"; then
            verdict="PASS (< ${target} s)"
            if [ "$mebibytes" != 0 ]; then
                verdict="MISS (over ${mebibytes} MiB)"
                [ "$((kilobytes / 1024))" -le "$mebibytes" ] && verdict="PASS (< ${target} s, <= ${mebibytes} MiB)"
            fi
        fi
    fi
    printf '| %s | %s | %s | %d | %s | %s | %s |\n' "$name" "$(numfmt --to=iec "${size:-0}")" \
        "$seconds" "$((kilobytes / 1024))" "$code" "$verdict" "${first//|/\\|}"
done

# `kafkalint live` against hostile fake brokers on 127.0.0.1 (bench/fake_broker.py MODE): the
# protocol decoder's array lengths, the pool of 16 connections, the answer bound
# (--max-answer-mib, 64 MiB), the one deadline of --timeout, and no server text shown (a row
# whose output holds the password the server echoed shows LEAK).
printf '%s\n' 'security.protocol=SASL_PLAINTEXT' 'sasl.mechanism=PLAIN' \
    'sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="canary-bench-secret";' \
    >"$out/sasl.properties"
# name | seconds target | fake broker mode | arguments
live_cases=(
    "live: Metadata array length 0xFFFFFFFF|2|huge-array|"
    "live: 50,000 brokers in Metadata|20|brokers-50000|--format concise"
    "live: a reply of 255 MiB|2|huge-frame|"
    "live: 8 brokers answering 30 MiB side by side|5|parallel-frames|"
    "live: a byte every 0.5 s, --timeout 3|5|trickle|--timeout 3"
    "live: SASL error echoing the password|2|sasl-echo|--command-config $out/sasl.properties"
)
for case in "${live_cases[@]}"; do
    IFS='|' read -r name target mode args <<<"$case"
    : >"$out/port.txt"
    python3 "$root/bench/fake_broker.py" "$mode" >"$out/port.txt" &
    server=$!
    for _ in $(seq 100); do [ -s "$out/port.txt" ] && break; sleep 0.05; done
    port="$(head -n 1 "$out/port.txt")"
    read -ra argv <<<"$args"
    /usr/bin/time -f '%e %M' -o "$out/time.txt" \
        timeout -s KILL "$limit" "$bin" live --bootstrap-server "127.0.0.1:$port" "${argv[@]}" \
        >"$out/stdout.txt" 2>"$out/stderr.txt" && code=0 || code=$?
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    read -r seconds kilobytes < <(tail -n 1 "$out/time.txt") || { seconds="?"; kilobytes=0; }
    [[ "$seconds" =~ ^[0-9.]+$ ]] || { seconds="?"; kilobytes=0; }
    [ "$code" -eq 137 ] && seconds="killed"
    first="$( (grep -v '^Command ' "$out/stderr.txt" || true) | head -1 | cut -c1-110)"
    verdict="MISS"
    if [ "$seconds" != killed ] && [ "$seconds" != "?" ] && python3 -c "import sys; sys.exit(0 if float('$seconds') < $target else 1)"; then
        verdict="PASS (< ${target} s)"
    fi
    if grep -q canary-bench-secret "$out/stdout.txt" "$out/stderr.txt"; then
        verdict="LEAK"
    fi
    printf '| %s | %s | %s | %d | %s | %s | %s |\n' "$name" "-" \
        "$seconds" "$((kilobytes / 1024))" "$code" "$verdict" "${first//|/\\|}"
done
