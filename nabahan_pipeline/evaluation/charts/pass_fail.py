"""pass_fail_distribution.png: a donut led by Correct (the gate's verdict): correct, passed the seed's
checks but not correct, failed (answered, the seed's checks failed) and errors; Correct's rate in
its hole, the seed's pass rate in the legend beside it."""

from __future__ import annotations

import math

import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from nabahan_pipeline.evaluation.formats import format_count, format_pct
from nabahan_pipeline.evaluation.charts.inputs import overall_row
from nabahan_pipeline.evaluation.charts.style import (
    ERROR_COLOR, ERROR_HATCH, FAIL_COLOR, FAIL_HATCH, INK, MUTED, PASS_COLOR, PASSED_WRONG_COLOR,
    PASSED_WRONG_HATCH, chart_style, new_figure, no_data,
)


def _pass_fail_slices(overall: pd.Series) -> list[tuple[str, str, int, str, str, str | None]]:
    """(English, Arabic, count, percent text, colour, hatch), Correct first; errors are counted
    among failures. A summary from before the Correct verdict: passed, failed, errors."""
    total = int(overall["total"])
    passed = int(overall["passed"])
    errors = int(overall["errors"])
    failed_answered = max(int(overall["failed"]) - errors, 0)
    pct = (lambda n: format_pct(n / total)) if total else (lambda n: "n/a")
    if _has_correct(overall):
        correct = int(overall["correct"])  # Correct only if passed: a part of the passed
        slices = [
            ("Correct", "صحيح", correct, format_pct(overall["correct_rate"]), PASS_COLOR, None),
            ("Passed, not correct", "ناجح وغير صحيح", max(passed - correct, 0),
             pct(max(passed - correct, 0)), PASSED_WRONG_COLOR, PASSED_WRONG_HATCH),
        ]
    else:
        slices = [("Passed", "ناجح", passed, format_pct(overall["pass_rate"]), PASS_COLOR, None)]
    slices.append(("Failed", "راسب", failed_answered, pct(failed_answered), FAIL_COLOR, FAIL_HATCH))
    if errors:
        slices.append(("Errors", "أخطاء", errors, pct(errors), ERROR_COLOR, ERROR_HATCH))
    return slices


def _has_correct(overall: pd.Series) -> bool:
    return "correct_rate" in overall.index and pd.notna(overall["correct_rate"])


def _unit(overall: pd.Series) -> str:
    """What the slices count: cases, or answers when each case was asked more than once."""
    cases = overall.get("cases")
    return "answers" if cases is not None and pd.notna(cases) and int(cases) != int(overall["total"]) else "cases"


def draw_pass_fail(ax: Axes, overall: pd.Series, *, legend_fontsize: float = 9.5) -> None:
    """The donut on ``ax``, the number of cases in its hole and a legend with counts at its right."""
    total = int(overall["total"])
    if total <= 0:
        no_data(ax, "No cases — لا توجد حالات")
        return
    slices = [s for s in _pass_fail_slices(overall) if s[2] > 0]
    result = ax.pie(
        [s[2] for s in slices],
        colors=[s[4] for s in slices],
        hatch=[s[5] or "" for s in slices],
        startangle=90, counterclock=False,
        wedgeprops={"width": 0.42, "edgecolor": "white", "linewidth": 1.5},
    )
    wedges = getattr(result, "wedges", None) or result[0]
    for wedge, s in zip(wedges, slices):
        if s[2] / total < 0.06:
            continue  # too thin to hold a label; the legend has it
        angle = math.radians((wedge.theta1 + wedge.theta2) / 2)
        r = 0.79
        ax.text(r * math.cos(angle), r * math.sin(angle), s[3], ha="center", va="center",
                fontsize=10, fontweight="bold", color="white",
                bbox={"boxstyle": "round,pad=0.15", "facecolor": s[4], "edgecolor": "none"})
    unit = _unit(overall)
    # Stacked in points from the centre, so that they keep apart however small the donut is.
    # The gate's figure in the hole (the count of answers is in the title), else the count of cases.
    value, words = ((format_pct(overall["correct_rate"]), "correct\nصحيح") if _has_correct(overall)
                    else (format_count(total), "cases\nحالة"))
    ax.annotate(value, (0, 0), xytext=(0, 1), textcoords="offset points", ha="center", va="bottom",
                fontsize=17, fontweight="bold", color=INK)
    ax.annotate(words, (0, 0), xytext=(0, -1), textcoords="offset points", ha="center", va="top",
                fontsize=10, color=MUTED, linespacing=1.3)
    ax.set_aspect("equal")
    labels = [f"{en} — {ar}\n{format_count(n)} {unit if n != 1 else unit[:-1]} · {pct}"
              for en, ar, n, pct, _, _ in slices]
    handles = list(wedges)
    if _has_correct(overall):  # the seed's pass rate beside Correct: correct + passed, not correct
        handles.append(Patch(facecolor="none", edgecolor="none"))
        labels.append(f"Seed's pass rate — نسبة النجاح\n{format_count(overall['passed'])} of "
                      f"{format_count(total)} · {format_pct(overall['pass_rate'])}")
    ax.legend(
        handles, labels,
        loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=legend_fontsize,
        labelspacing=1.1, handlelength=1.6, handleheight=1.4,
    )


def plot_pass_fail_distribution(summary: pd.DataFrame) -> Figure:
    """Donut of correct / passed, not correct / failed (answered) / errors, with counts and percentages."""
    overall = overall_row(summary)
    with chart_style():
        fig = new_figure(9.5, 5.5)  # the legend's Arabic beside the English
        ax = fig.add_subplot()
        draw_pass_fail(ax, overall)
        # The round donut kept to the left of its box: the legend at its right then stays in the picture.
        ax.set_anchor("W")
        # The figure's title, not the axes': centred over donut and legend alike.
        fig.suptitle(("Correct, passed and failed — الصحيح والناجح والراسب" if _has_correct(overall)
                      else "Pass / fail distribution — توزيع النجاح والرسوب")
                     + f"\n{format_count(overall['total'])} {_unit(overall)}", linespacing=1.4,
                     fontsize="large", fontweight="bold")
    return fig
