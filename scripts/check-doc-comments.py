#!/usr/bin/env python3
"""Fails, listing each one with its file and line, when a public symbol of the library targets
has no doc comment.

Reads the symbol graphs `swift package dump-symbol-graph --minimum-access-level public` writes
(the compiler's own view of the public API: every type, property, method, case, initialiser
and associated type, with its doc comment and where it is declared). DocC builds the same API
but only counts what is undocumented; this names each symbol so it can be fixed.

    scripts/check-doc-comments.py SYMBOL_GRAPH_DIR MODULE...
"""
import glob
import json
import os
import sys
from urllib.parse import unquote, urlparse

# Extension blocks are containers DocC never shows a comment for; the symbols inside count.
SKIPPED_KINDS = {"swift.extension"}


def undocumented(directory, modules, root):
    found = []
    seen = set()
    for path in sorted(glob.glob(os.path.join(directory, "**", "*.symbols.json"), recursive=True)):
        name = os.path.basename(path)[: -len(".symbols.json")]
        # `FlowSite.symbols.json` and `FlowSite@Swift.symbols.json` (its extensions of others).
        if name.split("@")[0] not in modules:
            continue
        with open(path, encoding="utf-8") as file:
            graph = json.load(file)
        for symbol in graph.get("symbols", []):
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            if symbol["kind"]["identifier"] in SKIPPED_KINDS:
                continue
            location = symbol.get("location")
            if location is None:
                continue  # synthesized by the compiler (memberwise conformances): nothing to write on
            key = symbol["identifier"]["precise"]
            if key in seen:
                continue
            seen.add(key)
            lines = (symbol.get("docComment") or {}).get("lines", [])
            if any(line.get("text", "").strip() for line in lines):
                continue
            file_path = unquote(urlparse(location["uri"]).path)
            line = location["position"]["line"] + 1
            kind = symbol["kind"]["displayName"].lower()
            title = name.split("@")[0] + "." + ".".join(symbol["pathComponents"])
            found.append((os.path.relpath(file_path, root), line, kind, title))
    return sorted(found)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    directory, modules = sys.argv[1], set(sys.argv[2:])
    root = os.getcwd()
    graphs = glob.glob(os.path.join(directory, "**", "*.symbols.json"), recursive=True)
    missing = modules - {os.path.basename(g).split("@")[0].split(".")[0] for g in graphs}
    if missing:
        sys.exit(f"error: no symbol graph for {', '.join(sorted(missing))} in {directory}")
    found = undocumented(directory, modules, root)
    for path, line, kind, title in found:
        print(f"{path}:{line}: error: public {kind} {title} has no doc comment (///)")
    if found:
        print(f"{len(found)} public symbol(s) of {', '.join(sorted(modules))} without a doc comment: "
              "give each a /// sentence that says what it is and why.", file=sys.stderr)
        sys.exit(1)
    print(f"Every public symbol of {', '.join(sorted(modules))} has a doc comment.")


if __name__ == "__main__":
    main()
