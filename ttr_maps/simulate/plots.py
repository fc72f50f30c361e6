"""Small self-contained SVG charts for the report: bars with intervals, box plots, histograms.

Plain SVG strings with no script, font file or external reference, so the HTML
report stays one self-contained file. Sizes are in CSS pixels.
"""

from __future__ import annotations

from html import escape

FONT = "font-family='Helvetica, Arial, sans-serif'"
INK = "#222"
SOFT = "#777"
GRID = "#e4e4e4"
PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac")

# Card colours as drawn in the charts (names the variants use).
CARD_FILL = {
    "pink": "#e377c2", "purple": "#8e5ea2", "white": "#f4f4f4", "blue": "#1f77b4", "yellow": "#f2cf1d",
    "orange": "#ff7f0e", "black": "#333333", "red": "#d62728", "green": "#2ca02c", "gray": "#9a9a9a",
    "locomotive": "#8c6d31", "big-locomotive": "#5b4521", "passenger": "#17becf",
}


def _n(x: float) -> str:
    s = f"{x:.1f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _svg(width: float, height: float, body: list[str], title: str = "") -> str:
    head = f"<svg xmlns='http://www.w3.org/2000/svg' width='{_n(width)}' height='{_n(height)}' viewBox='0 0 {_n(width)} {_n(height)}' {FONT} font-size='12' role='img'>"
    if title:
        head += f"<title>{escape(title)}</title>"
    return head + "".join(body) + "</svg>"


def _text(x: float, y: float, s: str, anchor: str = "start", size: int = 12, fill: str = INK, weight: str = "normal") -> str:
    return f"<text x='{_n(x)}' y='{_n(y)}' text-anchor='{anchor}' font-size='{size}' fill='{fill}' font-weight='{weight}'>{escape(str(s))}</text>"


def _nice_max(v: float) -> float:
    if v <= 0:
        return 1.0
    import math

    e = 10 ** math.floor(math.log10(v))
    for m in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if v <= m * e:
            return m * e
    return 10 * e


def _ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    span = hi - lo
    if span <= 0:
        return [lo]
    import math

    raw = span / count
    e = 10 ** math.floor(math.log10(raw))
    step = next(m * e for m in (1, 2, 2.5, 5, 10) if raw <= m * e)
    first = math.ceil(lo / step) * step
    out = []
    x = first
    while x <= hi + 1e-9:
        out.append(round(x, 10))
        x += step
    return out


def rate_bars(items: list[tuple[str, float, float, float]], title: str = "", width: int = 520, percent: bool = True,
              reference: float | None = None, colors: list[str] | None = None) -> str:
    """Horizontal bars of rates with their confidence intervals: (label, rate, low, high)."""
    label_w = max([len(x[0]) for x in items] + [4]) * 7 + 12
    row = 24
    top = 22 if title else 6
    plot_w = width - label_w - 60
    height = top + row * len(items) + 26
    body = []
    if title:
        body.append(_text(0, 14, title, weight="bold"))
    xmax = 1.0 if percent else _nice_max(max([x[3] for x in items] + [0]))
    for tick in _ticks(0, xmax, 5):
        x = label_w + plot_w * tick / xmax
        body.append(f"<line x1='{_n(x)}' y1='{top}' x2='{_n(x)}' y2='{top + row * len(items)}' stroke='{GRID}'/>")
        body.append(_text(x, top + row * len(items) + 14, f"{tick * 100:.0f}%" if percent else f"{tick:g}", "middle", 10, SOFT))
    if reference is not None:
        x = label_w + plot_w * reference / xmax
        body.append(f"<line x1='{_n(x)}' y1='{top - 4}' x2='{_n(x)}' y2='{top + row * len(items)}' stroke='#999' stroke-dasharray='4 3'/>")
    for i, (label, rate, lo, hi) in enumerate(items):
        y = top + i * row
        color = (colors[i] if colors else PALETTE[i % len(PALETTE)])
        body.append(_text(label_w - 8, y + 16, label, "end"))
        body.append(f"<rect x='{label_w}' y='{_n(y + 5)}' width='{_n(max(0.5, plot_w * rate / xmax))}' height='14' fill='{color}' opacity='0.85'/>")
        x0, x1 = label_w + plot_w * lo / xmax, label_w + plot_w * hi / xmax
        body.append(f"<line x1='{_n(x0)}' y1='{_n(y + 12)}' x2='{_n(x1)}' y2='{_n(y + 12)}' stroke='{INK}' stroke-width='1.5'/>")
        for xx in (x0, x1):
            body.append(f"<line x1='{_n(xx)}' y1='{_n(y + 7)}' x2='{_n(xx)}' y2='{_n(y + 17)}' stroke='{INK}' stroke-width='1.5'/>")
        txt = f"{rate * 100:.1f}%" if percent else f"{rate:g}"
        body.append(_text(label_w + plot_w + 6, y + 16, txt, "start", 11, SOFT))
    return _svg(width, height, body, title)


