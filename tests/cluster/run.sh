#!/usr/bin/env bash
# Proof on real Kafka: starts real 3-node clusters on 127.0.0.1, kills the broker that coordinates a
# consumer group, and checks that what happens is what kafkalint says about the same files.
#
#   tests/cluster/run.sh [kraft|zookeeper]...
#
# Without arguments: KRaft with Kafka 4.4.0 (scenarios A, B, C, D, S, P, Q, R, T, U, V), then ZooKeeper mode with
# Kafka 3.9.2 and a real ZooKeeper (A, B, D, R, U, V). Builds kafkalint (cargo build --release), compiles the Java
# harness and resolves each release's jars with Maven (offline first, Maven Central when something
# is missing). Run files, logs and data go to tests/cluster/target/run/, kept for debugging.
# Exits non-zero when a scenario fails. Every process it starts is killed when it ends.
# KRAFT_SCENARIOS=D,S or ZOOKEEPER_SCENARIOS=D runs only those scenarios of a mode.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
java_bin="${JAVA:-java}"
KRAFT_VERSION=4.4.0
ZOOKEEPER_VERSION=3.9.2

modes=("$@")
[ "${#modes[@]}" -gt 0 ] || modes=(kraft zookeeper)
for m in "${modes[@]}"; do
    case "$m" in kraft|zookeeper) ;; *) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;; esac
done
for tool in cargo mvn "$java_bin"; do
    command -v "$tool" >/dev/null 2>&1 || { echo "run.sh: $tool not found (Rust, a JDK 17+ and Maven are needed)" >&2; exit 1; }
done

start=$(date +%s)
cd "$repo"
cargo build --release --locked --quiet
kafkalint="$repo/target/release/kafkalint"

cd "$here"
mkdir -p target
logs="$here/target/mvn"
mkdir -p "$logs"
# Runs Maven quietly, offline first; online only if the offline run fails (something not cached).
mvn_run() {
    if mvn -B -q -o "$@" >"$logs/mvn-offline.log" 2>&1; then
        return 0
    fi
    if ! mvn -B -q "$@" >"$logs/mvn.log" 2>&1; then
        cat "$logs/mvn-offline.log" "$logs/mvn.log" >&2
        echo "run.sh: mvn $* failed" >&2
        return 1
    fi
}
stamp="target/classes/dev/kafkalint/cluster/ClusterProof.class"
if [ ! -f "$stamp" ] || [ -n "$(find src pom.xml -newer "$stamp" -print -quit)" ]; then
    mvn_run compile
    touch "$stamp"
fi
# The classpath of a release (broker, clients, ZooKeeper for 3.9, the logging binding its
# distribution ships), kept in target/ until the pom changes or a jar is gone.
classpath() {
    local version="$1" profile="$2" cached="target/classpath-$1.txt" fresh=0 jar
    if [ -f "$cached" ] && cmp -s pom.xml "$cached.pom"; then
        fresh=1
        IFS=: read -r -a jars <"$cached" || true
        for jar in "${jars[@]}"; do
            [ -f "$jar" ] || { fresh=0; break; }
        done
    fi
    if [ "$fresh" -eq 0 ]; then
        mvn_run dependency:build-classpath -Dkafka.version="$version" -P"$profile" \
            -Dmdep.includeScope=runtime -Dmdep.outputFile="$here/$cached.tmp"
        mv "$cached.tmp" "$cached"
        cp pom.xml "$cached.pom"
    fi
    printf '%s:%s' "$here/target/classes" "$(cat "$cached")" >"$cached.run"
}

work="$here/target/run"
rm -rf "$work"
mkdir -p "$work/pids"
harness=""
# Kills what is still running: the harness (whose shutdown hook kills its children), then every
# child whose pid file is left (the harness writes one per process it starts, removes it at exit).
cleanup() {
    if [ -n "$harness" ] && kill -0 "$harness" 2>/dev/null; then
        kill "$harness" 2>/dev/null || true
        for _ in $(seq 1 50); do kill -0 "$harness" 2>/dev/null || break; sleep 0.2; done
        kill -9 "$harness" 2>/dev/null || true
    fi
    local f pid
    for f in "$work"/pids/*.pid; do
        [ -f "$f" ] || continue
        pid="$(cat "$f")"
        kill -9 "$pid" 2>/dev/null || true
        rm -f "$f"
    done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

status=0
for mode in "${modes[@]}"; do
    if [ "$mode" = kraft ]; then
        version=$KRAFT_VERSION profile=kafka4 scenarios=${KRAFT_SCENARIOS:-A,B,C,D,S,P,Q,R,T,U,V}
    else
        version=$ZOOKEEPER_VERSION profile=kafka3 scenarios=${ZOOKEEPER_SCENARIOS:-A,B,D,R,U,V}
    fi
    classpath "$version" "$profile"
    mkdir -p "$work/$mode"
    # The harness's own clients log to a file, like the nodes; 25 minutes at most per mode.
    if [ "$profile" = kafka3 ]; then
        printf '%s\n' 'log4j.rootLogger=INFO, file' 'log4j.appender.file=org.apache.log4j.FileAppender' \
            "log4j.appender.file.File=$work/$mode/clients.log" 'log4j.appender.file.layout=org.apache.log4j.PatternLayout' \
            'log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n' >"$work/$mode/clients-log4j.properties"
        logging="-Dlog4j.configuration=file:$work/$mode/clients-log4j.properties"
    else
        printf '%s\n' 'status = error' 'appender.file.type = File' 'appender.file.name = file' \
            "appender.file.fileName = $work/$mode/clients.log" 'appender.file.layout.type = PatternLayout' \
            'appender.file.layout.pattern = [%d] %p %m (%c)%n' 'rootLogger.level = info' \
            'rootLogger.appenderRef.file.ref = file' >"$work/$mode/clients-log4j2.properties"
        logging="-Dlog4j2.configurationFile=$work/$mode/clients-log4j2.properties"
    fi
    timeout --signal=TERM --kill-after=20 1500 "$java_bin" -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
        "$logging" -cp "$(cat "target/classpath-$version.txt.run")" dev.kafkalint.cluster.ClusterProof \
        --mode "$mode" --kafka-version "$version" --classpath "target/classpath-$version.txt.run" \
        --kafkalint "$kafkalint" --work "$work" --scenarios "$scenarios" &
    harness=$!
    if ! wait "$harness"; then
        status=1
    fi
    harness=""
done
echo
echo "proof on real Kafka: $( [ "$status" -eq 0 ] && echo passed || echo FAILED ) in $(( $(date +%s) - start )) s (logs: tests/cluster/target/run/)"
exit "$status"
