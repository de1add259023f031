#!/usr/bin/env python3
"""Merge the per-release dumps (kafka-<major.minor>.json) into one catalogue.

Usage: merge.py --out FILE DUMP...

For every config name the catalogue records the minor lines it exists in and, for each attribute
(type, default, required, importance, internal, validator, dynamic_update_mode), either the one
value it has in all of them (`"type": "INT"`) or, when it differs between releases, its value per
minor line (`"type_by_version": {"3.9": "SHORT", "4.0": "INT"}`). The output is deterministic:
keys sorted, one line per config name.
"""

import argparse
import json
import sys

ATTRIBUTES = (
    "type",
    "default",
    "required",
    "importance",
    "internal",
    "validator",
    "dynamic_update_mode",
)


def version_key(version):
    return tuple(int(part) for part in version.split("."))


def minor_of(version):
    major, minor = version.split(".")[:2]
    return f"{major}.{minor}"


def merge_entries(per_version):
    """per_version: list of (minor, entry) in release order."""
    merged = {"versions": [minor for minor, _ in per_version]}
    for attribute in ATTRIBUTES:
        values = {minor: entry[attribute] for minor, entry in per_version if attribute in entry}
        if not values:
            continue
        distinct = {json.dumps(v, sort_keys=True) for v in values.values()}
        if len(values) == len(per_version) and len(distinct) == 1:
            merged[attribute] = next(iter(values.values()))
        else:
            merged[attribute + "_by_version"] = values
    return merged


def merge(dumps):
    dumps = sorted(dumps, key=lambda d: version_key(d["kafka_version"]))
    minors = [minor_of(d["kafka_version"]) for d in dumps]
    if len(set(minors)) != len(minors):
        sys.exit("merge.py: two dumps of the same minor line: " + ", ".join(minors))

    catalogue = {
        "versions": [
            {
                "minor": minor_of(d["kafka_version"]),
                "kafka_version": d["kafka_version"],
                "config_def_source": d["config_def_source"],
                "dynamic_update_mode_source": d.get("dynamic_update_mode_source"),
                "config_count": len(d["configs"]),
            }
            for d in dumps
        ]
    }
    for section in ("configs", "dynamic_only_configs"):
        by_name = {}
        for d in dumps:
            minor = minor_of(d["kafka_version"])
            for entry in d.get(section, []):
                by_name.setdefault(entry["name"], []).append((minor, entry))
        catalogue[section] = {name: merge_entries(entries) for name, entries in by_name.items()}
    return catalogue


def render(catalogue):
    """Pretty at the top, one line per config name below `configs` and `dynamic_only_configs`."""

    def one_line(value):
        return json.dumps(value, sort_keys=True, separators=(", ", ": "))

    lines = ["{"]
    sections = sorted(catalogue)
    for i, section in enumerate(sections):
        value = catalogue[section]
        tail = "," if i + 1 < len(sections) else ""
        if isinstance(value, dict):
            lines.append(f"  {json.dumps(section)}: {{")
            names = sorted(value)
            for j, name in enumerate(names):
                sep = "," if j + 1 < len(names) else ""
                lines.append(f"    {json.dumps(name)}: {one_line(value[name])}{sep}")
            lines.append("  }" + tail)
        else:
            lines.append(f"  {json.dumps(section)}: [")
            for j, item in enumerate(value):
                sep = "," if j + 1 < len(value) else ""
                lines.append(f"    {one_line(item)}{sep}")
            lines.append("  ]" + tail)
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("dumps", nargs="+")
    args = parser.parse_args()
    dumps = []
    for path in args.dumps:
        with open(path, encoding="utf-8") as f:
            dumps.append(json.load(f))
    text = render(merge(dumps))
    json.loads(text)  # the hand-made layout must still be JSON
    with open(args.out, "w", encoding="ascii", newline="\n") as f:
        f.write(text)


if __name__ == "__main__":
    main()