def box_plots(items: list[tuple[str, dict]], title: str = "", width: int = 520) -> str:
    """Box plots (min, quartiles, max, mean as a dot) from `_stats` dicts: (label, stats)."""
    items = [(lab, s) for lab, s in items if s.get("n")]
    label_w = max([len(x[0]) for x in items] + [4]) * 7 + 12
    row = 28
    top = 22 if title else 6
    plot_w = width - label_w - 20
    height = top + row * len(items) + 26
    body = [_text(0, 14, title, weight="bold")] if title else []
    if not items:
        return _svg(width, 40, body + [_text(0, 34, "no data", fill=SOFT)], title)
    lo = min(s["min"] for _, s in items)
    hi = max(s["max"] for _, s in items)
    if hi == lo:
        hi = lo + 1
    pad = (hi - lo) * 0.04
    lo, hi = lo - pad, hi + pad

    def X(v: float) -> float:
        return label_w + plot_w * (v - lo) / (hi - lo)

    for tick in _ticks(lo, hi, 6):
        body.append(f"<line x1='{_n(X(tick))}' y1='{top}' x2='{_n(X(tick))}' y2='{top + row * len(items)}' stroke='{GRID}'/>")
        body.append(_text(X(tick), top + row * len(items) + 14, f"{tick:g}", "middle", 10, SOFT))
    for i, (label, s) in enumerate(items):
        y = top + i * row + row / 2
        color = PALETTE[i % len(PALETTE)]
        body.append(_text(label_w - 8, y + 4, label, "end"))
        body.append(f"<line x1='{_n(X(s['min']))}' y1='{_n(y)}' x2='{_n(X(s['max']))}' y2='{_n(y)}' stroke='{SOFT}'/>")
        body.append(f"<rect x='{_n(X(s['q1']))}' y='{_n(y - 8)}' width='{_n(max(1, X(s['q3']) - X(s['q1'])))}' height='16' fill='{color}' opacity='0.75' stroke='{INK}' stroke-width='0.8'/>")
        body.append(f"<line x1='{_n(X(s['median']))}' y1='{_n(y - 8)}' x2='{_n(X(s['median']))}' y2='{_n(y + 8)}' stroke='{INK}' stroke-width='2'/>")
        body.append(f"<circle cx='{_n(X(s['mean']))}' cy='{_n(y)}' r='3' fill='#fff' stroke='{INK}'/>")
    return _svg(width, height, body, title)


