#!/usr/bin/env bash
# Install Debian's Chromium for the viewer's browser tests (tests/viewer/test_browser.py), e.g. in CI.
# Does nothing when a Chromium or Chrome binary is already on the PATH (or $CHROMIUM points at one).
set -euo pipefail

for candidate in "${CHROMIUM:-}" chromium chromium-browser google-chrome; do
    if [ -n "$candidate" ] && command -v "$candidate" >/dev/null 2>&1; then
        echo "chromium already installed: $(command -v "$candidate")"
        exit 0
    fi
done

if ! command -v apt-get >/dev/null 2>&1; then
    echo "error: no apt-get here; install Chromium yourself and set CHROMIUM=/path/to/chromium" >&2
    exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium
echo "installed: $(command -v chromium)"
