"""Colour-vision deficiency: how a colour looks with protanopia, deuteranopia or tritanopia
(Machado, Oliveira & Fernandes 2009, severity 1.0), and how far apart two colours are
(CIELAB ΔE*76), so the overlay palette can be checked to stay distinct for every player."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

RGB = tuple[int, int, int]
Vector = npt.NDArray[np.float64]

# Machado et al. (2009), "A Physiologically-based Model for Simulation of Color Vision
# Deficiency", IEEE TVCG 15(6); the matrices for severity 1.0, applied to linear RGB.
SIMULATIONS: dict[str, Vector] = {
    "protanopia": np.array(
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ]
    ),
    "deuteranopia": np.array(
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ]
    ),
    "tritanopia": np.array(
        [
            [1.255528, -0.076749, -0.178779],
            [-0.078411, 0.930809, 0.147602],
            [0.004733, 0.691367, 0.303900],
        ]
    ),
}

# sRGB (D65) to CIE XYZ, and the D65 white point.
_XYZ = np.array(
    [[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750],
     [0.0193339, 0.1191920, 0.9503041]]
)  # fmt: skip
_WHITE = np.array([0.95047, 1.0, 1.08883])


def linear(colour: RGB) -> Vector:
    """sRGB 0-255 to linear RGB 0-1."""
    c = np.asarray(colour, dtype=np.float64) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def lab(rgb_linear: Vector) -> Vector:
    """Linear RGB (clipped to the gamut) to CIELAB."""
    t = (_XYZ @ np.clip(rgb_linear, 0.0, 1.0)) / _WHITE
    d = 6 / 29
    f = np.where(t > d**3, np.cbrt(t), t / (3 * d * d) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def seen(colour: RGB, vision: str) -> Vector:
    """The colour in CIELAB as a viewer with `vision` ("normal" or a SIMULATIONS key) sees it."""
    rgb = linear(colour)
    if vision != "normal":
        rgb = SIMULATIONS[vision] @ rgb
    return lab(rgb)


def distance(a: RGB, b: RGB, vision: str = "normal") -> float:
    """ΔE*76 between two colours as a viewer with `vision` sees them.

    >>> round(distance((0, 0, 0), (255, 255, 255)))
    100
    >>> round(distance((213, 94, 0), (0, 158, 115), "deuteranopia"))  # vermillion, green
    53
    """
    return float(np.linalg.norm(seen(a, vision) - seen(b, vision)))
