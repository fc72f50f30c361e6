"""The route-load pictures of docs/tickets.md, drawn by `ttr-maps tickets score --svg` and turned
into PNG by the headless Chromium the tests use.

    python tools/ticket_pictures.py      # writes docs/images/tickets-usa-load.png, tickets-usa-suggested-load.png
"""

from __future__ import annotations

import base64
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PICTURES = {
    "tickets-usa-load.png": "maps/variants/usa.yaml",  # the published deck, as the USA variant deals it
    "tickets-usa-suggested-load.png": "examples/decks/usa-suggested.yaml",
}
WIDTH = 1000


def main() -> int:
    from playwright.sync_api import sync_playwright

    exe = str(Path(sys.executable).with_name("ttr-maps"))
    out = ROOT / "docs" / "images"
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium")
        for png, deck in PICTURES.items():
            svg = Path(tmp) / (Path(png).stem + ".svg")
            subprocess.run([exe, "tickets", "score", str(ROOT / deck), "--svg", str(svg)], check=True, capture_output=True)
            page = browser.new_page(viewport={"width": WIDTH, "height": 200})
            page.set_content(f'<html><body style="margin:0;background:#fff"><img id="p" src="data:image/svg+xml;base64,'
                             f'{base64.b64encode(svg.read_bytes()).decode()}" style="width:{WIDTH}px;display:block"></body></html>')
            page.wait_for_function("() => document.getElementById('p').complete")
            page.locator("#p").screenshot(path=str(out / png))
            page.close()
            print(f"wrote {out / png}")
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
