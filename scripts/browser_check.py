#!/usr/bin/env python3
"""Hosts built sites with nginx under a subpath and drives them in headless Chromium.

    scripts/browser_check.py HOLOCRON_BINARY [--all-pages] [--screenshots DIR]

Builds the Star Wars site twice with HOLOCRON_BINARY (without a base URL, and with the base URL
it is served at), serves both under /deep/sub/ on 127.0.0.1 with nginx (missing paths get the
site's 404.html with status 404; one server sends `Content-Security-Policy: default-src 'self'`)
and checks, failing on any miss:

  1. the 404 page shown for a missing path three folders deep is styled (computed style) and
     every link it shows answers 200: with JavaScript, without a base URL; under the strict
     CSP, with a base URL; and opened straight from disk;
  2. axe-core (from axe-selenium-python) finds no serious or critical violation, in light and
     dark mode, on a sample of pages (every page with --all-pages);
  3. search: without JavaScript the form is a GET to ?q= that shows the A–Z list; with it,
     ?q= filters, and it works under the strict CSP with no violation reported;
  4. numbers for the report: characters per line of the opening crawl, the dark header's and
     dialog frame's contrast with what surrounds them.

Then it builds the multilingual site (--languages en,es,en-XA,ar-XB) the same two ways and
serves it under /deep/sub/ too. nginx answers a missing path with the 404 page of the language
folder the path lies in (`location /deep/sub/es/ { error_page 404 /deep/sub/es/404.html; }`, one
location per language), and any other missing path with the root's 404.html (the list of
languages): a reader who mistypes an address inside the Spanish tree is told so in Spanish, with
the Spanish navigation, and only an address that names no language gets the language list. Checks:

  5. the root page lists the 4 languages, each link answers 200 with a page in that language;
     robots.txt, and with the base URL the sitemap index and every sitemap it names, answer 200;
  6. every page of every language (the files walked, checked over HTTP with urllib): each
     link of its footer switcher (<nav class="languages">) carries hreflang and lang, answers
     200 and leads to the same path in its language (a 404 page's to that language's home;
     without a base URL its links start from / and its script moves them, so they are checked
     in the browser instead), the page's own link is marked aria-current; every <link
     rel="alternate" hreflang> answers 200 at the same path and names no pseudo-locale;
     clicking the switcher in Chromium lands on the same screen in the other language;
  7. axe-core in light and dark mode on a sample of each language (home, a list, details, the
     dialog, search, the flow map, the 404 page at depth) and the root's two pages;
  8. ar-XB: <html dir="rtl"> and body's computed direction is rtl (ltr elsewhere); in every
     language, en-XA's long padded text and ar-XB's mirrored layout above all, no sample page
     is wider than the window at 375 px (phone) or 1280 px, nor has an element sticking out of
     it (in a right-to-left page what sticks out on the right can't even be scrolled to); at
     1280 px the whole-app flow map fits its frame without scrolling, drawn at least at 0.6 of
     its size, and its lint badges lead to findings listed on the page;
  9. the Spanish search page's status line is Spanish ("Ningún resultado para", "resultados");
 10. a missing path three folders deep under /deep/sub/es/ answers 404 with the Spanish 404
     page, styled, its links (switcher included) answering 200, with and without a base URL;
     one outside every language folder answers 404 with the root's list of languages, whose
     links answer 200 too.

Last, the review page `holocron diff --format html` writes for a change to the flow (every
vehicle gone from the data: its kind removed, the transitions to and from it cut, the vehicle
list shrunk), opened from disk:

 11. axe-core finds no serious or critical violation in light and dark mode; at 375 and 1280 px
     nothing is wider than the window; the drawing marks the removed kind and the cut
     transitions (dashed, as computed), every arrow has a tooltip and every box leads to a row
     of the page. --screenshots DIR saves it at 375 and 1280 px, light and dark, as PNGs.

Needs: chromium, chromium-driver and nginx (Debian), selenium and axe-selenium-python (PyPI).
"""
import base64
import json
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from urllib.parse import urljoin

from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

SUBPATH = "/deep/sub/"
LANGUAGES = ["en", "es", "en-XA", "ar-XB"]
PSEUDO_LOCALES = {"en-XA", "ar-XB"}
# One page of each screen kind, in every language: home, lists, details, the dialog, search, flow map.
LANGUAGE_SAMPLE = ["index.html", "characters/index.html", "characters/page/5/index.html", "characters/luke-skywalker/index.html",
                   "films/a-new-hope/index.html", "planets/tatooine/index.html", "starships/death-star/index.html",
                   "about/index.html", "search/index.html", "flow/index.html", "flow/characters/characters-detail/index.html",
                   "flow/journeys/index.html", "flow/journeys/read-a-films-planets/index.html"]
failures = []


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message)
    if not condition:
        failures.append(message)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# The coverage the Star Wars app's coordinator tests record: the flow maps are checked as
# `make site` draws them, untested transitions marked.
COVERAGE = pathlib.Path(__file__).resolve().parent.parent / "StarWars" / "flow-coverage"


def build(binary, output, base_url=None, languages=None):
    command = [binary, "build", "--output", str(output), "--quiet", "--coverage", str(COVERAGE)]
    command += ["--base-url", base_url] if base_url else []
    command += ["--languages", ",".join(languages)] if languages else []
    subprocess.run(command, check=True)


