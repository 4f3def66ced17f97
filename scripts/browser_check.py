#!/usr/bin/env python3
"""Hosts built sites with nginx under a subpath and drives them in headless Chromium.

    scripts/browser_check.py HOLOCRON_BINARY [--all-pages]

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

Needs: chromium, chromium-driver and nginx (Debian), selenium and axe-selenium-python (PyPI).
"""
import json
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

SUBPATH = "/deep/sub/"
failures = []


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message)
    if not condition:
        failures.append(message)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def build(binary, output, base_url=None):
    command = [binary, "build", "--output", str(output), "--quiet"] + (["--base-url", base_url] if base_url else [])
    subprocess.run(command, check=True)


def start_nginx(work, servers):
    """servers: [(port, site folder, extra header lines)]; returns the nginx process."""
    blocks = []
    for port, folder, headers in servers:
        blocks.append(f"""
    server {{
        listen 127.0.0.1:{port};
        {headers}
        location {SUBPATH} {{
            alias {folder}/;
            error_page 404 {SUBPATH}404.html;
        }}
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
    for port, _, _ in servers:
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
                  "flow/index.html", "flow/characters/index.html", "flow/characters/characters-detail/index.html", "flow/about/index.html"]
        pages = [p for p in sample if p in pages]
    urls = [plain + SUBPATH + page for page in pages] + [plain + SUBPATH + "a/b/c/missing"]
    totals = {}
    serious = []
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


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary = str(pathlib.Path(argv[1]).resolve())
    all_pages = "--all-pages" in argv
    for tool in ["nginx", "chromium", "chromedriver"]:
        if shutil.which(tool) is None:
            print(f"{tool} is missing: apt-get install chromium chromium-driver nginx", file=sys.stderr)
            return 2
    work = pathlib.Path(tempfile.mkdtemp(prefix="holocron-browser-"))
    plain_port, csp_port, base_port = free_port(), free_port(), free_port()
    plain_site, base_site = work / "plain", work / "base"
    build(binary, plain_site)
    build(binary, base_site, base_url=f"http://127.0.0.1:{base_port}{SUBPATH}")
    csp = "add_header Content-Security-Policy \"default-src 'self'\" always;"
    nginx = start_nginx(work, [(plain_port, plain_site, ""), (csp_port, plain_site, csp), (base_port, base_site, csp)])
    try:
        plain, strict, strict_base = (f"http://127.0.0.1:{port}" for port in (plain_port, csp_port, base_port))
        check_not_found(plain, strict, strict_base, plain_site)
        check_axe(plain, plain_site, all_pages)
        check_search(plain, strict)
        report_numbers(plain)
    finally:
        nginx.send_signal(signal.SIGQUIT)
        nginx.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)
    print(f"\n{len(failures)} failed" if failures else "\nall browser checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
