"""How every chart looks: colours, rcParams, the font, the DPI, and new figures on an Agg canvas.

Figures are built inside :func:`chart_style`, an ``rc_context`` that selects DejaVu Sans (it has
the Arabic glyphs), so nothing here touches global matplotlib state at import time. No pyplot.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

import matplotlib
from matplotlib import font_manager
from matplotlib.axes import Axes
from matplotlib.axis import Axis
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from nabahan_pipeline.evaluation.formats import format_pct

DPI = 110
FONT_FAMILY = "DejaVu Sans"

# Okabe-Ito, colour-blind safe. Where colour carries meaning it is doubled by hatching or a word.
PASS_COLOR = "#0072B2"  # blue
FAIL_COLOR = "#D55E00"  # vermillion
ERROR_COLOR = "#CC79A7"  # reddish purple
EXEC_COLOR = "#E69F00"  # orange
P95_COLOR = "#009E73"  # bluish green
CORRECT_COLOR = "#000000"  # black, solid with diamonds (the threshold is dashed)
PASSED_WRONG_COLOR = "#56B4E9"  # sky blue: passed the seed's checks, not Correct (dotted)
PASSED_WRONG_HATCH = ".."
NA_COLOR = "#BBBBBB"
INK = "#222222"
MUTED = "#555555"
FAIL_HATCH = "///"
ERROR_HATCH = "xx"
PASS_TINT = "#E3EFF8"
FAIL_TINT = "#FBE3D6"

# The white box behind a value printed over bars and lines.
LABEL_BOX = {"boxstyle": "square,pad=0.15", "facecolor": "white", "edgecolor": "none", "alpha": 0.9}

_RC = {
    "font.family": [FONT_FAMILY], "font.size": 10,
    "text.parse_math": False,  # a "$" in a question is text, not mathtext
    "axes.titlesize": 12, "axes.titleweight": "bold", "axes.titlepad": 8, "axes.labelcolor": INK,
    "axes.edgecolor": "#888888", "axes.spines.top": False, "axes.spines.right": False,
    "axes.axisbelow": True, "axes.grid": False, "grid.color": "#E5E5E5",
    "xtick.color": MUTED, "ytick.color": MUTED, "legend.frameon": False, "legend.fontsize": 9,
    "hatch.linewidth": 0.8, "figure.dpi": DPI, "savefig.dpi": DPI,
    "figure.facecolor": "white", "savefig.facecolor": "white",
    "figure.constrained_layout.h_pad": 0.06, "figure.constrained_layout.w_pad": 0.06,
}

# rc_context swaps the process-wide rcParams: serialize figure building and saving so that two
# threads rendering at once cannot see each other's settings.
_RENDER_LOCK = threading.RLock()


@contextlib.contextmanager
def chart_style() -> Iterator[None]:
    """The charts' rcParams, for building or saving a figure (one thread at a time)."""
    with _RENDER_LOCK, matplotlib.rc_context(_RC):
        yield


def new_figure(width: float, height: float, *, constrained: bool = True) -> Figure:
    """A figure of ``width`` x ``height`` inches at :data:`DPI` on matplotlib's Agg canvas."""
    # Whole pixels, so the PNG is exactly figsize * DPI.
    width, height = round(width * DPI) / DPI, round(height * DPI) / DPI
    fig = Figure(figsize=(width, height), dpi=DPI, layout="constrained" if constrained else None)
    FigureCanvasAgg(fig)
    return fig


def tick_fontsize() -> float:
    """The x tick labels' size in points under the current rcParams."""
    return font_manager.FontProperties(size=matplotlib.rcParams["xtick.labelsize"]).get_size_in_points()


def no_data(ax: Axes, message: str) -> None:
    """An empty panel that says why, in place of a chart."""
    ax.set_axis_off()
    ax.text(0.5, 0.5, message, ha="center", va="center", fontsize=11, color=MUTED,
            transform=ax.transAxes)


def rate_bar(ok: bool) -> dict[str, Any]:
    """A rate's bar: blue at or above the threshold, hatched vermillion below (colour doubled)."""
    return {"color": PASS_COLOR if ok else FAIL_COLOR, "hatch": None if ok else FAIL_HATCH,
            "edgecolor": "white", "linewidth": 0.8}


def threshold_legend(ax: Axes, threshold: float, *, wordy: bool = False, **options: Any) -> None:
    """The legend of bars judged by :func:`rate_bar`: the dashed threshold, at or above, below;
    ``wordy`` names the threshold in every label (a single chart has the room)."""
    than, name = (" threshold", "Pass threshold") if wordy else ("", "Threshold")
    ax.legend(handles=[
        Line2D([], [], color=INK, linestyle="--", label=f"{name} {format_pct(threshold)}"),
        Patch(facecolor=PASS_COLOR, label=f"At or above{than}"),
        Patch(facecolor=FAIL_COLOR, hatch=FAIL_HATCH, edgecolor="white", label=f"Below{than}"),
    ], ncol=3, handlelength=1.6, **options)


def percent_ticks(axis: Axis) -> None:
    """A rate axis in percent: ticks 0% to 100% by 20, a grid line at each."""
    axis.set_ticks(range(0, 101, 20), [f"{v}%" for v in range(0, 101, 20)])
    axis.grid(True)