def start_nginx(work, servers):
    """servers: [(port, site folder, extra header lines[, language folders])]; a missing path in
    a language folder gets that folder's 404.html, any other the root's; returns the process."""
    blocks = []
    for port, folder, headers, *languages in servers:
        per_language = "".join(f"""
        location {SUBPATH}{code}/ {{
            alias {folder}/{code}/;
            error_page 404 {SUBPATH}{code}/404.html;
        }}""" for code in (languages[0] if languages else []))
        blocks.append(f"""
    server {{
        listen 127.0.0.1:{port};
        {headers}
        location {SUBPATH} {{
            alias {folder}/;
            error_page 404 {SUBPATH}404.html;
        }}{per_language}
    }}""")
    conf = work / "nginx.conf"
    conf.write_text(f"""
worker_processes 1;
user root;
pid {work}/nginx.pid;
error_log {work}/error.log;
events {{ worker_connections 64; }}
http {{
    include /etc/nginx/mime.types;
    access_log off;
    client_body_temp_path {work}/body;
    proxy_temp_path {work}/proxy;
    fastcgi_temp_path {work}/fastcgi;
    uwsgi_temp_path {work}/uwsgi;
    scgi_temp_path {work}/scgi;
    {''.join(blocks)}
}}
""")
    process = subprocess.Popen(["nginx", "-c", str(conf), "-p", str(work), "-g", "daemon off;"])
    for port, *_ in servers:
        for _ in range(50):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
    return process


def status(url):
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def browser(javascript=True, width=1280, height=900):
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={width},{height}", "--allow-file-access-from-files"]:
        options.add_argument(argument)
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = webdriver.ChromeService(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    return webdriver.Chrome(options=options, service=service)


def color_scheme(driver, scheme):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})


def style(driver, selector, prop):
    return driver.execute_script("return getComputedStyle(document.querySelector(arguments[0]))[arguments[1]]", selector, prop)


def shown_links(driver):
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('a[href], link[href]')).map(e => e.href).filter(h => !h.includes('#'))"
    )


