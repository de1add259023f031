#!/usr/bin/env bash
# Times kafkalint against the I/O floor (cat), conftest and Kafka's own KafkaConfig, on a
# generated estate of 1,000 clusters of 10 brokers, and prints a markdown table of medians.
#
#   bench/run.sh
#
# Installs what it needs when missing: hyperfine and GNU time (apt), conftest (from the Go module
# proxy, with the machine's Go), the Kafka jars (Maven Central, through oracle/run.sh). Writes
# everything under target/bench/ (BENCH_DIR to change it): the corpus, conftest, the hyperfine
# exports (hyperfine-*.json) and table.md. About 5 to 10 minutes on 2 cores once the release
# build and the Kafka jars are cached. Targets are printed PASS or MISS; the script fails only
# when a tool fails, never on a missed target.
#
# BENCH_CLUSTERS (default 1000) and BENCH_BROKERS (default 10) size the corpus; BENCH_SCALES
# (default "1000 3000 10000" clusters) the corpora of the growth table ("" leaves it out).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${BENCH_DIR:-$root/target/bench}"
clusters="${BENCH_CLUSTERS:-1000}"
brokers="${BENCH_BROKERS:-10}"
conftest_version="v0.71.1"
kafka_version="3.9.2" # the corpus has ZooKeeper-mode clusters, which 4.x refuses
started=$SECONDS
mkdir -p "$out"
cd "$root"

say() { printf '\n== %s (%ds)\n' "$*" "$((SECONDS - started))" >&2; }

say "tools"
apt_updated=0
apt_install() {
    if [ "$apt_updated" -eq 0 ]; then
        apt-get update -qq >&2
        apt_updated=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2
}
command -v hyperfine >/dev/null 2>&1 || apt_install hyperfine
[ -x /usr/bin/time ] || apt_install time
for tool in cargo python3 java mvn; do
    command -v "$tool" >/dev/null 2>&1 || { echo "bench/run.sh: $tool is needed (see README.md)" >&2; exit 1; }
done

say "kafkalint release build"
# The build releases ship for Linux (the archives and the wheels): static, for musl, with the
# memory functions of crates/fast-mem. A glibc build spends 0.6 ms of every start in the C
# library's CPU feature probing (CPUID, slow in virtual machines); musl probes nothing.
musl_target="$(uname -m)-unknown-linux-musl"
rustup target list --installed | grep -qx "$musl_target" || rustup target add "$musl_target" >&2
command -v musl-gcc >/dev/null 2>&1 || apt_install musl-tools
cargo build --release --quiet --target "$musl_target"
kafkalint="$root/target/$musl_target/release/kafkalint"

say "corpus: $clusters clusters of $brokers brokers"
python3 bench/corpus.py --self-test --clusters "$clusters" --brokers "$brokers" >&2
corpus="$out/corpus"
python3 bench/corpus.py "$corpus" --clusters "$clusters" --brokers "$brokers" | tee "$out/corpus.txt" >&2
files="$(find "$corpus" -name '*.properties' | wc -l)"
find "$corpus" -name '*.properties' | sort >"$out/files.txt"
one_file="$corpus/cluster-0000/server-0.properties"

say "conftest $conftest_version"
conftest="$out/bin/conftest"
if [ ! -x "$conftest" ] || [ "$(cat "$out/bin/conftest.version" 2>/dev/null)" != "$conftest_version" ]; then
    if command -v go >/dev/null 2>&1; then
        GOBIN="$out/bin" GOFLAGS=-mod=mod go install "github.com/open-policy-agent/conftest@$conftest_version" >&2
        echo "$conftest_version" >"$out/bin/conftest.version"
    else
        echo "bench/run.sh: no Go toolchain (1.26.8 or newer): the conftest rows are left out" >&2
        conftest=""
    fi
fi

say "Kafka $kafka_version KafkaConfig (oracle/)"
# oracle/run.sh compiles the classes and resolves the release's classpath, both cached in
# oracle/target/; judging one file proves the two work.
echo "$one_file" >"$out/one-file.txt"
oracle/run.sh "$kafka_version" "$out/one-file.txt" >/dev/null
jvm_classpath="$root/oracle/target/classes:$(cat "oracle/target/classpath-$kafka_version.txt")"
# KafkaConfig resolves every controller.quorum.voters host while it validates; the corpus's
# host names are made up, so a hosts file for Java's resolver maps them all to loopback, and
# the time measured is Kafka's validation, not DNS timeouts.
grep -rhoE '[a-z0-9-]+(\.[a-z0-9-]+)*\.example\.internal' "$corpus" | sort -u | sed 's/^/127.0.0.1 /' >"$out/hosts"
jvm_resolver="-Djdk.net.hosts.file=$out/hosts"
# The flags oracle/run.sh gives a short-lived JVM.
jvm_process="java $jvm_resolver -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto -cp $jvm_classpath dev.kafkalint.oracle.KafkaConfigOracle $out/files.txt"

