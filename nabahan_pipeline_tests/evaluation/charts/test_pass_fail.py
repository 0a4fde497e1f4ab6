"""The donut leads with Correct (the gate's verdict): its rate in the hole, its slice first, the
seed's pass rate beside it in the legend; with repeats it counts answers."""

from __future__ import annotations

from nabahan_pipeline.evaluation.charts.pass_fail import plot_pass_fail_distribution
from nabahan_fixtures.synthetic import fixed_summary


def texts(figure) -> list[str]:
    ax = figure.axes[0]
    return [text.get_text() for text in ax.texts]


def legend(figure) -> list[str]:
    return [text.get_text() for text in figure.axes[0].get_legend().get_texts()]


def test_correct_is_in_the_hole_first_in_the_legend_and_the_seeds_rate_beside_it():
    figure = plot_pass_fail_distribution(fixed_summary())  # 1,000 cases: 790 correct, 812 passed, 7 errors
    assert "79.0%" in texts(figure) and "correct\nصحيح" in texts(figure)
    assert legend(figure) == ["Correct — صحيح\n790 cases · 79.0%",
                              "Passed, not correct — ناجح وغير صحيح\n22 cases · 2.2%",
                              "Failed — راسب\n181 cases · 18.1%",
                              "Errors — أخطاء\n7 cases · 0.7%",
                              "Seed's pass rate — نسبة النجاح\n812 of 1,000 · 81.2%"]
    assert figure.get_suptitle().endswith("\n1,000 cases")


def test_with_repeats_the_donut_counts_answers():
    summary = fixed_summary()
    summary.loc[0, "cases"] = 500  # each case asked twice
    figure = plot_pass_fail_distribution(summary)
    assert legend(figure)[0] == "Correct — صحيح\n790 answers · 79.0%"
    assert figure.get_suptitle().endswith("\n1,000 answers")


def test_a_summary_from_before_correct_leads_with_the_pass_rate():
    summary = fixed_summary().drop(columns=["correct", "correct_rate", "correct_rate_low", "correct_rate_high"])
    figure = plot_pass_fail_distribution(summary)
    assert legend(figure)[0] == "Passed — ناجح\n812 cases · 81.2%" and "1,000" in texts(figure)
