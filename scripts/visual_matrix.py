#!/usr/bin/env python3
"""The visual matrix: one screenshot of every screen kind in every language, colour scheme and
device, in a static report that compares them with an earlier run.

    scripts/visual_matrix.py [run] SITE (--holocron BIN [--data DIR] | --graph FILE.json)
                             [--languages en,es] [--output DIR] [--previous DIR]
                             [--pixel-tolerance N] [--max-changed-share PERCENT]
    scripts/visual_matrix.py capture SITE (--holocron BIN | --graph FILE.json) [--output DIR] ...
    scripts/visual_matrix.py report [--output DIR] [--previous DIR] [thresholds]

`run` (the default) captures and then reports. `capture` only writes the PNGs and matrix.json
(needs Chromium, chromium-driver and Selenium); `report` builds index.html and, with --previous,
comparison.json from PNGs already in OUTPUT (needs only Pillow).

Screen kinds and their example pages come from `holocron graph --level screens --format json`;
the 404 page and the flow map are added when the site has them. A multilingual site has one tree
per language (SITE/en/..., SITE/es/...); a single-language site has its pages at the root and
its language is read from <html lang> of SITE/index.html. Each cell is
OUTPUT/<kind-slug>-<language>-<scheme>-<device>.png, a name made only from its axes so that two
runs can be compared cell by cell.

Exit status: 0 when nothing changed (or nothing was compared), 1 when a cell changed, was added
or was removed, 2 on a usage error (a missing file or folder, a bad option), 3 when the browser
failed.
"""
from __future__ import annotations

import argparse
import base64
import dataclasses
import functools
import html
import json
import pathlib
import re
import shutil
import subprocess
import sys
import unicodedata
from html.parser import HTMLParser
from urllib.parse import quote

DEFAULT_OUTPUT = ".build/visual-matrix"
DEFAULT_PIXEL_TOLERANCE = 8
DEFAULT_MAX_CHANGED_SHARE = 0.0
MAX_HEIGHT = 6000
SCHEMES = ("light", "dark")
LANGUAGE_FOLDER = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$")
MATRIX_FORMAT = "holocron-visual-matrix"
HIGHLIGHT = (255, 0, 255)

PIXEL_TOLERANCE_HELP = (
    "how far one pixel's colour may move before that pixel counts as changed: the largest "
    "difference in any of its red, green, blue or alpha values, 0-255 (default %(default)s). "
    "It forgives anti-aliasing noise; it says nothing about how many pixels may change.")
MAX_CHANGED_SHARE_HELP = (
    "the share of a cell's pixels, in percent, that may count as changed before the cell counts "
    "as changed (default %(default)s: any changed pixel). It forgives a few changed pixels; it "
    "says nothing about how far each one moved.")
THRESHOLDS_EPILOG = """\
Two thresholds, kept apart on purpose:
  --pixel-tolerance    decides whether one PIXEL changed (its colour moved more than N of 255).
  --max-changed-share  decides whether the whole CELL changed (more than P % of its pixels did).
A cell whose every pixel moved a little is unchanged under a tolerance above that little; a cell
with one pixel gone from black to white is changed unless --max-changed-share forgives it.
Images of different sizes are compared on the larger canvas; the padding counts as changed."""
EXIT_EPILOG = """\n
Exit status: 0 nothing changed (or not compared), 1 a cell changed, was added or removed,
2 usage error, 3 the browser failed."""


class UsageError(Exception):
    """A problem the person running the tool can fix: names the file and what to do (exit 2)."""


class BrowserError(Exception):
    """Chromium or its driver failed while capturing (exit 3)."""


@dataclasses.dataclass(frozen=True)
class Device:
    """A viewport: phones get mobile emulation so the page's viewport meta and touch media apply."""
    name: str
    width: int
    height: int
    mobile: bool


DEVICES = (Device("phone", 390, 844, True), Device("desktop", 1280, 900, False))


@dataclasses.dataclass(frozen=True)
class Kind:
    """A screen kind and the page that stands for it (its site path, e.g. /characters/luke/)."""
    slug: str
    name: str
    path: str


@dataclasses.dataclass(frozen=True)
class Language:
    """A language and the folder under SITE that holds its tree ("" for a single-language site)."""
    code: str
    folder: str


@dataclasses.dataclass(frozen=True)
class Cell:
    """One screenshot: a kind's page in one language, scheme and device."""
    kind: str
    kind_slug: str
    language: str
    scheme: str
    device: str
    page_path: str
    page_file: str

    @property
    def file(self) -> str:
        return cell_file_name(self.kind_slug, self.language, self.scheme, self.device)

    def to_json(self) -> dict:
        return {"kind": self.kind, "kind-slug": self.kind_slug, "language": self.language,
                "scheme": self.scheme, "device": self.device, "file": self.file,
                "page-path": self.page_path, "page-file": self.page_file}


# Names ---------------------------------------------------------------------------------------

def slugify(text: str) -> str:
    """Lowercase ASCII words joined by hyphens, so a kind's file name is the same on every
    machine and file system whatever its name holds: accents fold to their letter, other
    non-ASCII letters drop out, and punctuation, symbols and spaces separate words."""
    folded = []
    for character in unicodedata.normalize("NFKD", text):
        if character.isascii():
            folded.append(character)
        elif not unicodedata.category(character).startswith(("L", "M")):
            folded.append("-")
    return re.sub(r"[^a-z0-9]+", "-", "".join(folded).lower()).strip("-") or "kind"


def cell_file_name(kind_slug: str, language: str, scheme: str, device: str) -> str:
    """The cell's PNG name, made only from its axes: the key two runs are compared by."""
    return f"{kind_slug}-{language}-{scheme}-{device}.png"


