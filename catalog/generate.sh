#!/usr/bin/env bash
# Regenerates the Kafka broker config catalogue.
#
#   generate.sh [VERSION...]          dump each VERSION into data/kafka-<major.minor>.json, then
#                                     rebuild data/catalog.json from every data/kafka-*.json
#   generate.sh --check [VERSION...]  dump each VERSION into a temporary folder and compare it with
#                                     the file in data/; also compare data/catalog.json with a merge
#                                     of data/kafka-*.json. Exit 1 on any difference.
#
# VERSION is a Kafka release (3.9.2) or a minor line (3.9, meaning the release of that line listed
# in versions.txt). Without VERSION every release in versions.txt is used.
#
# The Java code is compiled once; each release then runs with its own classpath, which Maven
# resolves from the local repository (offline) and fetches from Maven Central only when missing.
# Maven options such as another local repository go in MAVEN_OPTS:
#   MAVEN_OPTS="-Dmaven.repo.local=$(mktemp -d)" generate.sh --check 4.4   (a cold run)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"

java_bin="${JAVA:-java}"
python_bin="${PYTHON:-python3}"

check=0
args=()
for arg in "$@"; do
    case "$arg" in
        --check) check=1 ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "generate.sh: unknown option $arg" >&2; exit 2 ;;
        *) args+=("$arg") ;;
    esac
done

listed=()
while IFS= read -r line; do
    line="${line%%#*}"
    line="${line//[[:space:]]/}"
    [ -n "$line" ] && listed+=("$line")
done < versions.txt

versions=()
if [ "${#args[@]}" -eq 0 ]; then
    versions=("${listed[@]}")
else
    for arg in "${args[@]}"; do
        if [[ "$arg" =~ ^[0-9]+\.[0-9]+$ ]]; then
            found=""
            for v in "${listed[@]}"; do
                [[ "$v" == "$arg".* ]] && found="$v"
            done
            [ -n "$found" ] || { echo "generate.sh: no release of $arg in versions.txt" >&2; exit 2; }
            versions+=("$found")
        elif [[ "$arg" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
            versions+=("$arg")
        else
            echo "generate.sh: not a Kafka version: $arg" >&2; exit 2
        fi
    done
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Runs Maven quietly, offline first; online only if the offline run fails (something not cached).
# mvn_try only reports success; mvn_run also shows Maven's log and fails the script.
mvn_try() {
    mvn -B -q -o "$@" >"$work/mvn-offline.log" 2>&1 || mvn -B -q "$@" >"$work/mvn.log" 2>&1
}
mvn_run() {
    if ! mvn_try "$@"; then
        cat "$work/mvn.log" >&2
        echo "generate.sh: mvn $* failed" >&2
        return 1
    fi
}

minor_of() { echo "$1" | cut -d. -f1,2; }

mvn_run compile

# dump VERSION OUTFILE
dump() {
    local version="$1" out="$2" cp
    local args=(dependency:build-classpath -Dkafka.version="$version"
        -Dmdep.includeScope=runtime -Dmdep.outputFile="$work/cp-$version.txt")
    local unresolved=()
    # connect-mirror is missing from Maven Central for some releases (see pom.xml): without it the
    # dump has no MirrorMaker 2 components, and says why.
    if ! mvn_try -Pmirror "${args[@]}"; then
        mvn_run "${args[@]}"
        unresolved=(--unresolved "org.apache.kafka:connect-mirror:$version")
    fi
    cp="$(cat "$work/cp-$version.txt")"
    if ! "$java_bin" -cp "target/classes:$cp" dev.kafkalint.catalog.DumpBrokerConfig \
            --expect-version "$version" ${unresolved[@]+"${unresolved[@]}"} --out "$out" 2>"$work/java.log"; then
        cat "$work/java.log" >&2
        echo "generate.sh: dumping Kafka $version failed" >&2
        return 1
    fi
    grep -v '^SLF4J' "$work/java.log" >&2 || true
}

status=0
if [ "$check" -eq 1 ]; then
    mkdir -p "$work/data"
    for version in "${versions[@]}"; do
        name="kafka-$(minor_of "$version").json"
        dump "$version" "$work/data/$name"
        if [ ! -f "data/$name" ]; then
            echo "generate.sh: data/$name does not exist" >&2
            status=1
        elif ! diff -u "data/$name" "$work/data/$name"; then
            echo "generate.sh: data/$name differs from a fresh dump of Kafka $version" >&2
            status=1
        fi
    done
    shopt -s nullglob
    dumps=(data/kafka-*.json)
    if [ "${#dumps[@]}" -gt 0 ]; then
        "$python_bin" merge.py --out "$work/catalog.json" "${dumps[@]}"
        if ! diff -u data/catalog.json "$work/catalog.json" >"$work/catalog.diff" 2>&1; then
            head -n 200 "$work/catalog.diff"
            echo "generate.sh: data/catalog.json differs from a merge of data/kafka-*.json" >&2
            status=1
        fi
    fi
    [ "$status" -eq 0 ] && echo "generate.sh: catalogue is up to date (${versions[*]})"
    exit "$status"
fi

mkdir -p data
for version in "${versions[@]}"; do
    name="kafka-$(minor_of "$version").json"
    dump "$version" "$work/$name"
    mv "$work/$name" "data/$name"
done
shopt -s nullglob
dumps=(data/kafka-*.json)
"$python_bin" merge.py --out "$work/catalog.json" "${dumps[@]}"
mv "$work/catalog.json" data/catalog.json
echo "generate.sh: wrote ${#versions[@]} dump(s) and data/catalog.json"
