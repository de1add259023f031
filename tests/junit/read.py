"""Reads a JUnit XML report with junitparser (PyPI) and prints what it holds as JSON:
per suite its name, counts and cases; per case its name, class, line and column, and its
results (kind, message, text). tests/formats.rs compares this with kafkalint's own JSON."""

import json
import sys

from junitparser import JUnitXml

xml = JUnitXml.fromfile(sys.argv[1])
suites = []
for suite in xml:
    cases = []
    for case in suite:
        cases.append(
            {
                "name": case.name,
                "classname": case.classname,
                "line": case._elem.get("line"),
                "column": case._elem.get("column"),
                "results": [
                    {"kind": type(result).__name__, "message": result.message, "text": result.text}
                    for result in case.result
                ],
            }
        )
    suites.append(
        {"name": suite.name, "tests": suite.tests, "failures": suite.failures, "cases": cases}
    )
print(json.dumps({"name": xml.name, "tests": xml.tests, "failures": xml.failures, "suites": suites}))
