#!/usr/bin/env python3
"""Screenshots of a built site at desktop and phone widths, in light and dark mode.

    scripts/screenshots.py SITE_DIR OUTPUT_DIR [PAGE ...]

Opens each page straight from disk in headless Chromium and writes
OUTPUT_DIR/<page>-<desktop|phone>-<light|dark>.png (full page height), for looking at what
changed. Needs chromium and chromium-driver (Debian) and selenium (PyPI).
"""
import base64
import pathlib
import shutil
import sys

from selenium import webdriver

PAGES = [
    "index.html", "characters/page/5/index.html", "characters/luke-skywalker/index.html",
    "films/a-new-hope/index.html", "planets/unknown/index.html", "about/index.html", "404.html",
]
SIZES = {"desktop": (1280, 900), "phone": (390, 844)}


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    site, output = pathlib.Path(argv[1]).resolve(), pathlib.Path(argv[2])
    output.mkdir(parents=True, exist_ok=True)
    pages = argv[3:] or PAGES
    for size, (width, height) in SIZES.items():
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", f"--window-size={width},{height}"]:
            options.add_argument(argument)
        service = webdriver.ChromeService(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
        with webdriver.Chrome(options=options, service=service) as driver:
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": size == "phone"})
            for scheme in ["light", "dark"]:
                driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
                for page in pages:
                    driver.get((site / page).as_uri())
                    full = driver.execute_script("return Math.max(innerHeight, document.documentElement.scrollHeight)")
                    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
                        "format": "png", "captureBeyondViewport": True,
                        "clip": {"x": 0, "y": 0, "width": width, "height": min(full, 5000), "scale": 1},
                    })
                    name = page.replace("/index.html", "").replace("/", "-").replace(".html", "") or "home"
                    target = output / f"{name}-{size}-{scheme}.png"
                    target.write_bytes(base64.b64decode(shot["data"]))
                    print(target)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