def wait_for_links(driver, prefix, seconds=5):
    """Waits until the 404 page's script has moved its links (or gives up)."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        links = shown_links(driver)
        if links and all(link.startswith(prefix) for link in links):
            return links
        time.sleep(0.1)
    return shown_links(driver)


def styled(driver, scheme="light"):
    """Whether the page has the site's look: the stylesheet's colours and header layout."""
    expected = {"light": ("rgb(247, 247, 245)", "rgb(21, 23, 28)"), "dark": ("rgb(16, 18, 23)", "rgb(28, 31, 38)")}[scheme]
    return (
        style(driver, "body", "backgroundColor") == expected[0]
        and style(driver, ".site-header", "backgroundColor") == expected[1]
        and style(driver, ".site-header", "display") == "flex"
        and style(driver, ".notice", "borderLeftWidth") not in ("0px", "")
    )


def luminance(rgb):
    def channel(c):
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = rgb[:3]
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def parse_rgb(text):
    inside = text[text.index("(") + 1 : text.index(")")].replace("/", ",")
    return [float(x) for x in inside.replace(" ", "").split(",")]


def contrast(a, b):
    la, lb = luminance(parse_rgb(a)), luminance(parse_rgb(b))
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def check_not_found(plain, csp, strict_base, site_folder):
    print("\n# 404 page at depth")
    missing = SUBPATH + "a/b/c/missing"
    check(status(plain + missing) == 404, f"{missing} answers 404")
    with browser() as driver:
        for scheme in ["light", "dark"]:
            color_scheme(driver, scheme)
            driver.get(plain + missing)
            links = wait_for_links(driver, plain + SUBPATH)
            check(styled(driver, scheme), f"without a base URL, with JavaScript ({scheme}): the 404 page is styled")
            statuses = {link: status(link) for link in links}
            bad = {link: code for link, code in statuses.items() if code != 200}
            check(links and not bad, f"without a base URL, with JavaScript ({scheme}): {len(links)} links, {len(links) - len(bad)} answer 200 {bad or ''}")
        # Under the strict CSP no inline script or style runs: the base URL's path carries it.
        color_scheme(driver, "light")
        driver.get(strict_base + missing)
        time.sleep(0.5)
        links = shown_links(driver)
        check(styled(driver), "with the base URL, under Content-Security-Policy: default-src 'self': the 404 page is styled")
        bad = {link: status(link) for link in links if status(link) != 200}
        check(links and not bad, f"with the base URL, under the strict CSP: {len(links)} links, {len(links) - len(bad)} answer 200 {bad or ''}")
        # Straight from disk.
        driver.get((site_folder / "404.html").as_uri())
        links = wait_for_links(driver, site_folder.as_uri() + "/")
        missing_files = [link for link in links if not pathlib.Path(urllib.request.url2pathname(link[len("file://"):])).exists()]
        check(styled(driver), "opened from disk: the 404 page is styled")
        check(links and not missing_files, f"opened from disk: {len(links)} links, {len(links) - len(missing_files)} name a file {missing_files or ''}")
    with browser(javascript=False) as driver:
        driver.get(plain + missing)
        check(styled(driver), "without a base URL and without JavaScript: the 404 page is still styled (inline CSS)")
        links = shown_links(driver)
        print(f"     (without JavaScript its links start from / as written: {len([l for l in links if status(l) == 200])} of {len(links)} answer 200 under {SUBPATH}; at a host's root all do)")


def run_axe(driver, axe_script, url):
    driver.get(url)
    driver.execute_script(axe_script)
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations.map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help}))));"
    )


def axe_over(urls, axe_script, plain):
    """axe-core over every URL in light and dark mode: the serious or critical violations, one
    line each, and a summary of the counts by scheme and impact."""
    totals, serious = {}, []
    with browser() as driver:
        for scheme in ["light", "dark"]:
            color_scheme(driver, scheme)
            for url in urls:
                for violation in run_axe(driver, axe_script, url):
                    key = (scheme, violation["impact"])
                    totals[key] = totals.get(key, 0) + 1
                    line = f"{scheme} {url[len(plain):]}: {violation['impact']} {violation['id']} ({violation['nodes']} nodes): {violation['help']}"
                    print("     " + line)
                    if violation["impact"] in ("serious", "critical"):
                        serious.append(line)
    summary = ", ".join(f"{scheme} {impact}: {count}" for (scheme, impact), count in sorted(totals.items())) or "none"
    return serious, summary


def check_axe(plain, site_folder, all_pages):
    print("\n# axe-core, light and dark")
    import axe_selenium_python
    axe_path = pathlib.Path(axe_selenium_python.__file__).parent / "node_modules" / "axe-core" / "axe.min.js"
    axe_script = axe_path.read_text()
    pages = sorted(str(p.relative_to(site_folder)) for p in site_folder.rglob("index.html"))
    if not all_pages:
        sample = ["index.html", "about/index.html", "search/index.html", "characters/index.html", "characters/page/5/index.html",
                  "characters/page/9/index.html", "characters/luke-skywalker/index.html", "films/a-new-hope/index.html",
                  "planets/unknown/index.html", "species/human/index.html", "starships/death-star/index.html", "vehicles/t-16-skyhopper/index.html",
                  "flow/index.html", "flow/characters/index.html", "flow/characters/characters-detail/index.html", "flow/about/index.html",
                  "flow/planets/planets-detail/index.html", "flow/journeys/index.html",
                  "flow/journeys/read-a-films-planets/index.html",
                  "flow/journeys/the-app-coordinator-presents-like-the-site-reads/index.html"]
        pages = [p for p in sample if p in pages]
    urls = [plain + SUBPATH + page for page in pages] + [plain + SUBPATH + "a/b/c/missing"]
    serious, summary = axe_over(urls, axe_script, plain)
    check(not serious, f"axe over {len(urls)} pages in light and dark mode: violations {summary}")


def check_search(plain, csp):
    print("\n# search")
    with browser(javascript=False) as driver:
        driver.get(plain + SUBPATH + "search/index.html")
        field = driver.find_element(By.ID, "search-input")
        field.send_keys("skywalker")
        field.send_keys(Keys.ENTER)
        time.sleep(0.5)
        check(driver.current_url.endswith("search/index.html?q=skywalker"), f"without JavaScript the form is a GET to ?q= ({driver.current_url[len(plain):]})")
        rows = driver.find_elements(By.CSS_SELECTOR, ".results li")
        check(len(rows) == 260 and "Luke Skywalker" in driver.page_source, f"without JavaScript the A–Z list is there ({len(rows)} entries)")
    for name, origin in [("no CSP", plain), ("CSP default-src 'self'", csp)]:
        with browser() as driver:
            driver.get(origin + SUBPATH + "search/index.html?q=skywalker")
            time.sleep(1)
            visible = driver.execute_script("return Array.from(document.querySelectorAll('.results li')).filter(li => !li.hidden && li.offsetParent).map(li => li.textContent)")
            check(driver.find_element(By.ID, "search-input").get_attribute("value") == "skywalker", f"{name}: ?q= fills the field")
            check(len(visible) == 3 and all("Skywalker" in text for text in visible), f"{name}: ?q=skywalker shows the 3 Skywalkers ({len(visible)} rows)")
            field = driver.find_element(By.ID, "search-input")
            field.clear()
            field.send_keys("vader")
            time.sleep(0.5)
            visible = driver.execute_script("return Array.from(document.querySelectorAll('.results li')).filter(li => !li.hidden && li.offsetParent).map(li => li.textContent)")
            check(len(visible) == 1 and "Darth Vader" in visible[0], f"{name}: typing filters as you type ({visible})")
            violations = [entry["message"] for entry in driver.get_log("browser") if "Content Security Policy" in entry["message"] or "Refused" in entry["message"]]
            check(not violations, f"{name}: no Content-Security-Policy violation {violations or ''}")


def report_numbers(plain):
    print("\n# measures")
    with browser() as driver:
        driver.get(plain + SUBPATH + "films/a-new-hope/index.html")
        per_line = driver.execute_script("""
            const lengths = [];
            for (const p of document.querySelectorAll('main > p')) {
              const text = p.firstChild; if (!text || text.nodeType !== 3) continue;
              const range = document.createRange(); let top = null, count = 0;
              for (let i = 0; i < text.length; i++) {
                range.setStart(text, i); range.setEnd(text, i + 1);
                const rect = range.getClientRects()[0]; if (!rect) continue;
                if (top !== null && rect.top > top + 2) { lengths.push(count); count = 0; }
                top = rect.top; count++;
              }
            }
            return lengths;""")
        if per_line:
            print(f"     opening crawl at 1280 px: {min(per_line)}–{max(per_line)} characters a full line (mean {sum(per_line) / len(per_line):.0f})")
            check(max(per_line) <= 80, "body text stays within about 65–75 characters a line")
        color_scheme(driver, "dark")
        header = contrast(style(driver, ".site-header", "borderBottomColor"), style(driver, "body", "backgroundColor"))
        print(f"     dark mode: header edge against the page {header:.2f}:1")
        driver.get(plain + SUBPATH + "about/index.html")
        frame = contrast(style(driver, ".dialog", "borderTopColor"), driver.execute_script(
            "const m = getComputedStyle(document.querySelector('main')).backgroundColor; return m;"))
        print(f"     dark mode: dialog frame against its backdrop {frame:.2f}:1 (over the page colour)")
        check(header >= 3, "dark mode: the header edge shows (3:1 or more)")


# The multilingual site ----------------------------------------------------------------------

class PageLinks(HTMLParser):
    """What the language checks read from a page: <html lang dir>, the links of its language
    switcher (<nav class="languages">) and the head's <link rel="alternate" hreflang>."""

    def __init__(self, text):
        super().__init__()
        self.lang = self.dir = None
        self.switcher, self.alternates, self.navs = [], [], []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "html" and self.lang is None:
            self.lang, self.dir = attributes.get("lang"), attributes.get("dir")
        elif tag == "nav":
            self.navs.append("languages" in (attributes.get("class") or "").split())
        elif tag == "a" and any(self.navs) and attributes.get("href"):
            self.switcher.append(attributes)
        elif tag == "link" and "alternate" in (attributes.get("rel") or "").split() and attributes.get("hreflang"):
            self.alternates.append(attributes)

    def handle_endtag(self, tag):
        if tag == "nav" and self.navs:
            self.navs.pop()