def histogram(hist: dict, title: str = "", width: int = 520, height: int = 180, xlabel: str = "", color: str = PALETTE[0]) -> str:
    """Vertical bars of a `_histogram` dict (edges, counts)."""
    counts = hist.get("counts", [])
    edges = hist.get("edges", [])
    top = 22 if title else 6
    body = [_text(0, 14, title, weight="bold")] if title else []
    if not counts:
        return _svg(width, 40, body + [_text(0, 34, "no data", fill=SOFT)], title)
    left, bottom = 40, 34
    plot_w, plot_h = width - left - 10, height - top - bottom
    ymax = _nice_max(max(counts))
    for tick in _ticks(0, ymax, 4):
        y = top + plot_h - plot_h * tick / ymax
        body.append(f"<line x1='{left}' y1='{_n(y)}' x2='{left + plot_w}' y2='{_n(y)}' stroke='{GRID}'/>")
        body.append(_text(left - 4, y + 4, f"{tick:g}", "end", 10, SOFT))
    bw = plot_w / len(counts)
    for i, c in enumerate(counts):
        h = plot_h * c / ymax
        body.append(f"<rect x='{_n(left + i * bw + 0.5)}' y='{_n(top + plot_h - h)}' width='{_n(max(0.5, bw - 1))}' height='{_n(h)}' fill='{color}'/>")
    step = max(1, len(edges) // 8)
    for i in range(0, len(edges), step):
        body.append(_text(left + i * bw, top + plot_h + 14, f"{edges[i]:g}", "middle", 10, SOFT))
    if xlabel:
        body.append(_text(left + plot_w / 2, height - 4, xlabel, "middle", 11, SOFT))
    return _svg(width, height, body, title)


def grouped_bars(categories: list[str], series: list[tuple[str, list[float], str]], title: str = "", width: int = 640,
                 height: int = 220, ylabel: str = "", swatches: dict[str, str] | None = None) -> str:
    """Vertical grouped bars: one group per category, one bar per series (name, values, colour); values may be negative."""
    top = 22 if title else 6
    legend_h = 18
    left, bottom = 44, 40
    plot_w, plot_h = width - left - 10, height - top - bottom - legend_h
    body = [_text(0, 14, title, weight="bold")] if title else []
    vals = [v for _, vs, _ in series for v in vs if v is not None]
    vmax = _nice_max(max(vals + [0]))
    vmin = -_nice_max(-min(vals + [0])) if min(vals + [0]) < 0 else 0.0
    span = vmax - vmin or 1

    def Y(v: float) -> float:
        return top + legend_h + plot_h * (vmax - v) / span

    for tick in _ticks(vmin, vmax, 5):
        body.append(f"<line x1='{left}' y1='{_n(Y(tick))}' x2='{left + plot_w}' y2='{_n(Y(tick))}' stroke='{GRID}'/>")
        body.append(_text(left - 4, Y(tick) + 4, f"{tick:g}", "end", 10, SOFT))
    body.append(f"<line x1='{left}' y1='{_n(Y(0))}' x2='{left + plot_w}' y2='{_n(Y(0))}' stroke='{SOFT}'/>")
    gw = plot_w / max(1, len(categories))
    bw = gw * 0.8 / max(1, len(series))
    for ci, cat in enumerate(categories):
        x0 = left + ci * gw + gw * 0.1
        for si, (_, values, color) in enumerate(series):
            v = values[ci]
            if v is None:
                continue
            y0, y1 = sorted((Y(0), Y(v)))
            body.append(f"<rect x='{_n(x0 + si * bw)}' y='{_n(y0)}' width='{_n(max(0.5, bw - 1))}' height='{_n(max(0.5, y1 - y0))}' fill='{color}' stroke='#555' stroke-width='0.4'/>")
        sw = (swatches or {}).get(cat)
        if sw:
            body.append(f"<rect x='{_n(left + ci * gw + gw / 2 - 5)}' y='{_n(top + legend_h + plot_h + 4)}' width='10' height='6' fill='{sw}' stroke='#555' stroke-width='0.5'/>")
        body.append(_text(left + ci * gw + gw / 2, top + legend_h + plot_h + 22, cat, "middle", 10, INK))
    x = left
    for name, _, color in series:
        body.append(f"<rect x='{_n(x)}' y='{top}' width='10' height='10' fill='{color}'/>")
        body.append(_text(x + 14, top + 9, name, "start", 11))
        x += 24 + len(name) * 6.5
    if ylabel:
        body.append(_text(width - 10, top + 9, ylabel, "end", 10, SOFT))
    return _svg(width, height, body, title)
