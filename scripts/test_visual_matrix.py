"""Tests of the visual matrix's comparison, report, names and language detection: small PNGs
made with Pillow in a temporary folder, no browser.

    python3 -m unittest scripts/test_visual_matrix.py
"""
import contextlib
import io
import json
import pathlib
import re
import sys
import tempfile
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from PIL import Image  # noqa: E402

import visual_matrix as vm  # noqa: E402

WHITE = (255, 255, 255, 255)


def cell(kind="Character", slug="characters-detail", language="en", scheme="light", device="phone",
         path="/characters/luke-skywalker/"):
    return vm.Cell(kind, slug, language, scheme, device, path, vm.page_file(path))


class Runs:
    """Two matrix folders, 'before' and 'now', filled with PNGs and matrix.json by a test."""

    def __init__(self, root: pathlib.Path):
        self.before, self.now = root / "before", root / "now"

    def write(self, folder: pathlib.Path, images: dict) -> None:
        """images: Cell -> PIL image; writes them and the folder's matrix.json."""
        folder.mkdir(parents=True, exist_ok=True)
        for each, image in images.items():
            image.save(folder / each.file)
        vm.write_matrix(folder, list(images), site="site")

    def report(self, *options: str) -> tuple[int, str]:
        """Runs `visual_matrix.py report` on 'now' against 'before'; its exit status and stdout."""
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            status = vm.main(["report", "--output", str(self.now), "--previous", str(self.before), *options])
        return status, out.getvalue()

    def comparison(self) -> dict:
        return json.loads((self.now / "comparison.json").read_text(encoding="utf-8"))

    def result(self, each) -> dict:
        return next(c for c in self.comparison()["cells"] if c["file"] == each.file)


def blank(width=10, height=10, colour=WHITE):
    return Image.new("RGBA", (width, height), colour)


def with_pixel(image, xy, colour):
    copy = image.copy()
    copy.putpixel(xy, colour)
    return copy


class TestCase(unittest.TestCase):
    def setUp(self):
        self.temporary = tempfile.TemporaryDirectory()
        self.root = pathlib.Path(self.temporary.name)
        self.runs = Runs(self.root)

    def tearDown(self):
        self.temporary.cleanup()


