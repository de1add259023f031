#!/usr/bin/env python3
"""Merge the per-release dumps (kafka-<major.minor>.json) into one catalogue.

Usage: merge.py --out FILE DUMP...

For every config name the catalogue records the minor lines it exists in and, for each attribute
(type, default, required, importance, internal, validator, dynamic_update_mode, deprecated,
doc_mentions), either the one value it has in all of them (`"type": "INT"`) or, when it differs
between releases, its value per minor line (`"type_by_version": {"3.9": "SHORT", "4.0": "INT"}`).

The other sections of the dumps (the keys of other components, the prefix families, the topic
config synonyms and the ZooKeeper system properties) are merged the same way, per name. The output
is deterministic: keys sorted, one line per name.
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
    "deprecated",
    "doc_mentions",
)

# Sections of catalog.json whose values are objects of objects: rendered one line per inner name.
NESTED = ("abstract_implementations", "classes", "implementations", "other_components", "other_components_defaults", "other_components_validators")


def version_key(version):
    return tuple(int(part) for part in version.split("."))


def minor_of(version):
    major, minor = version.split(".")[:2]
    return f"{major}.{minor}"


def merge_entries(per_version, attributes=ATTRIBUTES):
    """per_version: list of (minor, entry) in release order."""
    merged = {"versions": [minor for minor, _ in per_version]}
    for attribute in attributes:
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
                "unresolved_artifacts": d.get("unresolved_artifacts", []),
                "class_artifacts": d.get("class_artifacts", []),
                "class_count": sum(len(names) for names in d.get("classes", {}).values()),
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

    # Other components: component -> key -> versions and type.
    components = {}
    for d in dumps:
        minor = minor_of(d["kafka_version"])
        for component, keys in d.get("other_components", {}).items():
            for key, key_type in keys.items():
                components.setdefault(component, {}).setdefault(key, []).append((minor, {"type": key_type}))
    catalogue["other_components"] = {
        component: {key: merge_entries(entries, ("type",)) for key, entries in keys.items()}
        for component, keys in components.items()
    }
    # Their defaults, for the components that create topics of their own: component -> key ->
    # versions and default.
    defaults = {}
    for d in dumps:
        minor = minor_of(d["kafka_version"])
        for component, keys in d.get("other_components_defaults", {}).items():
            for key, default in keys.items():
                defaults.setdefault(component, {}).setdefault(key, []).append((minor, {"default": default}))
    catalogue["other_components_defaults"] = {
        component: {key: merge_entries(entries, ("default",)) for key, entries in keys.items()}
        for component, keys in defaults.items()
    }
    # Their validators, for the same components: component -> key -> versions and validator.
    validators = {}
    for d in dumps:
        minor = minor_of(d["kafka_version"])
        for component, keys in d.get("other_components_validators", {}).items():
            for key, validator in keys.items():
                validators.setdefault(component, {}).setdefault(key, []).append((minor, {"validator": validator}))
    catalogue["other_components_validators"] = {
        component: {key: merge_entries(entries, ("validator",)) for key, entries in keys.items()}
        for component, keys in validators.items()
    }
    catalogue["other_components_source"] = merge_named(
        dumps, lambda d: {c: {"source": s} for c, s in d.get("other_components_source", {}).items()})

    catalogue["prefix_families"] = merge_named(
        dumps, lambda d: {f["id"]: {k: v for k, v in f.items() if k != "id"} for f in d.get("prefix_families", [])})

    def synonyms(d):
        out = {k: {"broker_config": v} for k, v in d.get("topic_config_synonyms", {}).items()}
        for k, v in d.get("topic_config_synonyms_all", {}).items():
            out.setdefault(k, {})["broker_configs"] = v
        return out

    catalogue["topic_config_synonyms"] = merge_named(dumps, synonyms)
    catalogue["classes"] = merge_classes(dumps, minors)
    catalogue["implementations"] = merge_implementations(dumps, minors, "concrete")
    catalogue["abstract_implementations"] = merge_implementations(dumps, minors, "abstract")
    catalogue["zookeeper_system_properties"] = merge_named(
        dumps, lambda d: {k: {"system_property": v} for k, v in d.get("zookeeper_system_properties", {}).items()})
    return catalogue


def merge_classes(dumps, minors):
    """package -> simple name -> the minor lines that have the class, as runs: "2.8-3.9,4.1".

    Thousands of classes per release: a run of releases is a few bytes where a list of them
    would be a hundred."""
    by_class = {}
    for d in dumps:
        minor = minor_of(d["kafka_version"])
        for package, names in d.get("classes", {}).items():
            for name in names:
                by_class.setdefault(package, {}).setdefault(name, set()).add(minor)
    return {
        package: {name: release_runs(present, minors) for name, present in names.items()}
        for package, names in by_class.items()
    }


def merge_implementations(dumps, minors, kind):
    """required type -> class (full name) -> the minor lines where the class is a `kind`
    ("concrete" or "abstract") implementation of the type, as runs."""
    by_type = {}
    for d in dumps:
        minor = minor_of(d["kafka_version"])
        for required, kinds in d.get("implementations", {}).items():
            names = by_type.setdefault(required, {})
            for name in kinds[kind]:
                names.setdefault(name, set()).add(minor)
    return {
        required: {name: release_runs(present, minors) for name, present in names.items()}
        for required, names in by_type.items()
    }


def release_runs(present, minors):
    """The minor lines of `present` as runs of consecutive lines of `minors`: "2.8-3.9,4.1"."""
    runs = []
    start = None
    for minor in minors + [None]:
        if minor in present:
            start = minor if start is None else start
            last = minor
        elif start is not None:
            runs.append(start if start == last else f"{start}-{last}")
            start = None
    return ",".join(runs)


def merge_named(dumps, entries_of):
    """Merges, per name, the entries that entries_of(dump) returns as {name: {attribute: value}}."""
    by_name = {}
    for d in dumps:
        minor = minor_of(d["kafka_version"])
        for name, entry in entries_of(d).items():
            by_name.setdefault(name, []).append((minor, entry))
    merged = {}
    for name, entries in by_name.items():
        attributes = sorted({a for _, entry in entries for a in entry})
        merged[name] = merge_entries(entries, attributes)
    return merged


def render(catalogue):
    """Pretty at the top, one line per name below each section (below each component in NESTED)."""

    def one_line(value):
        return json.dumps(value, sort_keys=True, separators=(", ", ": "))

    def object_lines(value, indent, inner):
        """The lines of an object whose values are each one line, or (inner) objects of such."""
        lines = []
        names = sorted(value)
        for j, name in enumerate(names):
            sep = "," if j + 1 < len(names) else ""
            if inner:
                lines.append(f"{indent}{json.dumps(name)}: {{")
                lines.extend(object_lines(value[name], indent + "  ", False))
                lines.append(f"{indent}}}{sep}")
            else:
                lines.append(f"{indent}{json.dumps(name)}: {one_line(value[name])}{sep}")
        return lines

    lines = ["{"]
    sections = sorted(catalogue)
    for i, section in enumerate(sections):
        value = catalogue[section]
        tail = "," if i + 1 < len(sections) else ""
        if isinstance(value, dict):
            lines.append(f"  {json.dumps(section)}: {{")
            lines.extend(object_lines(value, "    ", section in NESTED))
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