say "timing"
# hyperfine's own shell is used only where a pipeline needs one (cat); elsewhere -N runs the
# command directly, so a 1 ms process is not measured through a shell. kafkalint exits 1 on
# findings: -i keeps those runs.
time_it() { # NAME MIN_RUNS MAX_RUNS WARMUP [hyperfine args...] COMMAND
    # hyperfine runs each command for about 3 s, within MIN_RUNS and MAX_RUNS.
    local name="$1" min_runs="$2" max_runs="$3" warmup="$4"
    shift 4
    hyperfine --style basic --min-runs "$min_runs" --max-runs "$max_runs" --warmup "$warmup" -i \
        --export-json "$out/hyperfine-$name.json" "$@" >&2
}
time_it kafkalint-1-file 100 300 10 -N -n "kafkalint check FILE" "$kafkalint check $one_file"
time_it kafkalint-json 3 10 1 -N -n "kafkalint check --format json CORPUS" "$kafkalint check --format json $corpus"
time_it kafkalint-full 3 10 1 -N -n "kafkalint check --format full CORPUS" "$kafkalint check --format full --color never $corpus"
time_it cat 5 10 1 -n "cat CORPUS" "find $corpus -name '*.properties' -print0 | xargs -0 cat > /dev/null"
if [ -n "$conftest" ]; then
    # One run over the whole estate, every file combined, grouped by folder in the policy: one
    # command in CI and one report, as a conftest user of a config repository would run it.
    time_it conftest 3 3 0 -N -n "conftest test --combine CORPUS" "$conftest test --no-color --parser properties --combine --policy $root/bench/policy $corpus"
fi
time_it jvm-process 3 3 0 -N -n "java KafkaConfigOracle CORPUS" "$jvm_process"

say "JVM warm passes"
# Default JVM flags (both JIT compilers): a service that stays up would run so.
java $jvm_resolver -cp "$jvm_classpath" dev.kafkalint.oracle.KafkaConfigBench --warmup 3 --runs 5 "$out/files.txt" \
    2>"$out/jvm-warm.log" | tee "$out/jvm-warm.txt" >&2

say "peak RSS"
rss() { # FORMAT
    # kafkalint exits 1 on findings; GNU time passes that on.
    { /usr/bin/time -v "$kafkalint" check --format "$1" "$corpus" >/dev/null || true; } 2>&1 \
        | sed -n 's/.*Maximum resident set size (kbytes): //p'
}
rss_json="$(rss json)"
rss_full="$(rss full)"

say "growth"
# The same kind of corpus at each size of BENCH_SCALES (clusters of BENCH_BROKERS; default
# 1,000, 3,000 and 10,000 clusters: 10,000, 30,000 and 100,000 files, the largest 720 MB on
# disk), each timed once after a warm-up with hyperfine, `cat` beside it, and its peak RSS.
: >"$out/scaling.tsv"
for scale in ${BENCH_SCALES-1000 3000 10000}; do
    if [ "$scale" -eq "$clusters" ]; then
        grown="$corpus"
    else
        grown="$out/corpus-$scale"
        python3 bench/corpus.py "$grown" --clusters "$scale" --brokers "$brokers" >/dev/null
    fi
    hyperfine --style basic --runs 1 --warmup 1 -i -N --export-json "$out/scale-json.json" \
        "$kafkalint check --format json $grown" >&2
    hyperfine --style basic --runs 1 --warmup 1 --export-json "$out/scale-cat.json" \
        "find $grown -name '*.properties' -print0 | xargs -0 cat > /dev/null" >&2
    peak="$({ /usr/bin/time -v "$kafkalint" check --format json "$grown" >/dev/null || true; } 2>&1 \
        | sed -n 's/.*Maximum resident set size (kbytes): //p')"
    median() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["median"])' "$1"; }
    printf '%s\t%s\t%s\t%s\n' "$((scale * brokers))" "$(median "$out/scale-json.json")" \
        "$(median "$out/scale-cat.json")" "$peak" >>"$out/scaling.tsv"
    [ "$grown" = "$corpus" ] || rm -rf "$grown"
done

say "findings"
"$kafkalint" check --format json "$corpus" >"$out/findings.json" || true

elapsed=$((SECONDS - started))
python3 bench/table.py "$out" "$files" "$clusters" "$rss_json" "$rss_full" "$elapsed" \
    "$(nproc)" "$conftest_version" "$kafka_version" | tee "$out/table.md"