def page_file(path: str) -> str:
    """The file under a language tree that serves a site path: / is index.html, a folder's path
    is its index.html, a path ending in .html is itself."""
    relative = path.strip().lstrip("/")
    if ".." in relative.split("/"):
        raise UsageError(f"page path {path!r} leaves the site: the graph must list site paths")
    if relative == "" or relative.endswith("/"):
        return relative + "index.html"
    if relative.endswith(".html"):
        return relative
    return relative + "/index.html"


# The screen kinds ------------------------------------------------------------------------------

def read_graph(graph: str | None, holocron: str | None, data: str | None) -> dict:
    """The kind-level graph, from a file or by running holocron: the app knows its screen kinds
    and an example page of each better than any list kept here."""
    if graph:
        source = pathlib.Path(graph)
        if not source.is_file():
            raise UsageError(f"{source} not found: write it with "
                             "`holocron graph --level screens --format json -o FILE.json`")
        text, origin = source.read_text(encoding="utf-8"), str(source)
    elif holocron:
        text, origin = run_holocron_graph(holocron, data), f"{holocron} graph"
    else:
        raise UsageError("no screen kinds: pass --holocron .build/shared/release/holocron (make release "
                         "builds it) or --graph FILE.json")
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise UsageError(f"{origin}: not JSON ({error}); it must be "
                         "`holocron graph --level screens --format json`") from None
    if not isinstance(document, dict) or not isinstance(document.get("kinds"), list) or not document["kinds"]:
        raise UsageError(f"{origin}: no \"kinds\" list; it must be the screen-level graph "
                         "(`holocron graph --level screens --format json`)")
    return document


def run_holocron_graph(holocron: str, data: str | None) -> str:
    """Runs `holocron graph --level screens --format json` and returns what it printed."""
    binary = pathlib.Path(holocron)
    if not binary.is_file():
        raise UsageError(f"{binary} not found: build it with `make release`, or pass --graph FILE.json")
    command = [str(binary), "graph", "--level", "screens", "--format", "json"]
    if data:
        command += ["--data", data]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise UsageError(f"`{' '.join(command)}` failed (exit {result.returncode}): {result.stderr.strip()}")
    return result.stdout


def kinds_from_graph(graph: dict, language_folders: set[str]) -> list[Kind]:
    """One kind per graph kind, slugged from its id (its stable name) or else its name; slugs
    that collide get a number so no two kinds share a file."""
    kinds, used = [], set()
    for entry in graph["kinds"]:
        example = entry.get("example")
        path = example.get("path") if isinstance(example, dict) else example
        name = str(entry.get("name") or entry.get("id") or "")
        if not isinstance(path, str) or not name:
            raise UsageError(f"graph kind {entry!r} has no name or example page path")
        kinds.append(Kind(unique_slug(slugify(str(entry.get("id") or name)), used), name,
                          without_language(path, language_folders)))
    return kinds


def unique_slug(slug: str, used: set[str]) -> str:
    """The slug, or slug-2, slug-3… when an earlier kind took it."""
    candidate, number = slug, 2
    while candidate in used:
        candidate, number = f"{slug}-{number}", number + 1
    used.add(candidate)
    return candidate


def without_language(path: str, language_folders: set[str]) -> str:
    """A multilingual build's graph may put the language folder in front of its paths; every
    language tree has the same relative paths, so the folder is dropped here."""
    parts = path.lstrip("/").split("/", 1)
    if len(parts) == 2 and parts[0] in language_folders:
        return "/" + parts[1]
    return path


def extra_kinds(kinds: list[Kind]) -> list[Kind]:
    """The 404 page and the flow map: real screens the navigation graph does not walk to."""
    used = {kind.slug for kind in kinds}
    files = {page_file(kind.path) for kind in kinds}
    extras = []
    for slug, name, path in (("not-found", "404 page", "/404.html"), ("flow-map", "Flow map", "/flow/")):
        if page_file(path) not in files:
            extras.append(Kind(unique_slug(slug, used), name, path))
    return extras


# Languages ------------------------------------------------------------------------------------

class _HtmlLang(HTMLParser):
    """Finds the lang attribute of the first <html> tag."""

    def __init__(self):
        super().__init__()
        self.lang = None
        self.seen = False

    def handle_starttag(self, tag, attrs):
        if tag == "html" and not self.seen:
            self.seen = True
            self.lang = dict(attrs).get("lang")


def html_lang(page: pathlib.Path) -> str | None:
    """The page's <html lang="…">, or None."""
    parser = _HtmlLang()
    parser.feed(page.read_text(encoding="utf-8", errors="replace")[:20000])
    return parser.lang.strip() if parser.lang else None


def primary_subtag(code: str) -> str:
    return code.split("-")[0].lower()


def detect_languages(site: pathlib.Path, requested: list[str] | None) -> list[Language]:
    """The languages to capture: the ones asked for, else the site's language folders (a folder
    named like a language code, holding an index.html whose lang agrees), else the one language
    of a single-language site, read from SITE/index.html."""
    if not site.is_dir():
        raise UsageError(f"{site} not found: build the site first (make site) or pass the folder that holds it")
    if requested:
        return [requested_language(site, code, requested) for code in requested]
    folders = sorted(folder.name for folder in site.iterdir() if is_language_folder(folder))
    if folders:
        return [Language(code, code) for code in folders]
    index = site / "index.html"
    if not index.is_file():
        raise UsageError(f"{index} not found: build the site first (make site), or pass the folder that holds it")
    return [Language(html_lang(index) or "und", "")]


def is_language_folder(folder: pathlib.Path) -> bool:
    """A language tree, not a section that happens to have a short name (a faq/ folder's page
    says lang="en", not "faq")."""
    index = folder / "index.html"
    if not (folder.is_dir() and LANGUAGE_FOLDER.match(folder.name) and index.is_file()):
        return False
    lang = html_lang(index)
    return lang is None or primary_subtag(lang) == primary_subtag(folder.name)