def fetch(url):
    """The status and text of url."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8", "replace")


def statuses(urls):
    """Each URL's status, fetched 16 at a time."""
    urls = sorted(set(urls))
    with ThreadPoolExecutor(16) as pool:
        return dict(zip(urls, pool.map(status, urls)))


def listed(problems, most=8):
    return "" if not problems else "\n       " + "\n       ".join(problems[:most]) + (f"\n       … and {len(problems) - most} more" if len(problems) > most else "")


def check_language_root(origin, name, base_url=None):
    print(f"\n# languages: the root ({name})")
    code, text = fetch(origin + SUBPATH)
    root = PageLinks(text)
    codes = [link.get("hreflang") for link in root.switcher]
    check(code == 200 and codes == LANGUAGES, f"{SUBPATH} answers {code} and lists {codes}")
    for link in root.switcher:
        url = urljoin(origin + SUBPATH + "index.html", link["href"])
        answer, page = fetch(url)
        lang = PageLinks(page).lang
        check(answer == 200 and lang == link.get("hreflang") == link.get("lang"),
              f"its {link.get('hreflang')} link (lang=\"{link.get('lang')}\") → {url[len(origin):]}: {answer}, <html lang=\"{lang}\">")
    alternates = {a["hreflang"]: urljoin(origin + SUBPATH + "index.html", a["href"]) for a in root.alternates}
    bad = {url: code for url, code in statuses(alternates.values()).items() if code != 200}
    check(sorted(alternates) == ["en", "es", "x-default"] and not bad, f"its alternates {sorted(alternates)} answer 200 {bad or ''}")
    code, robots = fetch(origin + SUBPATH + "robots.txt")
    check(code == 200 and (not base_url or f"Sitemap: {base_url}sitemap.xml" in robots), f"robots.txt answers {code}" + (" and names the sitemap index" if base_url else ""))
    if base_url:
        code, index = fetch(origin + SUBPATH + "sitemap.xml")
        sitemaps = _locs(index)
        # The pseudo-locales' pages say noindex, so the index names the real languages only.
        expected = [f"{base_url}{language}/sitemap.xml" for language in LANGUAGES if language not in ("en-XA", "ar-XB")]
        check(code == 200 and sitemaps == expected, f"sitemap.xml answers {code} and names the {len(sitemaps)} real languages' sitemaps, no pseudo-locale's")
        urls = []
        for sitemap in sitemaps:
            _, text = fetch(sitemap)
            urls += _locs(text) + _alternate_hrefs(text)
        bad = {url: code for url, code in statuses(urls).items() if code != 200}
        check(urls and not bad, f"every address in the language sitemaps answers 200 ({len(set(urls))} addresses){listed([f'{code} {url}' for url, code in bad.items()])}")
        pseudo = [sitemap for sitemap in sitemaps if any(f"/{code}/" in sitemap for code in PSEUDO_LOCALES)]
        if pseudo:
            print(f"     (the sitemap index names the pseudo-locales' sitemaps too: {', '.join(s[len(base_url):] for s in pseudo)}, "
                  "whose pages carry no noindex although hreflang leaves them out)")


def _locs(xml):
    return re.findall(r"<loc>\s*([^<\s]+)\s*</loc>", xml)


def _alternate_hrefs(xml):
    return re.findall(r'<xhtml:link\b[^>]*\bhref="([^"]+)"', xml)