class ComparisonTests(TestCase):
    def test_identical_images_are_unchanged_and_exit_0(self):
        home = cell()
        self.runs.write(self.runs.before, {home: blank()})
        self.runs.write(self.runs.now, {home: blank()})
        status, out = self.runs.report()
        self.assertEqual(status, 0)
        result = self.runs.result(home)
        self.assertEqual(result["status"], "unchanged")
        self.assertEqual(result["changed-pixels"], 0)
        self.assertEqual(result["changed-share"], 0.0)
        self.assertNotIn("diff", result)
        self.assertIn("0 changed", out)

    def test_one_pixel_beyond_tolerance_changes_the_cell_with_its_share(self):
        home = cell()
        self.runs.write(self.runs.before, {home: blank(10, 20)})
        self.runs.write(self.runs.now, {home: with_pixel(blank(10, 20), (3, 4), (0, 0, 0, 255))})
        status, out = self.runs.report("--pixel-tolerance", "8")
        self.assertEqual(status, 1)
        result = self.runs.result(home)
        self.assertEqual(result["status"], "changed")
        self.assertEqual(result["changed-pixels"], 1)
        self.assertEqual(result["pixels"], 200)
        self.assertAlmostEqual(result["changed-share"], 0.5)
        self.assertRegex(out, r"changed\s+characters-detail-en-light-phone\.png\s+0\.5 % of pixels \(1 of 200\)")

    def test_a_change_within_pixel_tolerance_is_unchanged(self):
        home = cell()
        self.runs.write(self.runs.before, {home: blank(colour=(100, 100, 100, 255))})
        self.runs.write(self.runs.now, {home: blank(colour=(108, 92, 100, 255))})  # every pixel moved by 8
        status, _ = self.runs.report("--pixel-tolerance", "8")
        self.assertEqual(status, 0)
        self.assertEqual(self.runs.result(home)["changed-pixels"], 0)
        status, _ = self.runs.report("--pixel-tolerance", "7")
        self.assertEqual(status, 1)
        self.assertEqual(self.runs.result(home)["changed-pixels"], 100)

    def test_a_changed_share_under_max_changed_share_leaves_the_cell_unchanged(self):
        home = cell()
        self.runs.write(self.runs.before, {home: blank()})
        self.runs.write(self.runs.now, {home: with_pixel(blank(), (0, 0), (0, 0, 0, 255))})  # 1 % of 100 pixels
        status, _ = self.runs.report("--max-changed-share", "1.5")
        self.assertEqual(status, 0)
        result = self.runs.result(home)
        self.assertEqual(result["status"], "unchanged")
        self.assertEqual(result["changed-pixels"], 1)
        self.assertAlmostEqual(result["changed-share"], 1.0)
        status, _ = self.runs.report("--max-changed-share", "0.5")
        self.assertEqual(status, 1)
        self.assertEqual(self.runs.result(home)["status"], "changed")

    def test_different_sizes_compare_on_the_union_canvas_with_padding_changed(self):
        home = cell()
        self.runs.write(self.runs.before, {home: blank(10, 10)})
        self.runs.write(self.runs.now, {home: blank(12, 10)})  # same where both have pixels
        status, _ = self.runs.report()
        self.assertEqual(status, 1)
        result = self.runs.result(home)
        self.assertEqual(result["pixels"], 120)
        self.assertEqual(result["changed-pixels"], 20)
        self.assertEqual(result["size"], [12, 10])
        self.assertEqual(result["previous-size"], [10, 10])
        with Image.open(self.runs.now / result["diff"]) as diff:
            self.assertEqual(diff.size, (12, 10))
            self.assertEqual(diff.getpixel((11, 5)), vm.HIGHLIGHT)
            self.assertNotEqual(diff.getpixel((5, 5)), vm.HIGHLIGHT)

    def test_padding_counts_as_changed_even_where_the_larger_image_is_transparent(self):
        home = cell()
        clear = (0, 0, 0, 0)
        self.runs.write(self.runs.before, {home: blank(10, 10, clear)})
        self.runs.write(self.runs.now, {home: blank(10, 13, clear)})
        self.runs.report()
        self.assertEqual(self.runs.result(home)["changed-pixels"], 30)

    def test_a_changed_share_equal_to_max_changed_share_is_still_allowed(self):
        home = cell()
        self.runs.write(self.runs.before, {home: blank()})
        self.runs.write(self.runs.now, {home: with_pixel(blank(), (9, 9), (0, 0, 0, 255))})  # exactly 1 %
        status, _ = self.runs.report("--max-changed-share", "1")
        self.assertEqual(status, 0)
        self.assertEqual(self.runs.result(home)["status"], "unchanged")

    def test_added_and_removed_cells(self):
        kept, gone, new = cell(scheme="light"), cell(scheme="dark"), cell(language="es")
        self.runs.write(self.runs.before, {kept: blank(), gone: blank()})
        self.runs.write(self.runs.now, {kept: blank(), new: blank()})
        status, out = self.runs.report()
        self.assertEqual(status, 1)
        self.assertEqual(self.runs.result(new)["status"], "added")
        self.assertIsNone(self.runs.result(new)["changed-share"])
        removed = self.runs.result(gone)
        self.assertEqual(removed["status"], "removed")
        self.assertTrue((self.runs.now / removed["previous-file"]).is_file(), "the report keeps the removed PNG")
        self.assertEqual(self.runs.comparison()["summary"], {"changed": 0, "added": 1, "removed": 1, "unchanged": 1})
        self.assertIn("added    characters-detail-es-light-phone.png", out)
        self.assertIn("removed  characters-detail-en-dark-phone.png", out)

    def test_the_diff_png_highlights_exactly_the_changed_pixels(self):
        home = cell()
        before = blank(8, 6, (30, 60, 90, 255))
        changed = {(0, 0), (7, 5), (3, 2)}
        now = before.copy()
        for xy in changed:
            now.putpixel(xy, (250, 60, 90, 255))
        now.putpixel((5, 1), (33, 60, 90, 255))  # within tolerance
        self.runs.write(self.runs.before, {home: before})
        self.runs.write(self.runs.now, {home: now})
        self.runs.report()
        with Image.open(self.runs.now / self.runs.result(home)["diff"]) as diff:
            rgb = diff.convert("RGB")
            highlighted = {(x, y) for x in range(8) for y in range(6) if rgb.getpixel((x, y)) == vm.HIGHLIGHT}
            unchanged = rgb.getpixel((5, 1))
        self.assertEqual(highlighted, changed)
        self.assertEqual(unchanged[0], unchanged[1], "unchanged pixels are grey")
        self.assertGreater(unchanged[0], 150, "unchanged pixels are dimmed towards white")

    def test_comparison_json_names_both_thresholds_and_every_cell(self):
        light, dark = cell(scheme="light"), cell(scheme="dark")
        self.runs.write(self.runs.before, {light: blank(), dark: blank()})
        self.runs.write(self.runs.now, {light: blank(), dark: with_pixel(blank(), (1, 1), (0, 0, 0, 255))})
        self.runs.report("--pixel-tolerance", "12", "--max-changed-share", "0.25")
        document = self.runs.comparison()
        self.assertEqual(document["pixel-tolerance"], 12)
        self.assertEqual(document["max-changed-share"], 0.25)
        self.assertEqual(document["previous"], str(self.runs.before))
        self.assertIn("pixel-tolerance", document["units"])
        self.assertEqual({c["file"]: c["status"] for c in document["cells"]},
                         {light.file: "unchanged", dark.file: "changed"})
        changed = self.runs.result(dark)
        for key in ("kind", "kind-slug", "language", "scheme", "device", "page-path", "changed-share"):
            self.assertIn(key, changed)
        self.assertEqual(changed["diff"], f"diff/{dark.file}")
        self.assertEqual(changed["previous-file"], f"previous/{dark.file}")