def requested_language(site: pathlib.Path, code: str, requested: list[str]) -> Language:
    """A language given with --languages: its folder, or the site root when the site is
    single-language in exactly that language."""
    if not LANGUAGE_FOLDER.match(code):
        raise UsageError(f"--languages: {code!r} is not a language code like en, es, en-XA or ar-XB")
    if (site / code / "index.html").is_file():
        return Language(code, code)
    root = site / "index.html"
    if len(requested) == 1 and not (site / code).exists() and root.is_file() and html_lang(root) == code:
        return Language(code, "")
    raise UsageError(f"{site / code / 'index.html'} not found: build the site with "
                     f"--languages {','.join(requested)} first, or leave out --languages to use the "
                     "languages the site has")


# The plan -------------------------------------------------------------------------------------

def plan_cells(site: pathlib.Path, kinds: list[Kind], extras: list[Kind], languages: list[Language]) -> list[Cell]:
    """Every cell to capture, in report order. A graph kind's page must exist in every language
    (all of them are named at once); an extra page is captured where it exists."""
    cells, missing = [], []
    for kind in kinds + extras:
        for language in languages:
            relative = page_file(kind.path)
            page = site / language.folder / relative if language.folder else site / relative
            if not page.is_file():
                if kind not in extras:
                    missing.append(page)
                continue
            stored = f"{language.folder}/{relative}" if language.folder else relative
            for scheme in SCHEMES:
                for device in DEVICES:
                    cells.append(Cell(kind.name, kind.slug, language.code, scheme, device.name, kind.path, stored))
    if missing:
        listed = "\n  ".join(str(page) for page in missing)
        raise UsageError(f"example pages not found:\n  {listed}\nbuild the site from the same data as the "
                         "graph (pass the same --data to both, or run `make site`)"
                         + (" with --languages for every language" if any(l.folder for l in languages) else ""))
    return cells


# Capture ---------------------------------------------------------------------------------------

SETTLE_STYLE = ("*,*::before,*::after{animation-duration:0s!important;animation-delay:0s!important;"
                "transition:none!important;caret-color:transparent!important}"
                "::-webkit-scrollbar{display:none}")


def capture(site: pathlib.Path, cells: list[Cell], output: pathlib.Path, max_height: int) -> None:
    """Opens each cell's page from disk in headless Chromium and writes its PNG: one browser per
    device (a fixed window), the colour scheme emulated, animations stopped, full page height
    up to max_height."""
    try:
        from selenium import webdriver
        from selenium.common.exceptions import WebDriverException
    except ImportError:
        raise UsageError("selenium is missing: run scripts/install-checkers.sh (or pip install selenium)") from None
    for device in DEVICES:
        device_cells = [cell for cell in cells if cell.device == device.name]
        if not device_cells:
            continue
        try:
            with open_browser(webdriver, device) as driver:
                for scheme in SCHEMES:
                    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
                        {"name": "prefers-color-scheme", "value": scheme},
                        {"name": "prefers-reduced-motion", "value": "reduce"}]})
                    for cell in (cell for cell in device_cells if cell.scheme == scheme):
                        shot = screenshot(driver, (site / cell.page_file).resolve().as_uri(), device, max_height)
                        (output / cell.file).write_bytes(shot)
                        print(output / cell.file)
        except WebDriverException as error:
            raise BrowserError(f"Chromium failed: {error.msg or error}; run scripts/install-checkers.sh "
                               "to install chromium and chromium-driver") from None


def open_browser(webdriver, device: Device):
    """Headless Chromium with a fixed window and device metrics, scrollbars hidden: the same
    pixels on every run."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                     "--force-device-scale-factor=1", "--font-render-hinting=none",
                     f"--window-size={device.width},{device.height}"]:
        options.add_argument(argument)
    service = webdriver.ChromeService(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(options=options, service=service)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": device.width, "height": device.height, "deviceScaleFactor": 1, "mobile": device.mobile})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": device.mobile, "maxTouchPoints": 5})
    driver.execute_cdp_cmd("Emulation.setScrollbarsHidden", {"hidden": True})
    return driver


def screenshot(driver, uri: str, device: Device, max_height: int) -> bytes:
    """The page at the device's width and its full height (at most max_height), once its fonts
    are ready and with animations stopped."""
    driver.get(uri)
    driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "const style = document.createElement('style');"
        f"style.textContent = {json.dumps(SETTLE_STYLE)};"
        "document.head.appendChild(style);"
        "window.scrollTo(0, 0);"
        "(document.fonts ? document.fonts.ready : Promise.resolve()).then(() => requestAnimationFrame(() => done()));")
    full = driver.execute_script(
        "return Math.max(innerHeight, document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0)")
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": device.width, "height": min(int(full), max_height), "scale": 1}})
    return base64.b64decode(shot["data"])


# matrix.json -----------------------------------------------------------------------------------

def write_matrix(output: pathlib.Path, cells: list[Cell], site: str = "", complete: bool = True) -> None:
    """matrix.json: every cell with its axes, file and page, so a later run can compare with
    this one and a report can be built without the browser."""
    output.mkdir(parents=True, exist_ok=True)
    document = {
        "format": MATRIX_FORMAT, "version": 1, "complete": complete, "site": site,
        "schemes": list(SCHEMES),
        "devices": {d.name: {"width": d.width, "height": d.height, "mobile": d.mobile} for d in DEVICES},
        "languages": list(dict.fromkeys(cell.language for cell in cells)),
        "cells": [cell.to_json() for cell in cells],
    }
    (output / "matrix.json").write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def read_matrix(folder: pathlib.Path, role: str) -> dict:
    """A folder's matrix.json, checked: its cells and their PNGs must be there."""
    path = folder / "matrix.json"
    if not path.is_file():
        hint = (f"pass a copy of an earlier run's folder (e.g. cp -r {DEFAULT_OUTPUT} {DEFAULT_OUTPUT}-before, "
                "made before changing the site)" if role == "--previous" else
                "capture first (scripts/visual_matrix.py capture SITE --holocron BIN --output DIR)")
        raise UsageError(f"{path} not found: {role} must be a folder a visual_matrix.py run wrote; {hint}")
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise UsageError(f"{path}: not JSON ({error}); capture again") from None
    if document.get("format") != MATRIX_FORMAT or not isinstance(document.get("cells"), list):
        raise UsageError(f"{path} is not a visual matrix (no format {MATRIX_FORMAT!r}); capture again")
    if not document.get("complete", True):
        raise UsageError(f"{path}: its capture did not finish; run the capture again")
    for cell in document["cells"]:
        if not (folder / cell["file"]).is_file():
            raise UsageError(f"{folder / cell['file']} not found but {path} lists it: capture again")
    return document


