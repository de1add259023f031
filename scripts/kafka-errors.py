#!/usr/bin/env python3
"""Writes src/live/client/kafka_errors.rs: Kafka's error codes with their names and standard messages,
read from the `Errors` enum of a Kafka source tree at a release tag
(clients/src/main/java/org/apache/kafka/common/protocol/Errors.java).

    git -C KAFKA show 3.8.0:clients/src/main/java/org/apache/kafka/common/protocol/Errors.java \
        | scripts/kafka-errors.py 3.8.0 > src/live/client/kafka_errors.rs

`kafkalint live` prints these messages instead of the text a server sends with a code (a
server's text is untrusted: it may echo what the client sent, a SASL/PLAIN password included).
"""

import re
import sys


def entries(java):
    body = java[java.index("public enum Errors {") :]
    body = body[: body.index(";\n")]
    # NAME(code, "text" + "text", Ctor::new) or NAME(code, null, ...), over one or more lines.
    for match in re.finditer(r"\n\s*([A-Z][A-Z0-9_]*)\(\s*(-?\d+)\s*,\s*(null|(?:\"(?:[^\"\\]|\\.)*\"\s*\+?\s*)+)", body):
        name, code, text = match.group(1), int(match.group(2)), match.group(3)
        if text == "null":
            message = None
        else:
            parts = re.findall(r"\"((?:[^\"\\]|\\.)*)\"", text)
            message = "".join(parts).encode().decode("unicode_escape")
        yield code, name, message


def rust_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
    tag = sys.argv[1]
    rows = sorted(entries(sys.stdin.read()))
    codes = [code for code, _, _ in rows]
    assert len(codes) == len(set(codes)), "a code twice"
    out = sys.stdout
    out.write(
        "//! Kafka's error codes, their names and standard messages: the `Errors` enum of\n"
        f"//! apache/kafka, clients/src/main/java/org/apache/kafka/common/protocol/Errors.java at tag\n"
        f"//! {tag}, written by scripts/kafka-errors.py (run it again for a newer release). Codes a later\n"
        "//! release added are shown by number.\n\n"
        "/// `(code, name, standard message)`, by code.\n"
        "#[rustfmt::skip]\n"
        "pub const ERRORS: &[(i16, &str, &str)] = &[\n"
    )
    for code, name, message in rows:
        if message is None:
            continue
        out.write(f"    ({code}, {rust_string(name)}, {rust_string(message)}),\n")
    out.write("];\n")


main()
