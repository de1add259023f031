#!/usr/bin/env bash
# Asks every release in versions.txt for Kafka's own verdict on the topic configs of
# topic-cases.txt (TopicVerdicts.java calls the release's LogConfig.validate) and writes
# data/topic-verdicts.tsv: release, case id, OK or REFUSED with Kafka's message. kafkalint's
# tests (src/catalog/topic/tests.rs) judge the same cases and must agree on every one.
#
#   topic-verdicts.sh           rewrite data/topic-verdicts.tsv
#   topic-verdicts.sh --check   compare a fresh run with it; exit 1 on any difference
#
# Needs what generate.sh needs (a JDK, Maven, the jars in Maven's local repository or Maven
# Central); MAVEN_OPTS is passed on as there.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
java_bin="${JAVA:-java}"
check=0
[ "${1:-}" = "--check" ] && check=1

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

mvn_quiet() {
    mvn -B -q -o "$@" </dev/null >"$work/mvn.log" 2>&1 || mvn -B -q "$@" </dev/null >"$work/mvn.log" 2>&1 || {
        cat "$work/mvn.log" >&2
        echo "topic-verdicts.sh: mvn $* failed" >&2
        exit 1
    }
}

mvn_quiet compile
out="$work/topic-verdicts.tsv"
: >"$out"
while IFS= read -r line; do
    version="${line%%#*}"
    version="${version//[[:space:]]/}"
    [ -n "$version" ] || continue
    mvn_quiet dependency:build-classpath -Dkafka.version="$version" -Dmdep.includeScope=runtime \
        -Dmdep.outputFile="$work/cp.txt"
    minor="$(echo "$version" | cut -d. -f1,2)"
    "$java_bin" -cp "target/classes:$(cat "$work/cp.txt")" dev.kafkalint.catalog.TopicVerdicts \
        <topic-cases.txt 2>"$work/java.log" | sed "s/^/$minor\t/" >>"$out" || {
        cat "$work/java.log" >&2
        echo "topic-verdicts.sh: Kafka $version failed" >&2
        exit 1
    }
done <versions.txt

if [ "$check" -eq 1 ]; then
    if ! diff -u data/topic-verdicts.tsv "$out"; then
        echo "topic-verdicts.sh: data/topic-verdicts.tsv differs from Kafka's verdicts" >&2
        exit 1
    fi
    echo "topic-verdicts.sh: verdicts are up to date"
else
    mv "$out" data/topic-verdicts.tsv
    echo "topic-verdicts.sh: wrote data/topic-verdicts.tsv"
fi