def prepare_output(output: pathlib.Path) -> None:
    """Empties what an earlier run left in OUTPUT, and refuses a folder that is not ours so that
    a mistyped --output cannot delete someone's PNGs."""
    if output.exists() and any(output.iterdir()) and not (output / "matrix.json").is_file():
        raise UsageError(f"{output} is not empty and holds no matrix.json: pass a new or empty folder as --output")
    output.mkdir(parents=True, exist_ok=True)
    for png in output.glob("*.png"):
        png.unlink()
    for name in ("diff", "previous"):
        shutil.rmtree(output / name, ignore_errors=True)
    for name in ("index.html", "comparison.json"):
        (output / name).unlink(missing_ok=True)


# Comparison ------------------------------------------------------------------------------------

@dataclasses.dataclass
class ImageComparison:
    """Two images on their union canvas: how many pixels changed and where."""
    changed_pixels: int
    pixels: int
    mask: object  # PIL "L" image: 255 where a pixel changed
    canvas: object  # PIL "RGBA" image: the new image, the old one where the new is padding

    @property
    def changed_share(self) -> float:
        """Changed pixels in percent of the canvas (the mismatch %)."""
        return 100.0 * self.changed_pixels / self.pixels if self.pixels else 0.0


def compare_images(old_path: pathlib.Path, new_path: pathlib.Path, pixel_tolerance: int) -> ImageComparison:
    """Marks a pixel changed when any of its RGBA values moved more than pixel_tolerance, or when
    it lies outside one of the two images (sizes differ: the padding counts as changed)."""
    from PIL import Image, ImageChops
    with Image.open(old_path) as old_file, Image.open(new_path) as new_file:
        old, new = old_file.convert("RGBA"), new_file.convert("RGBA")
    width, height = max(old.width, new.width), max(old.height, new.height)
    old_canvas, new_canvas = padded(old, width, height), padded(new, width, height)
    difference = ImageChops.difference(old_canvas, new_canvas)
    largest = functools.reduce(ImageChops.lighter, difference.split())
    mask = largest.point(lambda value: 255 if value > pixel_tolerance else 0)
    padding = Image.new("L", (width, height), 255)
    padding.paste(0, (0, 0, min(old.width, new.width), min(old.height, new.height)))
    mask = ImageChops.lighter(mask, padding)
    canvas = old_canvas.copy()
    canvas.paste(new, (0, 0))
    return ImageComparison(mask.histogram()[255], width * height, mask, canvas)


def padded(image, width: int, height: int):
    """The image at the top left of a transparent canvas of the given size."""
    from PIL import Image
    if image.size == (width, height):
        return image
    canvas = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    canvas.paste(image, (0, 0))
    return canvas


