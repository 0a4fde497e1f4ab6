"""Agents' text in the Markdown the Dagster UI renders: shown literally, never as markup."""

from __future__ import annotations

import tracemalloc

import pandas as pd
import pytest

from nabahan_pipeline.escaping import csv_cell, markdown_table, markdown_text, one_line
from nabahan_pipeline.orchestration.io_manager import markdown_preview

# Part of the fault matrix (README, "Reliability and security"): pytest -m faults
pytestmark = pytest.mark.faults

HOSTILE = (
    '<img src=x onerror="alert(1)"> [click](javascript:alert(1)) ![x](http://evil.example/p.png) '
    "**bold** `code` | a | b\n# heading"
)


def test_markup_in_a_cell_is_escaped_and_the_table_keeps_its_shape():
    frame = pd.DataFrame({"case_id": ["c1", "c2"], "insights": [HOSTILE, "بلغ العدد 7"], "n": [1, 2]})
    preview = markdown_preview(frame)
    lines = preview.splitlines()
    assert len(lines) == 4, "one header, one rule, one line per row: no cell broke a line"
    assert all(line.count("|") - line.count("\\|") == 4 for line in lines), "no cell broke a column"
    for raw in ("<img", "[click](", "![x](", "**bold**", "`code`", "# heading"):
        assert raw not in preview, raw
    assert "&lt;img" in preview and "\\[click\\]" in preview and "بلغ العدد 7" in preview


def test_markdown_text_escapes_every_special_character():
    assert markdown_text("a_b*c[d]e`f<g>h&i|j!k~l#m\\n") == (
        "a\\_b\\*c\\[d\\]e\\`f&lt;g&gt;h&amp;i\\|j\\!k\\~l\\#m\\\\n"
    )


def test_cells_are_cut_before_escaping_so_no_escape_is_cut_in_two():
    table = markdown_table(pd.DataFrame({"x": ["<" * 100]}), cell_chars=10)
    assert "&lt;" * 9 + "…" in table and "&l…" not in table


def test_csv_cell_only_touches_text_that_starts_like_a_formula():
    assert csv_cell("=1+1") == "'=1+1" and csv_cell("-2") == "'-2" and csv_cell("@x") == "'@x"
    assert csv_cell("بلغ =1") == "بلغ =1" and csv_cell(-2) == -2 and csv_cell(None) is None


def test_bare_urls_and_emails_stay_text_yet_render_as_written():
    from markdown_it import MarkdownIt

    hostile = "زر https://evil.example/x أو WWW.evil.example أو mail a@evil.example: 60.0%"
    escaped = markdown_text(hostile)
    # GFM's autolink extension needs these runs of source characters; escaped, none is left.
    assert "https://" not in escaped and "www." not in escaped.lower() and "a@evil" not in escaped
    assert escaped.endswith("example: 60.0%\u2069"), "a dot or colon elsewhere is left as it is"
    html = MarkdownIt("commonmark").render(escaped)
    assert "<a" not in html and html.strip() == f"<p>\u2068{hostile}\u2069</p>"


def test_right_to_left_cells_are_isolated_and_lose_their_bidi_controls():
    """Arabic cells of the UI's tables between FSI and PDI, so "كم عدد المناقصات في 2024؟" reads in
    order beside Latin cells; an agent's own override or isolate (Trojan Source) never leaks out."""
    table = markdown_table(pd.DataFrame({"case_id": ["c1"], "question": ["كم عدد المناقصات في 2024؟"],
                                         "sql": ["SELECT 1"], "insight": ["بلغ \u202e7\u2069 \u2066مناقصة"]}))
    row = table.splitlines()[2]
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells == ["c1", "\u2068كم عدد المناقصات في 2024؟\u2069", "SELECT 1", "\u2068بلغ 7 مناقصة\u2069"]
    assert markdown_text("SELECT 1 -- \u202e") == "SELECT 1 -- ", "no Arabic: not isolated, still cleaned"


@pytest.mark.parametrize("chars", [1, 2, 5, 80])
@pytest.mark.parametrize("text", ["", "a", " a  b\n c ", "x" * 500, " \n\t" * 400 + "a b", ("ن " + " " * 30) * 200,
                                  "a" * 79 + "  \n  ", "word " * 100])
def test_one_line_reads_only_the_start_it_needs_and_says_what_the_whole_would(text: str, chars: int) -> None:
    whole = " ".join(text.split())
    assert one_line(text, chars) == (whole if len(whole) <= chars else whole[: chars - 1] + "…")


def test_a_cell_of_a_huge_text_is_cut_without_splitting_all_of_it():
    # A 30 MiB result once became millions of words (hundreds of MiB) for an 80-character cell.
    text = "قيمة نصية من عشرين حرفا " * 200_000
    tracemalloc.start()
    try:
        line = one_line(text, 80)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(line) == 80 and line.endswith("…")
    assert peak < 100_000, peak
