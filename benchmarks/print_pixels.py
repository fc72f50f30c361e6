"""The PDF pages drawn by print's direct SVG converter (ttr_maps/render/pdfdraw.py) against fpdf2's own conversion.

    python benchmarks/print_pixels.py                     # every bundled board, variant and example, 100 dpi
    python benchmarks/print_pixels.py maps/variants/usa.yaml --dpi 150

Each file is printed twice in this process, as `ttr-maps print FILE --one-of-each` prints it: once with the
drawings converted by pdfdraw, once with every drawing left to fpdf2. Both PDFs are rendered by pdftoppm
(poppler-utils) and compared page by page, pixel by pixel. It prints, per file, the pages, the pixels that differ
and the largest difference of one colour channel (0-255), and the CPU seconds of the two builds; it exits 1 when a
page count differs or a pixel differs by more than --tolerance.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def build(path: Path, fast: bool) -> tuple[bytes, float]:
    from ttr_maps.load import load
    from ttr_maps.render import pdfdraw
    from ttr_maps.render.pdf import PARTS, PrintOptions, build_pdf

    loaded = load(str(path))
    parts = PARTS if loaded.variant is not None else tuple(p for p in PARTS if p not in ("summary", "rules"))
    real = pdfdraw.convert
    if not fast:
        pdfdraw.convert = lambda *a, **k: None  # every drawing goes to fpdf2
    try:
        t = time.process_time()
        pdf = build_pdf(loaded.board, loaded.variant, PrintOptions(parts=parts, every_copy=False)).pdf
        return pdf, time.process_time() - t
    finally:
        pdfdraw.convert = real


def pages(pdf: bytes, folder: Path, name: str, dpi: int) -> list[Path]:
    (folder / f"{name}.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", str(folder / f"{name}.pdf"), str(folder / name)], check=True)
    return sorted(folder.glob(f"{name}-*.png"))


def main() -> int:
    import numpy as np
    from PIL import Image

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--dpi", type=int, default=100)
    ap.add_argument("--tolerance", type=int, default=0, help="largest allowed difference of one channel (0-255)")
    args = ap.parse_args()
    files = args.files or sorted((ROOT / "maps").glob("*/*.yaml")) + sorted((ROOT / "examples").glob("*.yaml"))
    worst = 0
    failed = False
    cpu = [0.0, 0.0]
    for path in files:
        fast, t_fast = build(path, True)
        slow, t_slow = build(path, False)
        cpu[0] += t_slow
        cpu[1] += t_fast
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            a, b = pages(slow, folder, "fpdf2", args.dpi), pages(fast, folder, "direct", args.dpi)
            if len(a) != len(b):
                print(f"{path}: {len(a)} pages with fpdf2, {len(b)} direct")
                failed = True
                continue
            differ, most = 0, 0
            for pa, pb in zip(a, b):
                ia = np.asarray(Image.open(pa).convert("RGB"), dtype=np.int16)
                ib = np.asarray(Image.open(pb).convert("RGB"), dtype=np.int16)
                if ia.shape != ib.shape:
                    print(f"{path}: page {pa.name} is {ia.shape} with fpdf2, {ib.shape} direct")
                    failed = True
                    continue
                d = np.abs(ia - ib).max(axis=2)
                differ += int((d > 0).sum())
                most = max(most, int(d.max()))
        worst = max(worst, most)
        failed |= most > args.tolerance
        rel = path.relative_to(ROOT) if path.is_absolute() and path.is_relative_to(ROOT) else path
        print(f"{rel}: {len(a)} pages, {differ} pixels differ, largest difference {most}; "
              f"build {t_slow:.2f} s CPU with fpdf2, {t_fast:.2f} s direct", flush=True)
    print(f"all: largest difference {worst}; builds {cpu[0]:.1f} s CPU with fpdf2, {cpu[1]:.1f} s direct")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