def diff_image(comparison: ImageComparison):
    """The changed pixels in magenta over a dimmed grey copy of the page: the eye goes straight
    to what moved, and the grey keeps enough of the page to say where it is."""
    from PIL import Image
    white = Image.new("RGBA", comparison.canvas.size, (255, 255, 255, 255))
    grey = Image.alpha_composite(white, comparison.canvas).convert("L")
    dimmed = grey.point(lambda value: 176 + value * 64 // 255).convert("RGB")
    dimmed.paste(HIGHLIGHT, (0, 0) + dimmed.size, comparison.mask)
    return dimmed


def compare_runs(output: pathlib.Path, previous: pathlib.Path, current: dict, earlier: dict,
                 pixel_tolerance: int, max_changed_share: float) -> list[dict]:
    """Every cell of both runs, matched by file name (made from the axes), with its status:
    changed and removed cells get their previous PNG copied into OUTPUT/previous/ and changed
    ones a diff PNG in OUTPUT/diff/, so the report stands alone."""
    earlier_cells = {cell["file"]: cell for cell in earlier["cells"]}
    current_files = {cell["file"] for cell in current["cells"]}
    results = []
    for cell in current["cells"]:
        before = earlier_cells.get(cell["file"])
        if before is None:
            results.append(dict(cell, status="added", **{"changed-share": None}))
            continue
        comparison = compare_images(previous / cell["file"], output / cell["file"], pixel_tolerance)
        measured = comparison.changed_share
        status = "changed" if comparison.changed_pixels and measured > max_changed_share else "unchanged"
        result = dict(cell, status=status, **{
            "changed-share": measured, "changed-pixels": comparison.changed_pixels, "pixels": comparison.pixels})
        if comparison.changed_pixels:
            result["previous-file"] = keep_previous(previous, output, cell["file"])
            result["diff"] = f"diff/{cell['file']}"
            (output / "diff").mkdir(exist_ok=True)
            diff_image(comparison).save(output / result["diff"])
        results.append(result)
    for cell in earlier["cells"]:
        if cell["file"] not in current_files:
            results.append(dict(cell, status="removed", **{
                "changed-share": None, "previous-file": keep_previous(previous, output, cell["file"])}))
    for result in results:
        result.update(image_sizes(output, result))
    return results


def keep_previous(previous: pathlib.Path, output: pathlib.Path, file: str) -> str:
    """Copies a previous PNG into OUTPUT/previous/ and returns its path relative to OUTPUT."""
    (output / "previous").mkdir(exist_ok=True)
    shutil.copyfile(previous / file, output / "previous" / file)
    return f"previous/{file}"


def image_sizes(output: pathlib.Path, result: dict) -> dict:
    """The cell's image sizes (now and before), for the report's overlay and the JSON."""
    from PIL import Image
    sizes = {}
    if result["status"] != "removed":
        with Image.open(output / result["file"]) as image:
            sizes["size"] = list(image.size)
    if result.get("previous-file"):
        with Image.open(output / result["previous-file"]) as image:
            sizes["previous-size"] = list(image.size)
    return sizes


def write_comparison(output: pathlib.Path, previous: pathlib.Path, results: list[dict],
                     pixel_tolerance: int, max_changed_share: float) -> None:
    """comparison.json: both thresholds by their CLI names and every cell's status and
    changed-share (the mismatch %, null for added and removed cells)."""
    document = {
        "previous": str(previous),
        "pixel-tolerance": pixel_tolerance,
        "max-changed-share": max_changed_share,
        "units": {
            "pixel-tolerance": "largest difference in one of a pixel's RGBA values (0-255) that still leaves the pixel unchanged",
            "max-changed-share": "percent of a cell's pixels that may change while the cell still counts as unchanged",
            "changed-share": "percent of the cell's pixels that changed (the mismatch %); null when added or removed",
        },
        "summary": summary(results),
        "cells": results,
    }
    (output / "comparison.json").write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def summary(results: list[dict]) -> dict:
    counts = {status: 0 for status in ("changed", "added", "removed", "unchanged")}
    for result in results:
        counts[result["status"]] += 1
    return counts


def format_share(share: float | None) -> str:
    """A percentage short enough to read and precise enough that one pixel in a tall page does
    not print as 0."""
    if share is None:
        return "–"
    if share == 0:
        return "0 %"
    text = f"{share:.6f}".rstrip("0").rstrip(".")
    return (text if text != "0" else f"{share:.1e}") + " %"


# The report ------------------------------------------------------------------------------------

REPORT_CSS = """
:root { color-scheme: light dark; --fg: #1b1d21; --bg: #f6f6f4; --muted: #60656e; --line: #d4d6da;
  --card: #fff; --changed: #c0127e; --added: #1f7a36; --removed: #8a5a00; --unchanged: #60656e; }
@media (prefers-color-scheme: dark) { :root { --fg: #e7e8ea; --bg: #121418; --muted: #a3a8b1;
  --line: #343841; --card: #1b1e24; --changed: #ff6ac8; --added: #6fd68a; --removed: #f0b44c; --unchanged: #a3a8b1; } }
* { box-sizing: border-box; }
body { margin: 0; padding: 1rem 1.5rem 4rem; font: 15px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
h1 { margin: 0 0 .25rem; font-size: 1.6rem; }
h2 { margin: 2.5rem 0 .5rem; font-size: 1.25rem; border-top: 1px solid var(--line); padding-top: 1rem; }
h2 small, .muted { color: var(--muted); font-weight: normal; }
code { font-size: .9em; }
.summary span { margin-right: 1rem; }
.thresholds { display: grid; grid-template-columns: max-content 1fr; gap: .35rem 1rem; max-width: 62rem;
  padding: .75rem 1rem; background: var(--card); border: 1px solid var(--line); border-radius: 6px; }
.thresholds dt { font-weight: 600; font-family: ui-monospace, monospace; }
.thresholds dd { margin: 0; }
nav ul { display: flex; flex-wrap: wrap; gap: .25rem .9rem; padding: 0; list-style: none; }
.scroll { overflow-x: auto; }
table.grid { border-collapse: collapse; }
table.grid th, table.grid td { padding: .4rem; vertical-align: top; text-align: left; }
table.grid thead th { font-weight: 600; border-bottom: 1px solid var(--line); white-space: nowrap; }
table.grid tbody th { font-family: ui-monospace, monospace; }
figure { margin: 0; }
.cell img { display: block; object-fit: cover; object-position: top; border: 1px solid var(--line); background: #fff; }
.cell img.phone { width: 160px; aspect-ratio: 390 / 844; }
.cell img.desktop { width: 320px; aspect-ratio: 1280 / 900; }
.cell figcaption { font-size: .8rem; max-width: 320px; }
.cell.changed img { outline: 3px solid var(--changed); outline-offset: 1px; }
.cell.added img { outline: 3px solid var(--added); outline-offset: 1px; }
.cell.removed img { opacity: .45; outline: 3px dashed var(--removed); outline-offset: 1px; }
.status { font-weight: 700; text-transform: uppercase; font-size: .72rem; letter-spacing: .04em; }
.status.changed, .verdict.changed { color: var(--changed); }
.status.added { color: var(--added); } .status.removed { color: var(--removed); }
.status.unchanged, .verdict.unchanged { color: var(--unchanged); }
body:has(#only-changed:checked) .cell.unchanged { opacity: .15; }
details.compare { margin: .75rem 0; padding: .5rem .75rem; background: var(--card); border: 1px solid var(--line); border-radius: 6px; }
details.compare[open] { padding-bottom: 1.25rem; }
details.compare summary { cursor: pointer; font-weight: 600; }
details.compare h4 { margin: 1.2rem 0 .4rem; }
.side-by-side { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; align-items: start; }
.side-by-side img, .diff img { display: block; max-width: 100%; height: auto; border: 1px solid var(--line); }
.side-by-side figcaption { font-size: .85rem; color: var(--muted); }
.overlay { position: relative; max-width: 100%; border: 1px solid var(--line); background: #fff; }
.overlay img { position: absolute; top: 0; left: 0; height: auto; }
.overlay img.new { opacity: .5; }
html:not(.js) .overlay:hover img.new { opacity: 0; }
.blend:checked ~ .overlay img.new { opacity: 1 !important; mix-blend-mode: difference; }
html:not(.js) .blend:checked ~ .overlay:hover img.new { opacity: 0 !important; }
.hint { font-size: .85rem; color: var(--muted); }
"""

REPORT_JS = """
document.documentElement.classList.add('js');
function openTarget() {
  var target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (target && target.tagName === 'DETAILS') { target.open = true; target.scrollIntoView(); }
}
addEventListener('hashchange', openTarget);
addEventListener('DOMContentLoaded', function () {
  openTarget();
  document.querySelectorAll('input.opacity').forEach(function (slider) {
    slider.hidden = false;
    slider.previousElementSibling.hidden = false;
    slider.addEventListener('input', function () {
      slider.closest('details').querySelector('.overlay img.new').style.opacity = slider.value / 100;
    });
  });
});
"""


def e(text) -> str:
    """HTML-escaped text."""
    return html.escape(str(text), quote=True)


def src(path: str) -> str:
    """A relative image address, escaped for an attribute."""
    return e(quote(path))


def render_report(current: dict, results: list[dict] | None, thresholds: tuple[int, float] | None,
                  previous: str | None) -> str:
    """index.html: a header that explains the thresholds, then per screen kind a grid (rows are
    languages, columns scheme × device) and a side-by-side / overlay / diff view of every cell
    that changed. Inline CSS, a little optional JS, relative image paths only: it works from
    disk and without JavaScript."""
    cells = results if results is not None else [dict(cell, status=None) for cell in current["cells"]]
    kinds = list(dict.fromkeys((cell["kind-slug"], cell["kind"], cell["page-path"]) for cell in cells))
    parts = [
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
        "<title>Visual matrix</title>\n<style>", REPORT_CSS, "</style>\n<script>", REPORT_JS, "</script>\n",
        "</head>\n<body>\n",
        report_header(current, cells, kinds, results, thresholds, previous),
    ]
    for slug, name, path in kinds:
        kind_cells = [cell for cell in cells if cell["kind-slug"] == slug]
        parts.append(kind_section(slug, name, path, kind_cells))
    parts.append("</body>\n</html>\n")
    return "".join(parts)


def report_header(current: dict, cells: list[dict], kinds: list, results, thresholds, previous) -> str:
    """Title, what was captured, and, when compared, the counts and both thresholds explained."""
    languages = list(dict.fromkeys(cell["language"] for cell in cells))
    lines = [
        "<header>\n<h1>Visual matrix</h1>\n",
        f"<p class=\"muted\">{plural(len(kinds), 'screen kind')} × {plural(len(languages), 'language')} "
        f"({e(', '.join(languages))}) "
        f"× {len(SCHEMES)} colour schemes × {len(DEVICES)} devices "
        f"({', '.join(f'{d.name} {d.width}×{d.height}' for d in DEVICES)}): {len(current['cells'])} cells "
        f"of <code>{e(current.get('site', ''))}</code>. A cell's file is "
        "<code>&lt;kind-slug&gt;-&lt;language&gt;-&lt;scheme&gt;-&lt;device&gt;.png</code>; "
        "thumbnails show the first screen, a click opens the full page.</p>\n",
    ]
    if results is None:
        lines.append("<p>Not compared with an earlier run: pass <code>--previous DIR</code> "
                     "(or <code>PREVIOUS=DIR make screenshots</code>).</p>\n")
    else:
        counts = summary(results)
        pixel_tolerance, max_changed_share = thresholds
        lines.append(f"<p class=\"summary\">Compared with <code>{e(previous)}</code>: "
                     + "".join(f"<span class=\"status {s}\">{n} {s}</span>" for s, n in counts.items()) + "</p>\n")
        lines.append(
            "<dl class=\"thresholds\">\n"
            f"<dt>pixel-tolerance = {pixel_tolerance}</dt><dd>Decides whether one <strong>pixel</strong> changed: "
            "it did when any of its red, green, blue or alpha values moved by more than this (0–255). "
            "It forgives anti-aliasing noise; it says nothing about how many pixels may change.</dd>\n"
            f"<dt>max-changed-share = {format_share(max_changed_share)}</dt>"
            "<dd>Decides whether a whole <strong>cell</strong> changed: it did when more than this share of its "
            "pixels changed. It forgives a few changed pixels; it says nothing about how far each moved. "
            "A cell's <em>changed-share</em> (its mismatch %) is the share it measured.</dd>\n"
            "<dt>sizes</dt><dd>Images of different sizes are compared on the larger canvas; "
            "the padding counts as changed.</dd>\n</dl>\n")
        lines.append("<p><label><input type=\"checkbox\" id=\"only-changed\"> Dim unchanged cells</label></p>\n")
    lines.append("<nav aria-label=\"Screen kinds\"><ul>\n")
    for slug, name, _ in kinds:
        changed = sum(1 for cell in cells if cell["kind-slug"] == slug and cell["status"] in ("changed", "added", "removed"))
        note = f" <span class=\"status changed\">{changed}</span>" if changed else ""
        lines.append(f"<li><a href=\"#kind-{e(slug)}\">{e(name)}</a>{note}</li>\n")
    lines.append("</ul></nav>\n</header>\n")
    return "".join(lines)


def kind_section(slug: str, name: str, path: str, cells: list[dict]) -> str:
    """One screen kind: its grid of thumbnails, then the comparison of each changed cell."""
    columns = [(scheme, device.name) for scheme in SCHEMES for device in DEVICES]
    by_axes = {(cell["language"], cell["scheme"], cell["device"]): cell for cell in cells}
    languages = list(dict.fromkeys(cell["language"] for cell in cells))
    rows = []
    for language in languages:
        row = [f"<tr><th scope=\"row\">{e(language)}</th>"]
        for scheme, device in columns:
            cell = by_axes.get((language, scheme, device))
            row.append(f"<td>{cell_figure(cell)}</td>" if cell else "<td class=\"muted\">—</td>")
        rows.append("".join(row) + "</tr>\n")
    head = "".join(f"<th scope=\"col\">{scheme} · {device}</th>" for scheme, device in columns)
    compared = [cell for cell in cells if cell.get("diff")]
    return "".join([
        f"<section id=\"kind-{e(slug)}\">\n<h2>{e(name)} <small><code>{e(path)}</code> · {e(slug)}</small></h2>\n",
        "<div class=\"scroll\"><table class=\"grid\">\n",
        f"<thead><tr><th scope=\"col\">language</th>{head}</tr></thead>\n<tbody>\n",
        *rows, "</tbody></table></div>\n",
        *(comparison_details(cell) for cell in compared),
        "</section>\n",
    ])


def cell_figure(cell: dict) -> str:
    """A thumbnail labelled with its axes, status and mismatch %, linking to the full PNG (and
    to its comparison when it changed)."""
    status = cell.get("status")
    image = cell["previous-file"] if status == "removed" else cell["file"]
    axes = f"{cell['language']} · {cell['scheme']} · {cell['device']}"
    caption = [f"<span>{e(axes)}</span>"]
    if status:
        label = status
        if cell.get("changed-share"):
            label += f" {format_share(cell['changed-share'])}"
        caption.append(f"<br><span class=\"status {status}\">{e(label)}</span>")
    if cell.get("diff"):
        caption.append(f" <a href=\"#compare-{e(stem(cell['file']))}\">compare</a>")
    caption.append(f"<br><code>{e(cell['file'])}</code>")
    return (f"<figure class=\"cell {e(status or '')}\" id=\"cell-{e(stem(cell['file']))}\">"
            f"<a href=\"{src(image)}\"><img class=\"{e(cell['device'])}\" src=\"{src(image)}\" loading=\"lazy\" "
            f"alt=\"{e(cell['kind'])}, {e(axes)}\"></a><figcaption>{''.join(caption)}</figcaption></figure>")


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def stem(file: str) -> str:
    return file.removesuffix(".png")


def comparison_details(cell: dict) -> str:
    """A cell whose pixels moved, three ways, in a <details> that needs no JavaScript: side by
    side, the new image over the old (half transparent; hover shows the old, the checkbox
    blends by difference, a slider appears with JS), and the changed pixels in magenta."""
    name = stem(cell["file"])
    width = max(cell["size"][0], cell["previous-size"][0])
    height = max(cell["size"][1], cell["previous-size"][1])
    old_width = 100 * cell["previous-size"][0] / width
    new_width = 100 * cell["size"][0] / width
    verdict = f"{cell['status']}: {format_share(cell['changed-share'])} of pixels ({cell['changed-pixels']} of {cell['pixels']})"
    return "".join([
        f"<details class=\"compare\" id=\"compare-{e(name)}\">\n",
        f"<summary>{e(cell['kind'])} · {e(cell['language'])} · {e(cell['scheme'])} · {e(cell['device'])} — "
        f"<span class=\"verdict {e(cell['status'])}\">{e(verdict)}</span></summary>\n",
        "<h4>Side by side</h4>\n<div class=\"side-by-side\">",
        f"<figure><figcaption>previous</figcaption><img src=\"{src(cell['previous-file'])}\" loading=\"lazy\" alt=\"previous\"></figure>",
        f"<figure><figcaption>now</figcaption><img src=\"{src(cell['file'])}\" loading=\"lazy\" alt=\"now\"></figure></div>\n",
        "<h4>Overlay</h4>\n",
        f"<input type=\"checkbox\" class=\"blend\" id=\"blend-{e(name)}\"> <label for=\"blend-{e(name)}\">"
        "difference blend (what is the same turns black)</label>\n",
        f"<label for=\"opacity-{e(name)}\" hidden>opacity of the new image</label> "
        f"<input type=\"range\" class=\"opacity\" id=\"opacity-{e(name)}\" min=\"0\" max=\"100\" value=\"50\" hidden>\n",
        f"<div class=\"overlay\" style=\"width: {width}px; aspect-ratio: {width} / {height}\">",
        f"<img class=\"old\" src=\"{src(cell['previous-file'])}\" style=\"width: {old_width:.4f}%\" loading=\"lazy\" alt=\"previous\">",
        f"<img class=\"new\" src=\"{src(cell['file'])}\" style=\"width: {new_width:.4f}%\" loading=\"lazy\" alt=\"now, over the previous\">",
        "</div>\n<p class=\"hint\">The new image lies half transparent over the previous one; hover it to see "
        "the previous alone (with JavaScript, the slider sets the opacity).</p>\n",
        "<h4>Changed pixels</h4>\n",
        f"<div class=\"diff\"><a href=\"{src(cell['diff'])}\"><img src=\"{src(cell['diff'])}\" loading=\"lazy\" "
        "alt=\"changed pixels in magenta over a grey copy of the page\"></a></div>\n",
        "<p class=\"hint\">Magenta: pixels beyond pixel-tolerance, and any padding where the sizes differ. "
        "Grey: unchanged.</p>\n</details>\n",
    ])


# Commands --------------------------------------------------------------------------------------

def command_capture(arguments) -> pathlib.Path:
    """Plans the cells from the graph and the site's languages, then captures them."""
    site = pathlib.Path(arguments.site)
    requested = [code.strip() for code in arguments.languages.split(",") if code.strip()] if arguments.languages else None
    languages = detect_languages(site, requested)
    graph = read_graph(arguments.graph, arguments.holocron, arguments.data)
    kinds = kinds_from_graph(graph, {language.folder for language in languages if language.folder})
    cells = plan_cells(site, kinds, extra_kinds(kinds), languages)
    output = pathlib.Path(arguments.output)
    previous = getattr(arguments, "previous", None)
    if previous and output.resolve() in [pathlib.Path(previous).resolve(), *pathlib.Path(previous).resolve().parents]:
        raise UsageError(f"--previous {previous} lies in --output {output}, which a capture empties: "
                         f"copy it elsewhere first (cp -r {output} {output}-previous)")
    prepare_output(output)
    write_matrix(output, [], str(site), complete=False)
    capture(site, cells, output, arguments.max_height)
    write_matrix(output, cells, str(site))
    print(f"visual matrix: {len(cells)} cells in {output}")
    return output


def command_report(arguments) -> int:
    """Builds index.html (and comparison.json with --previous); 1 when any cell differs."""
    output = pathlib.Path(arguments.output)
    current = read_matrix(output, "--output")
    for name in ("diff", "previous"):
        shutil.rmtree(output / name, ignore_errors=True)
    results, thresholds, previous = None, None, arguments.previous
    if previous:
        previous_folder = pathlib.Path(previous)
        if previous_folder.resolve() == output.resolve():
            raise UsageError(f"--previous {previous} is the --output folder itself: pass a copy of an earlier run")
        earlier = read_matrix(previous_folder, "--previous")
        thresholds = (arguments.pixel_tolerance, arguments.max_changed_share)
        results = compare_runs(output, previous_folder, current, earlier, *thresholds)
        write_comparison(output, previous_folder, results, *thresholds)
    else:
        (output / "comparison.json").unlink(missing_ok=True)
    (output / "index.html").write_text(render_report(current, results, thresholds, previous), encoding="utf-8")
    return print_outcome(output, results, thresholds)


def print_outcome(output: pathlib.Path, results: list[dict] | None, thresholds) -> int:
    """One line per cell that differs (with its mismatch %), then a summary; the exit status."""
    if results is None:
        print(f"visual matrix: report in {output / 'index.html'} (not compared: pass --previous DIR)")
        return 0
    for result in results:
        if result["status"] == "changed":
            print(f"changed  {result['file']}  {format_share(result['changed-share'])} of pixels "
                  f"({result['changed-pixels']} of {result['pixels']})")
        elif result["status"] in ("added", "removed"):
            print(f"{result['status']:<8} {result['file']}")
    counts = summary(results)
    print(f"visual matrix: {counts['changed']} changed, {counts['added']} added, {counts['removed']} removed, "
          f"{counts['unchanged']} unchanged (pixel-tolerance {thresholds[0]}, max-changed-share "
          f"{format_share(thresholds[1])}); report in {output / 'index.html'}, details in {output / 'comparison.json'}")
    return 1 if counts["changed"] or counts["added"] or counts["removed"] else 0


def pixel_tolerance(text: str) -> int:
    value = int(text)
    if not 0 <= value <= 255:
        raise argparse.ArgumentTypeError(f"{text} is not between 0 and 255")
    return value


def percentage(text: str) -> float:
    value = float(text.removesuffix("%"))
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"{text} is not a percentage between 0 and 100")
    return value


