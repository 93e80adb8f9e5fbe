"""A player's rating history as a small self-contained SVG (no plotting dependency).

The chart draws the rating of each published list as a line, the margin of error as a band
around it, and labels the first and last list dates and the rating range. Text is escaped, so a
player's name cannot inject markup.
"""

from __future__ import annotations

import datetime as dt
import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

__all__ = ["HistoryPoint", "history_svg"]

_WIDTH, _HEIGHT = 640, 280
_LEFT, _RIGHT, _TOP, _BOTTOM = 56, 16, 34, 36


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    """A player's entry in one published list."""

    as_of: dt.date
    rating: float
    margin: float | None = None


def _nice_step(span: float) -> float:
    """A round tick step giving about five ticks over ``span``."""
    raw = max(span, 1.0) / 5
    magnitude = 10.0 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * magnitude:
            return float(factor * magnitude)
    return 10.0 * magnitude


@functools.lru_cache(maxsize=4096)
def _ticks(y_min: float, y_max: float, step: float) -> str:
    """The horizontal grid lines and their labels: the same for every chart of the same
    rating range (a list's thousands of one-point charts share a few hundred)."""
    plot_h = _HEIGHT - _TOP - _BOTTOM

    def y(value: float) -> float:
        return _TOP + plot_h * (y_max - value) / (y_max - y_min)

    parts = []
    tick = y_min
    while tick <= y_max + 1e-9:
        parts.append(
            f'<line x1="{_LEFT}" x2="{_WIDTH - _RIGHT}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
            f'stroke="#ddd"/><text x="{_LEFT - 6}" y="{y(tick) + 4:.1f}" '
            f'text-anchor="end">{tick:g}</text>'
        )
        tick += step
    return "".join(parts)


def history_svg(points: Sequence[HistoryPoint], title: str) -> str:
    """The SVG document of a rating history, oldest list first.

    >>> svg = history_svg([HistoryPoint(dt.date(2025, 1, 1), 1800.0, 50.0)], "A <b>")
    >>> svg.startswith("<svg") and "A &lt;b&gt;" in svg
    True
    """
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH}" height="{_HEIGHT}" '
        f'viewBox="0 0 {_WIDTH} {_HEIGHT}" font-family="sans-serif" font-size="11">'
        f'<rect width="{_WIDTH}" height="{_HEIGHT}" fill="#fff"/>'
        f'<text x="{_LEFT}" y="20" font-size="13" font-weight="bold">{escape(title)}</text>'
    )
    return head + _body(tuple(sorted(points, key=lambda p: p.as_of)))


@functools.lru_cache(maxsize=4096)
def _body(points: tuple[HistoryPoint, ...]) -> str:
    """The chart below the title: the same for every player of the same history (a list's
    hundred thousand charts of one point share a few thousand)."""
    if not points:
        return f'<text x="{_LEFT}" y="{_HEIGHT // 2}">no published rating</text></svg>\n'
    lows = [p.rating - (p.margin or 0.0) for p in points]
    highs = [p.rating + (p.margin or 0.0) for p in points]
    step = _nice_step(max(highs) - min(lows))
    y_min = math.floor(min(lows) / step) * step
    y_max = max(math.ceil(max(highs) / step) * step, y_min + step)
    days = [p.as_of.toordinal() for p in points]
    d_min, d_span = days[0], max(days[-1] - days[0], 1)
    plot_w, plot_h = _WIDTH - _LEFT - _RIGHT, _HEIGHT - _TOP - _BOTTOM

    def x(day: int) -> float:
        if len(points) == 1:
            return _LEFT + plot_w / 2
        return _LEFT + plot_w * (day - d_min) / d_span

    def y(value: float) -> float:
        return _TOP + plot_h * (y_max - value) / (y_max - y_min)

    parts = [_ticks(y_min, y_max, step)]
    if any(p.margin for p in points):
        upper = [f"{x(d):.1f},{y(h):.1f}" for d, h in zip(days, highs, strict=True)]
        lower = [f"{x(d):.1f},{y(lo):.1f}" for d, lo in zip(days, lows, strict=True)]
        band = " ".join(upper + lower[::-1])
        parts.append(f'<polygon points="{band}" fill="#1f77b4" fill-opacity="0.15"/>')
    line = " ".join(f"{x(d):.1f},{y(p.rating):.1f}" for d, p in zip(days, points, strict=True))
    parts.append(f'<polyline points="{line}" fill="none" stroke="#1f77b4" stroke-width="2"/>')
    for d, p in zip(days, points, strict=True):
        parts.append(
            f'<circle cx="{x(d):.1f}" cy="{y(p.rating):.1f}" r="3" fill="#1f77b4">'
            f"<title>{p.as_of.isoformat()}: {p.rating:.0f}</title></circle>"
        )
    base = _HEIGHT - _BOTTOM + 16
    parts.append(f'<text x="{x(days[0]):.1f}" y="{base}">{points[0].as_of.isoformat()}</text>')
    if len(points) > 1:
        parts.append(
            f'<text x="{x(days[-1]):.1f}" y="{base}" text-anchor="end">'
            f"{points[-1].as_of.isoformat()}</text>"
        )
    parts.append("</svg>\n")
    return "".join(parts)