def check_switchers(origin, site_folder, name, base_url=None):
    """Every page's switcher and alternates, read from the files and followed over HTTP."""
    print(f"\n# languages: every page's switcher and alternates ({name})")
    reached = {}
    alternates_seen = 0
    for code in LANGUAGES:
        problems, pages, links = [], 0, 0
        for page in sorted((site_folder / code).rglob("*.html")):
            relative = page.relative_to(site_folder / code).as_posix()
            not_found = relative == "404.html"
            if not_found and not base_url:
                continue  # its links start from /, and its script moves them: see the 404 checks
            pages += 1
            here = origin + SUBPATH + f"{code}/{relative}"
            parsed = PageLinks(page.read_text(encoding="utf-8"))
            found = [link.get("hreflang") for link in parsed.switcher]
            if found != LANGUAGES:
                problems.append(f"{code}/{relative}: the switcher lists {found}")
            if parsed.lang != code:
                problems.append(f"{code}/{relative}: <html lang=\"{parsed.lang}\">")
            for link in parsed.switcher:
                target, url = link.get("hreflang"), urljoin(here, link["href"])
                expected = origin + SUBPATH + f"{target}/" + ("index.html" if not_found else relative)
                links += 1
                if link.get("lang") != target:
                    problems.append(f"{code}/{relative}: its {target} link has lang={link.get('lang')!r}")
                if (link.get("aria-current") == "page") != (target == code):
                    problems.append(f"{code}/{relative}: its {target} link has aria-current={link.get('aria-current')!r}")
                if url != expected:
                    problems.append(f"{code}/{relative}: its {target} link leads to {url[len(origin):]}, not {expected[len(origin):]}")
                reached.setdefault(url, f"{code}/{relative} → {target}")
            hreflangs = [a["hreflang"] for a in parsed.alternates]
            if PSEUDO_LOCALES & set(hreflangs):
                problems.append(f"{code}/{relative}: an alternate names a pseudo-locale: {hreflangs}")
            if hreflangs and code not in hreflangs and code not in PSEUDO_LOCALES:
                problems.append(f"{code}/{relative}: its alternates {hreflangs} leave out its own language")
            for alternate in parsed.alternates:
                language, url = alternate["hreflang"], urljoin(here, alternate["href"])
                expected = origin + SUBPATH + ("index.html" if language == "x-default" else f"{language}/{relative}")
                alternates_seen += 1
                if url != expected:
                    problems.append(f"{code}/{relative}: its {language} alternate is {url[len(origin):]}, not {expected[len(origin):]}")
                reached.setdefault(url, f"{code}/{relative} alternate {language}")
        check(pages and not problems, f"{code}: {pages} pages, {links} switcher links, each with hreflang and lang, to the same path{listed(problems)}")
    answers = statuses(reached)
    bad = [f"{answers[url]} {url[len(origin):]} (from {reached[url]})" for url in sorted(reached) if answers[url] != 200]
    check(not bad, f"the {len(reached)} distinct switcher and alternate addresses ({alternates_seen} alternates) answer 200 over HTTP{listed(bad)}")


def wait_for_url(driver, before, seconds=5):
    try:
        WebDriverWait(driver, seconds).until(lambda d: d.current_url != before and d.execute_script("return document.readyState") == "complete")
    except Exception:
        pass
    return driver.current_url


def check_switcher_clicks(plain):
    print("\n# languages: clicking the switcher")
    samples = [("es", "characters/luke-skywalker/index.html", "en"), ("ar-XB", "flow/index.html", "es"),
               ("en-XA", "films/a-new-hope/index.html", "ar-XB"), ("en", "search/index.html", "en-XA"),
               ("es", "characters/page/5/index.html", "ar-XB")]
    with browser() as driver:
        for code, page, target in samples:
            start = plain + SUBPATH + f"{code}/{page}"
            driver.get(start)
            link = driver.find_element(By.CSS_SELECTOR, f'footer nav.languages a[hreflang="{target}"]')
            driver.execute_script("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'})", link)
            link.click()
            landed = wait_for_url(driver, start)
            lang = driver.execute_script("return document.documentElement.lang")
            check(landed == plain + SUBPATH + f"{target}/{page}" and lang == target,
                  f"{code}/{page}: the {target} link lands on {landed[len(plain):]} (<html lang=\"{lang}\">)")
        # At 1280 px the four links fit on one line: they should share it.
        driver.get(plain + SUBPATH + "es/index.html")
        tops = driver.execute_script(
            "return Array.from(document.querySelectorAll('footer nav.languages a')).map(a => Math.round(a.getBoundingClientRect().top * 10) / 10)")
        check(len(set(tops)) == 1, f"es/index.html: the switcher's links stand on one line at 1280 px (their tops: {tops})")


def check_language_axe(plain, site_folder, all_pages):
    print("\n# languages: axe-core, light and dark")
    import axe_selenium_python
    axe_script = (pathlib.Path(axe_selenium_python.__file__).parent / "node_modules" / "axe-core" / "axe.min.js").read_text()
    urls = [plain + SUBPATH, plain + SUBPATH + "x/y/z/missing"]
    for code in LANGUAGES:
        pages = sorted(p.relative_to(site_folder / code).as_posix() for p in (site_folder / code).rglob("index.html"))
        if not all_pages:
            pages = [page for page in LANGUAGE_SAMPLE if page in pages]
        urls += [plain + SUBPATH + f"{code}/{page}" for page in pages] + [plain + SUBPATH + f"{code}/a/b/c/missing"]
    serious, summary = axe_over(urls, axe_script, plain)
    check(not serious, f"axe over {len(urls)} pages ({', '.join(LANGUAGES)} and the root) in light and dark mode: violations {summary}")