class ReportTests(TestCase):
    def setUp(self):
        super().setUp()
        self.changed, self.same = cell(device="desktop"), cell(kind="Home", slug="home", path="/")
        self.runs.write(self.runs.before, {self.changed: blank(), self.same: blank()})
        self.runs.write(self.runs.now, {self.changed: with_pixel(blank(), (2, 2), (0, 0, 0, 255)), self.same: blank()})
        self.status, _ = self.runs.report()
        self.page = (self.runs.now / "index.html").read_text(encoding="utf-8")

    def test_every_cell_appears_labelled_with_its_axes(self):
        for each in (self.changed, self.same):
            self.assertIn(f'src="{each.file}"', self.page)
            self.assertIn(f'id="cell-{each.file[:-4]}"', self.page)
        self.assertIn("en · light · desktop", self.page)
        self.assertIn('id="kind-home"', self.page)
        self.assertIn('id="kind-characters-detail"', self.page)

    def test_a_changed_cell_opens_side_by_side_as_overlay_and_as_a_diff(self):
        name = self.changed.file[:-4]
        details = re.search(rf'<details class="compare" id="compare-{name}">(.*?)</details>', self.page, re.S)
        self.assertIsNotNone(details, "the changed cell has a <details> comparison")
        body = details.group(1)
        self.assertIn("Side by side", body)
        self.assertIn(f'src="previous/{self.changed.file}"', body)
        self.assertIn('class="overlay"', body)
        self.assertIn('class="new"', body)
        self.assertIn(f'src="diff/{self.changed.file}"', body)
        self.assertIn(f'href="#compare-{name}"', self.page)
        self.assertNotIn(f'id="compare-{self.same.file[:-4]}"', self.page, "unchanged cells have no comparison")

    def test_the_overlay_works_without_javascript(self):
        self.assertIn(".overlay:hover img.new", self.page)
        self.assertIn("mix-blend-mode: difference", self.page)
        self.assertRegex(self.page, r'<input type="range"[^>]*hidden>', "the slider only shows with JavaScript")

    def test_the_header_explains_both_thresholds(self):
        self.assertIn("pixel-tolerance = 8", self.page)
        self.assertIn("max-changed-share = 0 %", self.page)
        self.assertIn("one <strong>pixel</strong>", self.page)
        self.assertIn("a whole <strong>cell</strong>", self.page)

    def test_no_external_resources(self):
        self.assertNotRegex(self.page, r"(?i)https?:|(src|href)=\"//|@import|<link ")
        for address in re.findall(r'(?:src|href)="([^"#][^"]*)"', self.page):
            self.assertTrue((self.runs.now / address).is_file(), f"{address} is a file beside the report")

    def test_a_report_without_previous_has_no_comparison(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = vm.main(["report", "--output", str(self.runs.now)])
        self.assertEqual(status, 0)
        self.assertFalse((self.runs.now / "comparison.json").exists())
        page = (self.runs.now / "index.html").read_text(encoding="utf-8")
        self.assertIn("Not compared", page)
        self.assertNotIn("<details", page)


class NameTests(unittest.TestCase):
    def test_file_names_come_from_the_axes(self):
        self.assertEqual(vm.cell_file_name("characters-detail", "en-XA", "dark", "phone"),
                         "characters-detail-en-XA-dark-phone.png")
        self.assertEqual(cell(language="ar-XB", scheme="dark", device="desktop").file,
                         "characters-detail-ar-XB-dark-desktop.png")

    def test_kind_slugs_are_lowercase_ascii_with_hyphens(self):
        self.assertEqual(vm.slugify("Personnage détaillé"), "personnage-detaille")
        self.assertEqual(vm.slugify("  Ñandú / Straße — 2 ✨ "), "nandu-strae-2")
        self.assertEqual(vm.slugify("星球"), "kind")

    def test_graph_kinds_are_slugged_from_id_or_name_and_never_collide(self):
        graph = {"kinds": [
            {"id": "characters-detail", "name": "Character", "example": {"path": "/characters/luke-skywalker/"}},
            {"name": "Écran d'accueil", "example": {"path": "/"}},
            {"name": "Écran d’accueil!", "example": {"path": "/es/about/"}},
        ]}
        kinds = vm.kinds_from_graph(graph, {"es"})
        self.assertEqual([k.slug for k in kinds], ["characters-detail", "ecran-d-accueil", "ecran-d-accueil-2"])
        self.assertEqual(kinds[2].path, "/about/", "a language folder in front of a path is dropped")

    def test_page_paths_map_to_files(self):
        self.assertEqual(vm.page_file("/"), "index.html")
        self.assertEqual(vm.page_file("/characters/luke-skywalker/"), "characters/luke-skywalker/index.html")
        self.assertEqual(vm.page_file("/404.html"), "404.html")
        self.assertEqual(vm.page_file("/search"), "search/index.html")
        with self.assertRaises(vm.UsageError):
            vm.page_file("/../etc/")


def write_page(path: pathlib.Path, lang: str | None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    attribute = f' lang="{lang}"' if lang else ""
    path.write_text(f"<!doctype html>\n<html{attribute}>\n<head><title>t</title></head><body></body></html>\n")


class SiteTests(TestCase):
    def test_single_language_site_reads_html_lang(self):
        write_page(self.root / "index.html", "en")
        write_page(self.root / "faq" / "index.html", "en")  # a short section name, not a language
        write_page(self.root / "characters" / "index.html", "en")
        self.assertEqual(vm.detect_languages(self.root, None), [vm.Language("en", "")])

    def test_multilingual_site_uses_its_language_folders(self):
        for code, lang in (("en", "en"), ("es", "es"), ("en-XA", "en-XA"), ("ar-XB", "ar")):
            write_page(self.root / code / "index.html", lang)
        write_page(self.root / "assets" / "index.html", None)  # not a language code
        (self.root / "de").mkdir()  # no index.html
        detected = vm.detect_languages(self.root, None)
        self.assertEqual([l.code for l in detected], ["ar-XB", "en", "en-XA", "es"])
        self.assertTrue(all(l.folder == l.code for l in detected))

    def test_requested_languages_must_have_their_tree(self):
        for code in ("en", "es"):
            write_page(self.root / code / "index.html", code)
        self.assertEqual([l.code for l in vm.detect_languages(self.root, ["es", "en"])], ["es", "en"])
        with self.assertRaises(vm.UsageError) as raised:
            vm.detect_languages(self.root, ["en", "en-XA"])
        self.assertIn(str(self.root / "en-XA" / "index.html"), str(raised.exception))
        self.assertIn("--languages en,en-XA", str(raised.exception))

    def test_requesting_the_one_language_of_a_single_language_site_uses_its_root(self):
        write_page(self.root / "index.html", "en")
        self.assertEqual(vm.detect_languages(self.root, ["en"]), [vm.Language("en", "")])

    def test_plan_covers_every_axis_and_adds_404_and_flow_map_when_present(self):
        for code in ("en", "es"):
            for page in ("index.html", "characters/luke/index.html", "404.html"):
                write_page(self.root / code / page, code)
        write_page(self.root / "en" / "flow" / "index.html", "en")
        graph = {"kinds": [{"id": "home", "name": "Home", "example": {"path": "/"}},
                           {"id": "character", "name": "Character", "example": {"path": "/characters/luke/"}}]}
        languages = vm.detect_languages(self.root, None)
        kinds = vm.kinds_from_graph(graph, {"en", "es"})
        cells = vm.plan_cells(self.root, kinds, vm.extra_kinds(kinds), languages)
        files = {c.file for c in cells}
        self.assertEqual(len([c for c in cells if c.kind_slug in ("home", "character", "not-found")]), 3 * 2 * 2 * 2)
        self.assertIn("not-found-es-dark-desktop.png", files)
        self.assertIn("flow-map-en-light-phone.png", files)
        self.assertNotIn("flow-map-es-light-phone.png", files, "the flow map only where it exists")
        self.assertIn("es/characters/luke/index.html", {c.page_file for c in cells})

    def test_a_missing_example_page_is_named(self):
        write_page(self.root / "index.html", "en")
        graph = {"kinds": [{"id": "film", "name": "Film", "example": {"path": "/films/a-new-hope/"}}]}
        kinds = vm.kinds_from_graph(graph, set())
        with self.assertRaises(vm.UsageError) as raised:
            vm.plan_cells(self.root, kinds, [], vm.detect_languages(self.root, None))
        self.assertIn(str(self.root / "films" / "a-new-hope" / "index.html"), str(raised.exception))


class UsageTests(TestCase):
    def run_main(self, *argv):
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            try:
                status = vm.main(list(argv))
            except SystemExit as exit:  # argparse's own usage errors
                status = exit.code
        return status, err.getvalue()

    def test_a_previous_folder_without_matrix_json_is_a_usage_error(self):
        Runs(self.root).write(self.root / "now", {cell(): blank()})
        status, err = self.run_main("report", "--output", str(self.root / "now"), "--previous", str(self.root / "nothing"))
        self.assertEqual(status, 2)
        self.assertIn(str(self.root / "nothing" / "matrix.json"), err)

    def test_thresholds_out_of_range_are_usage_errors(self):
        self.assertEqual(self.run_main("report", "--pixel-tolerance", "256")[0], 2)
        self.assertEqual(self.run_main("report", "--max-changed-share", "-1")[0], 2)

    def test_a_missing_site_is_a_usage_error_naming_it(self):
        status, err = self.run_main(str(self.root / "no-site"), "--graph", "g.json", "--output", str(self.root / "out"))
        self.assertEqual(status, 2)
        self.assertIn(str(self.root / "no-site"), err)


if __name__ == "__main__":
    unittest.main()
