"""Colour-vision simulation for the rendering tests: Machado, Oliveira and Fernandes (2009), severity 1.0, for
protanopia, deuteranopia and tritanopia (applied to linear RGB), and greyscale (Rec. 709 luma); and the
CIE76 colour difference (ΔE*ab) between two sRGB colours as someone with that vision sees them.

Pure Python on the few colours a test names (no numpy needed).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

RGB = tuple[int, int, int]

MACHADO: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779),
                   (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
VISIONS = ("normal", "protanopia", "deuteranopia", "tritanopia", "greyscale")


def _to_linear(v: float) -> float:
    v /= 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def _to_srgb(v: float) -> int:
    v = min(1.0, max(0.0, v))
    v = 12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055
    return round(v * 255)


def simulate(colour: Sequence[int], vision: str) -> RGB:
    """``colour`` (sRGB) as seen with ``vision`` (one of :data:`VISIONS`)."""
    r, g, b = colour[:3]
    if vision == "normal":
        return (r, g, b)
    if vision == "greyscale":
        y = round(0.2126 * r + 0.7152 * g + 0.0722 * b)
        return (y, y, y)
    lin = [_to_linear(r), _to_linear(g), _to_linear(b)]
    m = MACHADO[vision]
    out = [sum(m[i][j] * lin[j] for j in range(3)) for i in range(3)]
    return (_to_srgb(out[0]), _to_srgb(out[1]), _to_srgb(out[2]))


def lab(colour: Sequence[int]) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour."""
    r, g, b = (_to_linear(c) for c in colour[:3])
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a: Sequence[int], b: Sequence[int], vision: str = "normal") -> float:
    """CIE76 ΔE*ab between ``a`` and ``b`` as seen with ``vision``."""
    la, lb = lab(simulate(a, vision)), lab(simulate(b, vision))
    return sum((p - q) ** 2 for p, q in zip(la, lb, strict=True)) ** 0.5


def min_delta_e(a: Sequence[int], b: Sequence[int]) -> tuple[float, str]:
    """The smallest ΔE between ``a`` and ``b`` over every vision, and that vision."""
    return min((delta_e(a, b, v), v) for v in VISIONS)


def simulate_image(vision: str) -> Callable[[RGB], RGB]:
    """A per-colour mapping for ``vision`` (for pictures: map their few distinct colours)."""
    return lambda c: simulate(c, vision)