# Whether the page is wider than the window, and which elements stick out of it (outside any
# element that clips or scrolls them): in a right-to-left page what sticks out on the right
# can't be scrolled to, so scrollWidth alone would miss it.
OVERFLOW_SCRIPT = """
const root = document.documentElement, width = root.clientWidth, out = [], listed = new Set();
for (const el of document.body.querySelectorAll('*')) {
  const r = el.getBoundingClientRect();
  if (!r.width || !r.height || (r.left >= -1 && r.right <= width + 1)) continue;
  let clipped = false, parentListed = false;
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    if (listed.has(p)) parentListed = true;
    if (getComputedStyle(p).overflowX !== 'visible') { clipped = true; break; }
  }
  listed.add(el);
  if (clipped || parentListed) continue;
  const name = el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
  out.push(`${name} "${(el.textContent || '').replace(/\\s+/g, ' ').trim().slice(0, 30)}" ${Math.round(r.left)}..${Math.round(r.right)}`);
}
return {scroll: root.scrollWidth, client: width, direction: getComputedStyle(document.body).direction,
        dir: root.getAttribute('dir'), sticking: out.slice(0, 4)};
"""

# The flow map's frame and drawing: whether it scrolls, the scale it is drawn at, and the
# badges whose finding isn't on the page.
MAP_SCRIPT = """
const frame = document.querySelector('.flow-map-scroll'), svg = frame.querySelector('svg');
const badges = Array.from(svg.querySelectorAll('a.badge')).map(a => a.getAttribute('href'));
return {scroll: frame.scrollWidth, client: frame.clientWidth, scale: svg.getBoundingClientRect().width / svg.viewBox.baseVal.width,
        badges: badges.length, lost: badges.filter(href => !document.getElementById(href.split('#')[1]))};
"""


def check_direction_and_overflow(plain):
    print("\n# languages: direction, and nothing wider than the window")
    devices = [("phone 375 px", {"width": 375, "height": 812, "deviceScaleFactor": 1, "mobile": True}), ("desktop 1280 px", None)]
    with browser(width=1280, height=900) as driver:
        for device, metrics in devices:
            if metrics:
                driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
            else:
                driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
            for code in LANGUAGES:
                wide, directions = [], []
                pages = LANGUAGE_SAMPLE + ["a/b/c/missing"]
                for page in pages:
                    driver.get(plain + SUBPATH + f"{code}/{page}")
                    measure = driver.execute_script(OVERFLOW_SCRIPT)
                    expected = "rtl" if code == "ar-XB" else "ltr"
                    if measure["direction"] != expected or (measure["dir"] or "ltr") != expected:
                        directions.append(f"{page}: body direction {measure['direction']}, <html dir={measure['dir']!r}>")
                    if measure["scroll"] > measure["client"] + 1 or measure["sticking"]:
                        wide.append(f"{page}: scrollWidth {measure['scroll']} > clientWidth {measure['client']}"
                                    if measure["scroll"] > measure["client"] + 1 else f"{page}: scrollWidth {measure['scroll']}, clientWidth {measure['client']}")
                        wide += [f"    sticks out: {text}" for text in measure["sticking"]]
                    if page == "flow/index.html" and metrics is None:
                        fit = driver.execute_script(MAP_SCRIPT)
                        check(fit["scroll"] <= fit["client"] + 1 and fit["scale"] >= 0.6 and fit["badges"] and not fit["lost"],
                              f"{code}: at 1280 px the whole map fits its frame ({fit['scroll']} ≤ {fit['client']} px, drawn at {fit['scale']:.2f}), "
                              f"its {fit['badges']} badges lead to findings on the page {fit['lost'] or ''}")
                if metrics is None:
                    check(not directions, f"{code}: body's computed direction is {'rtl' if code == 'ar-XB' else 'ltr'} on {len(pages)} pages{listed(directions)}")
                check(not wide, f"{code} at {device}: none of {len(pages)} pages is wider than the window{listed(wide, 16)}")


