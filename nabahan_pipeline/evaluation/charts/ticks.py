"""Ticks for a log latency axis that fit its real length, wide chart or narrow dashboard panel."""

from __future__ import annotations

import math

from matplotlib.ticker import Locator

from nabahan_pipeline.evaluation.formats import seconds_tick_label

LATENCY_FLOOR = 0.001  # cached answers can take ~0 s; a log axis needs a floor


class SpacedLogLocator(Locator):
    """Round values for a log latency axis, as many as fit its real length when drawn: in
    _PRIORITY's order (1 s, 10 s, the tier bounds, the decades, ...), each kept when its label
    (sized from the font) clears those kept by ``gap_em``. None above ``upper`` (a legend's
    headroom); with ``fill=False``, no _FILL values once the axis spans over 2.5 decades."""

    _PRIORITY = (1.0, 10.0, 2.0, 5.0, 0.1, 0.01, 0.001, 100.0, 1000.0, 0.5, 0.2, 0.05, 0.02,
                 0.005, 0.002, 30.0, 20.0, 60.0, 300.0, 600.0, 3600.0)
    _FILL = frozenset((0.5, 0.2, 0.05, 0.02, 0.005, 0.002, 20.0))

    def __init__(self, fontsize: float, *, gap_em: float = 0.8, upper: float = math.inf,
                 fill: bool = True) -> None:
        self.fontsize = fontsize
        self.gap_em = gap_em
        self.upper = upper
        self.fill = fill

    def __call__(self) -> list[float]:
        vmin, vmax = self.axis.get_view_interval()
        return self.tick_values(vmin, vmax)

    def tick_values(self, vmin: float, vmax: float) -> list[float]:
        vmin, vmax = sorted((float(vmin), float(vmax)))
        vmin = max(vmin, LATENCY_FLOOR / 10)
        sparse = not self.fill and vmax / vmin > 10**2.5
        candidates = [c for c in self._PRIORITY if vmin <= c <= min(vmax, self.upper)
                      and not (sparse and c in self._FILL)]
        axes = getattr(self.axis, "axes", None)
        if axes is None or vmax <= vmin:
            return sorted(candidates)
        horizontal = self.axis.axis_name == "x"
        length = axes.bbox.width if horizontal else axes.bbox.height
        if length <= 0:
            return sorted(candidates)
        em = self.fontsize * axes.figure.dpi / 72
        px_per_decade = length / math.log10(vmax / vmin)

        def extent(v: float) -> float:  # label size along the axis, px
            return 0.62 * em * len(seconds_tick_label(v)) if horizontal else 1.2 * em

        kept: list[tuple[float, float, float]] = []
        for c in candidates:
            pos, size = math.log10(c) * px_per_decade, extent(c)
            if all(abs(pos - p) >= (size + s) / 2 + self.gap_em * em for _, p, s in kept):
                kept.append((c, pos, size))
        return sorted(c for c, _, _ in kept)
