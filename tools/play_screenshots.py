"""Screenshots of the play page for docs/play.md, taken by the headless Chromium the tests use.

    python tools/play_screenshots.py            # writes docs/images/play-*.png

Plays a few seeded moves of Europe (you against two experts) and photographs the page
mid-game; then runs the browser tests of each mechanic (tests/test_play_mechanics.py)
and keeps their pictures of a tunnel, a station's borrowed route, Märklin goods and a
Paris flag (as 256-colour PNGs, a third of the size).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ttr_maps.engine.game import Game  # noqa: E402
from ttr_maps.play import HUMAN, new_table, play_app  # noqa: E402
from ttr_maps.web import run_in_thread  # noqa: E402


def main() -> int:
    from playwright.sync_api import sync_playwright

    out = ROOT / "docs" / "images"
    with tempfile.TemporaryDirectory() as tmp:
        table = new_table(Game.from_file(ROOT / "maps/variants/europe.yaml", 3), [HUMAN, "expert", "expert"],
                          Path(tmp) / "game.yaml", seed=7)
        rng = random.Random(7)
        while table.state.turns < 12:  # a few rounds in, so there are claims on the board
            if table.waiting_for() == "bot":
                table.bot_step()
            else:
                legal = table.view()["legal"]
                claims = [a for a in legal if a["kind"] == "claim"]
                table.act(0, (claims[0] if claims else rng.choice(legal))["text"])
        while table.waiting_for() == "bot":
            table.bot_step()
        running = run_in_thread(play_app(table))
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium")
            page = browser.new_page(viewport={"width": 1500, "height": 900})
            page.goto(running.url() + "&delay=400")
            page.wait_for_function("() => document.body.dataset.waiting === 'you'")
            page.screenshot(path=str(out / "play-europe.png"))
            browser.close()
        running.stop()
    print(f"wrote {out / 'play-europe.png'}")
    return mechanics(out)


# The pictures docs/play.md shows, from tests/test_play_mechanics.py's shots.
MECHANICS = ("europe-tunnel", "europe-1912-station", "marklin-goods", "paris-flag-choice")


def mechanics(out: Path) -> int:
    from PIL import Image

    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "TTR_PLAY_SHOTS": tmp}
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "tests/test_play_mechanics.py"], cwd=ROOT, env=env)
        if run.returncode:
            print("the mechanics' browser tests failed: no pictures written", file=sys.stderr)
            return 1
        for name in MECHANICS:
            target = out / f"play-{name}.png"
            Image.open(Path(tmp) / f"{name}.png").convert("RGB").quantize(256).save(target, optimize=True)
            print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