def check_spanish_search(plain, strict_base):
    print("\n# languages: search in Spanish (and the pseudo-locales' own words)")
    visible = "return Array.from(document.querySelectorAll('.results li')).filter(li => !li.hidden && li.offsetParent).map(li => li.textContent)"
    for name, origin in [("no CSP", plain), ("with the base URL, CSP default-src 'self'", strict_base)]:
        with browser() as driver:
            driver.get(origin + SUBPATH + "es/search/index.html")
            time.sleep(1)  # the index loads
            field = driver.find_element(By.ID, "search-input")
            status_line = driver.find_element(By.ID, "search-status")
            for query in ["zzqxv", "sky", "vader"]:
                field.clear()
                field.send_keys(query)
                time.sleep(0.4)
                rows = driver.execute_script(visible)
                text = status_line.text
                if query == "zzqxv":
                    check(not rows and text == f"Ningún resultado para «{query}»", f"{name}: es, «{query}»: {len(rows)} rows, status {text!r}")
                elif query == "sky":
                    check(len(rows) > 1 and text == f"{len(rows)} resultados", f"{name}: es, «{query}»: {len(rows)} rows, status {text!r}")
                    check(all(" — " in row and row.rsplit(" — ", 1)[1] in ("Personaje", "Nave estelar", "Vehículo", "Planeta", "Especie", "Película") for row in rows),
                          f"{name}: es: the rows name their section in Spanish ({rows[:3]})")
                else:
                    check(len(rows) == 1 and text == "1 resultado", f"{name}: es, «{query}»: {len(rows)} row, status {text!r}")
            violations = [entry["message"] for entry in driver.get_log("browser") if "Content Security Policy" in entry["message"] or "Refused" in entry["message"]]
            check(not violations, f"{name}: es: no Content-Security-Policy violation {violations or ''}")
    with browser() as driver:
        for code in ["en", "en-XA", "ar-XB"]:
            driver.get(plain + SUBPATH + f"{code}/search/index.html?q=zzqxv")
            time.sleep(0.8)
            text = driver.find_element(By.ID, "search-status").text
            english = text == "No results for \u201czzqxv\u201d"
            check(text and "zzqxv" in text and (english == (code == "en")), f"{code}: no result reads {text!r}")


def check_language_not_found(plain, strict_base, site_folder):
    print("\n# languages: 404 pages")
    missing = SUBPATH + "es/a/b/c/missing"
    with browser() as driver:
        for name, origin in [("without a base URL, with JavaScript", plain), ("with the base URL, under the strict CSP", strict_base)]:
            check(status(origin + missing) == 404, f"{name}: {missing} answers 404")
            for scheme in ["light", "dark"]:
                color_scheme(driver, scheme)
                driver.get(origin + missing)
                links = wait_for_links(driver, origin + SUBPATH)
                lang = driver.execute_script("return document.documentElement.lang")
                heading = driver.find_element(By.TAG_NAME, "h1").text
                check(lang == "es" and heading == "Página no encontrada" and styled(driver, scheme),
                      f"{name} ({scheme}): the Spanish 404 page, styled (<html lang=\"{lang}\">, {heading!r})")
                bad = {link: code for link, code in statuses(links).items() if code != 200}
                check(links and not bad, f"{name} ({scheme}): {len(links)} links, {len(links) - len(bad)} answer 200 {bad or ''}")
            color_scheme(driver, "light")
            switcher = driver.execute_script("return Array.from(document.querySelectorAll('footer nav.languages a')).map(a => [a.hreflang, a.href])")
            wrong = [(language, href) for language, href in switcher if href != origin + SUBPATH + f"{language}/index.html"]
            check([language for language, _ in switcher] == LANGUAGES and not wrong, f"{name}: its switcher leads to each language's home {wrong or ''}")
            before = driver.current_url
            english = driver.find_element(By.CSS_SELECTOR, 'footer nav.languages a[hreflang="en"]')
            driver.execute_script("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'})", english)
            english.click()
            landed = wait_for_url(driver, before)
            check(landed == origin + SUBPATH + "en/index.html", f"{name}: clicking English lands on {landed[len(origin):]}")
        driver.get((site_folder / "es" / "404.html").as_uri())
        links = wait_for_links(driver, site_folder.as_uri() + "/")
        missing_files = [link for link in links if not pathlib.Path(urllib.request.url2pathname(link[len("file://"):])).exists()]
        check(styled(driver) and links and not missing_files, f"es/404.html opened from disk: styled, {len(links)} links, {len(links) - len(missing_files)} name a file {missing_files or ''}")
        outside = SUBPATH + "x/y/z/missing"
        for name, origin in [("without a base URL", plain), ("with the base URL, under the strict CSP", strict_base)]:
            driver.get(origin + outside)
            time.sleep(0.5)
            links = shown_links(driver)
            codes = driver.execute_script("return Array.from(document.querySelectorAll('nav.languages a')).map(a => a.hreflang)")
            check(status(origin + outside) == 404 and codes == LANGUAGES and styled(driver), f"{name}: {outside} answers 404 with the root's list of languages, styled")
            bad = {link: code for link, code in statuses(links).items() if code != 200}
            check(links and not bad, f"{name}: the root 404 page's {len(links)} links, {len(links) - len(bad)} answer 200 {listed([f'{code} {link[len(origin):]}' for link, code in bad.items()])}")


# What the review page's drawing marks, and whether each mark leads somewhere and says what it is.
REVIEW_SCRIPT = """
const svg = document.querySelector('svg.flow-graph');
if (!svg) return null;
const count = selector => svg.querySelectorAll(selector).length;
const boxes = Array.from(svg.querySelectorAll('a.kind')).map(a => a.getAttribute('href'));
const cut = svg.querySelector('.transition.removed path');
return {cut: count('.transition.removed'), removed: count('.kind.removed'), changed: count('.kind.changed'),
        arrows: count('.transition'), titled: count('.transition > title'), boxes: boxes.length,
        lost: boxes.filter(href => !document.getElementById(href.slice(1))),
        dashes: cut ? getComputedStyle(cut).strokeDasharray : 'none'};
"""


