"""Our own small pictures, as path data in a unit box (x and y about -0.5..0.5, y down).

Drawn with a transform `translate(x y) rotate(a) scale(s)`; each is one path so a
board with hundreds of them stays small and fast.
"""

from __future__ import annotations


def _rect(x0: float, y0: float, x1: float, y1: float) -> str:
    return f"M{x0} {y0}H{x1}V{y1}H{x0}Z"


def _circle(cx: float, cy: float, r: float) -> str:
    return f"M{cx - r} {cy}a{r} {r} 0 1 0 {2 * r} 0a{r} {r} 0 1 0 {-2 * r} 0Z"


# A steam locomotive facing right: cab, boiler, chimney, dome, frame, wheels, cowcatcher.
LOCOMOTIVE = "".join(
    [
        _rect(-0.46, -0.3, -0.12, 0.12),
        _rect(-0.5, -0.36, -0.08, -0.29),
        _rect(-0.13, -0.14, 0.42, 0.12),
        _rect(0.24, -0.32, 0.34, -0.13),
        _rect(0.2, -0.36, 0.38, -0.31),
        _circle(0.04, -0.14, 0.065),
        _rect(-0.48, 0.11, 0.45, 0.17),
        _circle(-0.3, 0.25, 0.1),
        _circle(-0.03, 0.25, 0.1),
        _circle(0.24, 0.27, 0.08),
        "M0.42 0.1L0.54 0.3H0.34Z",
    ]
)

# The cab window, drawn in the background colour over the locomotive.
LOCOMOTIVE_WINDOW = _rect(-0.38, -0.24, -0.2, -0.1)

# A covered goods wagon: body, roof, door, chassis, wheels.
WAGON = "".join(
    [
        _rect(-0.46, -0.27, 0.46, 0.12),
        _rect(-0.5, -0.33, 0.5, -0.26),
        _rect(-0.48, 0.11, 0.48, 0.16),
        _circle(-0.3, 0.24, 0.09),
        _circle(-0.12, 0.24, 0.09),
        _circle(0.12, 0.24, 0.09),
        _circle(0.3, 0.24, 0.09),
    ]
)
WAGON_DOOR = _rect(-0.12, -0.2, 0.12, 0.06)

# A traveller with a suitcase.
PASSENGER = "".join(
    [
        _circle(0.0, -0.33, 0.11),
        "M-0.16 -0.18H0.16L0.2 0.12H0.08L0.07 0.42H-0.07L-0.08 0.12H-0.2Z",
        _rect(0.22, 0.08, 0.4, 0.3),
        _rect(0.27, 0.03, 0.35, 0.08),
    ]
)

# A goods token's crate, for the goods legend and cards.
STAR = "M0 -0.5L0.12 -0.16L0.48 -0.15L0.19 0.07L0.29 0.41L0 0.2L-0.29 0.41L-0.19 0.07L-0.48 -0.15L-0.12 -0.16Z"