def parser() -> argparse.ArgumentParser:
    """The command line: run (default), capture and report, sharing their options."""
    formatter = argparse.RawDescriptionHelpFormatter
    site_options = argparse.ArgumentParser(add_help=False)
    site_options.add_argument("site", metavar="SITE", help="the built site's folder, e.g. site")
    site_options.add_argument("--holocron", metavar="BIN", help="run BIN graph --level screens --format json for the screen kinds")
    site_options.add_argument("--graph", metavar="FILE.json", help="the output of holocron graph --level screens --format json")
    site_options.add_argument("--data", metavar="DIR", help="passed to holocron graph: the SWAPI snapshot the site was built from")
    site_options.add_argument("--languages", metavar="CODES", help="comma-separated language folders, e.g. en,es,en-XA,ar-XB "
                              "(default: the site's language folders, else its one language from <html lang>)")
    site_options.add_argument("--max-height", type=int, default=MAX_HEIGHT, metavar="PX",
                              help="longest page captured, in pixels (default %(default)s)")
    output_options = argparse.ArgumentParser(add_help=False)
    output_options.add_argument("--output", default=DEFAULT_OUTPUT, metavar="DIR", help="the report's folder (default %(default)s)")
    compare_options = argparse.ArgumentParser(add_help=False)
    compare_options.add_argument("--previous", metavar="DIR", help="an earlier run's OUTPUT folder to compare with")
    compare_options.add_argument("--pixel-tolerance", type=pixel_tolerance, default=DEFAULT_PIXEL_TOLERANCE, metavar="N",
                                 help=PIXEL_TOLERANCE_HELP)
    compare_options.add_argument("--max-changed-share", type=percentage, default=DEFAULT_MAX_CHANGED_SHARE, metavar="PERCENT",
                                 help=MAX_CHANGED_SHARE_HELP)
    top = argparse.ArgumentParser(prog="visual_matrix.py", description=__doc__, epilog=THRESHOLDS_EPILOG, formatter_class=formatter)
    commands = top.add_subparsers(dest="command", metavar="{run,capture,report}")
    commands.add_parser("run", parents=[site_options, output_options, compare_options], formatter_class=formatter,
                        help="capture, then report (the default)", epilog=THRESHOLDS_EPILOG + EXIT_EPILOG)
    commands.add_parser("capture", parents=[site_options, output_options], formatter_class=formatter,
                        help="only the PNGs and matrix.json (needs Chromium)")
    commands.add_parser("report", parents=[output_options, compare_options], formatter_class=formatter,
                        help="only index.html and comparison.json, from PNGs already in --output (no Chromium)",
                        epilog=THRESHOLDS_EPILOG + EXIT_EPILOG)
    return top


def main(argv: list[str]) -> int:
    if argv and argv[0] not in ("run", "capture", "report", "-h", "--help"):
        argv = ["run", *argv]
    arguments = parser().parse_args(argv)
    try:
        if arguments.command is None:
            parser().print_help(sys.stderr)
            return 2
        if arguments.command in ("run", "capture"):
            if arguments.graph and arguments.holocron:
                raise UsageError("pass --graph or --holocron, not both")
            command_capture(arguments)
            if arguments.command == "capture":
                return 0
        return command_report(arguments)
    except UsageError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except BrowserError as error:
        print(f"error: {error}", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
