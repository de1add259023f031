#!/usr/bin/env python3
"""Prints bench/run.sh's markdown table from the hyperfine exports it left in OUT.

    bench/table.py OUT FILES CLUSTERS RSS_JSON_KB RSS_FULL_KB ELAPSED_S CORES CONFTEST KAFKA

Every time is the median of its runs; CPU is hyperfine's mean user + system time. Each target is
printed PASS or MISS; this script never fails on a miss.
"""

import json
import os
import re
import sys


def hyperfine(out, name):
    path = os.path.join(out, f"hyperfine-{name}.json")
    if not os.path.exists(path):
        return None
    result = json.load(open(path))["results"][0]
    return {
        "median": result["median"],
        "cpu": result["user"] + result["system"],
        "runs": len(result["times"]),
    }


def seconds(value):
    if value < 1e-3:
        return f"{value * 1e6:.0f} µs"
    if value < 1:
        return f"{value * 1e3:.1f} ms"
    return f"{value:.2f} s"


def verdict(passed):
    return "PASS" if passed else "MISS"


def main():
    out, files, clusters, rss_json, rss_full, elapsed, cores, conftest_version, kafka = sys.argv[1:10]
    summary = json.load(open(os.path.join(out, "findings.json")))["summary"]
    findings = f"{summary['errors']:,} errors, {summary['warnings']:,} warnings, {summary['infos']:,} infos"
    files, clusters, elapsed = int(files), int(clusters), int(elapsed)
    n = f"{files:,}"
    one = hyperfine(out, "kafkalint-1-file")
    json_run = hyperfine(out, "kafkalint-json")
    full = hyperfine(out, "kafkalint-full")
    cat = hyperfine(out, "cat")
    conftest = hyperfine(out, "conftest")
    jvm = hyperfine(out, "jvm-process")
    warm_text = open(os.path.join(out, "jvm-warm.txt")).read()
    warm_pass = float(re.search(r"median_pass_ms=([0-9.]+)", warm_text).group(1)) / 1e3
    warm_runs = int(re.search(r"runs=(\d+)", warm_text).group(1))
    refused = int(re.search(r"refused=(\d+)", warm_text).group(1))

    rows = []

    def row(what, result, ratio, target, passed):
        rows.append(
            f"| {what} | {seconds(result['median'])} | {seconds(result['cpu'])} | {result['runs']} "
            f"| {ratio} | {target} | {verdict(passed) if passed is not None else ''} |"
        )

    row("kafkalint, 1 file (whole process)", one, "", "≤ 2 ms", one["median"] <= 2e-3)
    for label, result, most in (("json", json_run, 2.0), ("full", full, 2.5)):
        ratio = result["median"] / cat["median"]
        row(f"kafkalint, {n} files, `--format {label}`", result, f"{ratio:.1f}× cat", f"≤ {most:g}× cat",
            ratio <= most)
    row(f"`cat` of the {n} files (I/O floor)", cat, "1×", "", None)
    if conftest:
        ratio = conftest["median"] / json_run["median"]
        row(f"conftest {conftest_version}, {n} files (`--combine`)", conftest,
            f"{ratio:.1f}× kafkalint json", "kafkalint ≥ 100× faster", ratio >= 100)
    ratio = jvm["median"] / json_run["median"]
    row(f"Kafka {kafka} `KafkaConfig`, {n} files, one JVM (whole process)", jvm,
        f"{ratio:.1f}× kafkalint json", "kafkalint ≥ 100× faster", ratio >= 100)
    ratio = warm_pass / json_run["median"]
    rows.append(
        f"| Kafka {kafka} `KafkaConfig`, {n} files, warm JVM (one pass after 3) | {seconds(warm_pass)} "
        f"({seconds(warm_pass / files)} a file) | | {warm_runs} | {ratio:.1f}× kafkalint json "
        f"| kafkalint ≥ 100× faster | {verdict(ratio >= 100)} |"
    )
    for label, kb in (("json", rss_json), ("full", rss_full)):
        mb = int(kb) / 1024
        rows.append(f"| kafkalint peak RSS, {n} files, `--format {label}` | {mb:.1f} MB | | 1 | | ≤ 32 MB | {verdict(mb <= 32)} |")

    print(f"{n} files in {clusters:,} clusters (bench/corpus.py, seed 7); {cores} cores; `bench/run.sh`, "
          f"{elapsed // 60} min {elapsed % 60} s in all.")
    print(f"kafkalint found {findings}; Kafka {kafka} refused {refused} of the files.")
    print()
    print("| Run | Median | CPU (user+sys) | Runs | Ratio | Target | |")
    print("| --- | ---: | ---: | ---: | --- | --- | --- |")
    print("\n".join(rows))
    scaling(out)


def scaling(out):
    """The table of `--format json` over corpora of growing size (run.sh's scaling step), when run."""
    path = os.path.join(out, "scaling.tsv")
    if not os.path.exists(path):
        return
    lines = [line.split("\t") for line in open(path).read().splitlines() if line]
    if not lines:
        return
    print()
    print("Growth (`--format json`, one run each after one warm-up; time and peak RSS per file should stay flat):")
    print()
    print("| Files | kafkalint | per file | `cat` | Ratio | Peak RSS |")
    print("| ---: | ---: | ---: | ---: | --- | ---: |")
    for files, seconds_json, seconds_cat, rss_kb in lines:
        files, seconds_json, seconds_cat = int(files), float(seconds_json), float(seconds_cat)
        print(f"| {files:,} | {seconds(seconds_json)} | {seconds(seconds_json / files)} | {seconds(seconds_cat)} "
              f"| {seconds_json / seconds_cat:.1f}× cat | {int(rss_kb) / 1024:.1f} MB |")


if __name__ == "__main__":
    main()
