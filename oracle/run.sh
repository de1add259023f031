#!/usr/bin/env bash
# Asks one Kafka release whether it would refuse each broker config file of a list at start-up.
#
#   run.sh VERSION LISTFILE
#   run.sh --docker-wrapper VERSION ENVFILE
#
# VERSION is a Kafka release (3.9.2, 4.4.0). LISTFILE holds one path a line. Standard output gets
# one JSON line per file, in list order: {"file":...,"accepted":true} or
# {"file":...,"accepted":false,"stage":"config|startup","exception":"<class>","message":"<message>"}. Nothing else is
# written to standard output; Maven's and the JVM's chatter go to standard error.
# With --docker-wrapper, the release's KafkaDockerWrapper (the apache/kafka image's setup) writes
# the server.properties of each environment of ENVFILE instead (format: DockerWrapperOracle.java).
#
# The Java code is compiled once, against the JDK alone; the release's runtime classpath is
# resolved by Maven from the local repository (offline) and fetched from Maven Central only when
# something is missing; then one JVM judges every file of the list.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
java_bin="${JAVA:-java}"

main=KafkaConfigOracle
if [ "${1-}" = "--docker-wrapper" ]; then
    main=DockerWrapperOracle
    shift
fi
if [ "$#" -ne 2 ]; then
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
version="$1"
list="$2"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "run.sh: not a Kafka release: $version" >&2; exit 2; }
[ -f "$list" ] || { echo "run.sh: no such list file: $list" >&2; exit 2; }
list="$(cd "$(dirname "$list")" && pwd)/$(basename "$list")"
for tool in mvn "$java_bin"; do
    command -v "$tool" >/dev/null 2>&1 || { echo "run.sh: $tool not found (a JDK 17+ and Maven are needed)" >&2; exit 1; }
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Runs Maven quietly, offline first; online only if the offline run fails (something not cached).
mvn_run() {
    if mvn -B -q -o "$@" >"$work/mvn-offline.log" 2>&1; then
        return 0
    fi
    if ! mvn -B -q "$@" >"$work/mvn.log" 2>&1; then
        cat "$work/mvn-offline.log" "$work/mvn.log" >&2
        echo "run.sh: mvn $* failed" >&2
        return 1
    fi
}

cd "$here"
# Two runs at once (one per release, from parallel tests) would write target/ together.
mkdir -p target
exec 9>"target/.run.lock"
if command -v flock >/dev/null 2>&1; then
    flock 9
fi
# Maven takes seconds even when it has nothing to do, so its two answers are kept in target/ and
# asked again only when they may be stale: the classes when a source or the pom is newer, the
# classpath when the pom changed or one of its jars is gone from the local repository.
stamp="target/classes/dev/kafkalint/oracle/KafkaConfigOracle.class"
if [ ! -f "$stamp" ] || [ -n "$(find src pom.xml -newer "$stamp" -print -quit)" ]; then
    mvn_run compile
    touch "$stamp"  # Maven leaves an up-to-date class file as it was
fi
cached="target/classpath-$version.txt"
fresh=0
if [ -f "$cached" ] && cmp -s pom.xml "$cached.pom"; then
    fresh=1
    IFS=: read -r -a jars <"$cached" || true  # the file has no final newline
    for jar in "${jars[@]}"; do
        [ -f "$jar" ] || { fresh=0; break; }
    done
fi
if [ "$fresh" -eq 0 ]; then
    mvn_run dependency:build-classpath -Dkafka.version="$version" \
        -Dmdep.includeScope=runtime -Dmdep.outputFile="$work/classpath.txt"
    cp "$work/classpath.txt" "$cached"
    cp pom.xml "$cached.pom"
fi
cp "$cached" "$work/classpath.txt"
cp -R target/classes "$work/classes"
flock -u 9 2>/dev/null || true

# One short-lived JVM on a small machine: the C1 compiler alone and the serial collector leave
# the cores to the work.
if ! "$java_bin" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto \
        -cp "$work/classes:$(cat "$work/classpath.txt")" \
        "dev.kafkalint.oracle.$main" $([ "$main" = KafkaConfigOracle ] && echo --expect-version "$version") "$list" \
        2>"$work/java.log"; then
    cat "$work/java.log" >&2
    echo "run.sh: running $main with Kafka $version failed" >&2
    exit 1
fi
# slf4j says once that it has no binding (so Kafka logs nothing); that line is no news.
grep -v '^SLF4J' "$work/java.log" >&2 || true