def check_review_page(binary, work, shots):
    print("\n# the review page (holocron diff --format html) of every vehicle gone")
    root = pathlib.Path(__file__).resolve().parent.parent
    data = work / "data-without-vehicles"
    shutil.copytree(root / "StarWars/Sources/SWAPI/Resources/snapshot", data)
    (data / "vehicles.json").write_text("[]\n")
    for name in ["people", "films"]:
        records = json.loads((data / f"{name}.json").read_text())
        for record in records:
            record["vehicles"] = []
        (data / f"{name}.json").write_text(json.dumps(records, indent=2) + "\n")
    page = work / "review.html"
    run = subprocess.run([binary, "diff", "--new-data", str(data), "--format", "html", "--output", str(page),
                          "--old-url", "https://holocron.example/main/", "--new-url", "https://holocron.example/pr-42/"],
                         capture_output=True, text=True)
    check(run.returncode == 1 and page.exists(), f"holocron diff --format html exits 1 (the sites differ) and writes the page {run.stderr.strip()[-300:]}")
    if not page.exists():
        return
    import axe_selenium_python
    axe_script = (pathlib.Path(axe_selenium_python.__file__).parent / "node_modules" / "axe-core" / "axe.min.js").read_text()
    serious, summary = axe_over([page.as_uri()], axe_script, "file://")
    check(not serious, f"axe over the review page in light and dark mode: violations {summary}")
    devices = [("375", {"width": 375, "height": 812, "deviceScaleFactor": 1, "mobile": True}), ("1280", None)]
    with browser(width=1280, height=900) as driver:
        for width, metrics in devices:
            if metrics:
                driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
            else:
                driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
            for scheme in ["light", "dark"]:
                color_scheme(driver, scheme)
                driver.get(page.as_uri())
                measure = driver.execute_script(OVERFLOW_SCRIPT)
                check(measure["scroll"] <= measure["client"] + 1 and not measure["sticking"],
                      f"review page at {width} px, {scheme}: nothing wider than the window ({measure['scroll']} ≤ {measure['client']} px) {measure['sticking'] or ''}")
                if shots:
                    shots.mkdir(parents=True, exist_ok=True)
                    full = driver.execute_script("return document.documentElement.scrollHeight")
                    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                                  "clip": {"x": 0, "y": 0, "width": int(width), "height": min(int(full), 6000), "scale": 1}})
                    (shots / f"review-{width}-{scheme}.png").write_bytes(base64.b64decode(shot["data"]))
            marks = driver.execute_script(REVIEW_SCRIPT)
            check(marks is not None and marks["removed"] == 1 and marks["cut"] >= 2 and marks["changed"] >= 1 and marks["dashes"] not in ("none", "")
                  and marks["arrows"] == marks["titled"] and not marks["lost"],
                  f"review page at {width} px: the drawing marks the kind removed, the transitions cut (dashes {marks and marks['dashes']}) "
                  f"and a page count changed, titles every arrow and leads every box to a row: {marks}")
    if shots:
        print(f"     screenshots in {shots}")


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary = str(pathlib.Path(argv[1]).resolve())
    all_pages = "--all-pages" in argv
    shots = pathlib.Path(argv[argv.index("--screenshots") + 1]).resolve() if "--screenshots" in argv else None
    for tool in ["nginx", "chromium", "chromedriver"]:
        if shutil.which(tool) is None:
            print(f"{tool} is missing: apt-get install chromium chromium-driver nginx", file=sys.stderr)
            return 2
    work = pathlib.Path(tempfile.mkdtemp(prefix="holocron-browser-"))
    plain_port, csp_port, base_port, languages_port, languages_base_port = (free_port() for _ in range(5))
    plain_site, base_site = work / "plain", work / "base"
    languages_site, languages_base_site = work / "languages", work / "languages-base"
    build(binary, plain_site)
    build(binary, base_site, base_url=f"http://127.0.0.1:{base_port}{SUBPATH}")
    languages_base_url = f"http://127.0.0.1:{languages_base_port}{SUBPATH}"
    build(binary, languages_site, languages=LANGUAGES)
    build(binary, languages_base_site, base_url=languages_base_url, languages=LANGUAGES)
    csp = "add_header Content-Security-Policy \"default-src 'self'\" always;"
    nginx = start_nginx(work, [(plain_port, plain_site, ""), (csp_port, plain_site, csp), (base_port, base_site, csp),
                               (languages_port, languages_site, "", LANGUAGES), (languages_base_port, languages_base_site, csp, LANGUAGES)])
    try:
        plain, strict, strict_base, languages, languages_base = (
            f"http://127.0.0.1:{port}" for port in (plain_port, csp_port, base_port, languages_port, languages_base_port))
        check_not_found(plain, strict, strict_base, plain_site)
        check_axe(plain, plain_site, all_pages)
        check_search(plain, strict)
        report_numbers(plain)
        check_language_root(languages, "without a base URL")
        check_language_root(languages_base, "with the base URL", languages_base_url)
        check_switchers(languages, languages_site, "without a base URL")
        check_switchers(languages_base, languages_base_site, "with the base URL", languages_base_url)
        check_switcher_clicks(languages)
        check_language_axe(languages, languages_site, all_pages)
        check_direction_and_overflow(languages)
        check_spanish_search(languages, languages_base)
        check_language_not_found(languages, languages_base, languages_site)
        check_review_page(binary, work, shots)
    finally:
        nginx.send_signal(signal.SIGQUIT)
        nginx.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)
    print(f"\n{len(failures)} failed" if failures else "\nall browser checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
