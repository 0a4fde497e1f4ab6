"""The claims judge mutation-tested (issue 36 item 6): right answers changed in meaning must be judged
not Correct, and rewritten without changing it must stay Correct. The target is 97 % per operator,
and every operator holds it (FLOORS; docs/claims.md has the table), so no change lowers one unseen.

bench/mutate_claims.py makes and scores the mutants; this test runs it as a subprocess and reads its
JSON, because bench/ and the tests may not import each other and the operators are no part of the
product. The generator is tested here too, from the same JSON and with our own vocabulary: each
operator changes what it says it changes, rewrites keep the figures, equivalents are dropped, and
the same seed gives the same mutants.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from nabahan_pipeline.arabic.numbers import find_numbers

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "bench" / "mutate_claims.py"
TARGET = 0.97
# The share each operator must keep: every operator meets TARGET now (issue 36), so each floor is
# TARGET; an operator that falls below it again is a regression of the checker (or of the generator).
FLOORS = dict.fromkeys((
    "swap_figures", "other_row_figure", "other_column_figure", "other_row_label", "ordinal_word",
    "ratio_word", "comparative_word", "bound_word", "direction_word", "negation", "month_word",
    "unit_word", "measure_word", "status_word", "extra_row", "other_base_percentage", "wrong_total",
    "arabic_indic_digits", "number_words", "markdown_bullets", "bold", "preface", "closing_offer",
    "reorder_bullets", "rounding_last_digit", "dialect_saudi", "dialect_other",
), TARGET)
pytestmark = pytest.mark.slow


def _run(out: Path, *args: str) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, str(SCRIPT), "--json", str(out), *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(out.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return _run(tmp_path_factory.mktemp("mutants") / "scored.json")


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return _run(tmp_path_factory.mktemp("mutants") / "generated.json", "--no-score")


def _by_operator(run: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    grouped: dict[str, list[dict[str, Any]]] = {}
    for mutant in run["all_mutants"]:
        grouped.setdefault(mutant["operator"], []).append(mutant)
    return grouped


def _values(text: str) -> list[float]:
    return sorted(round(m.value, 6) for m in find_numbers(text))


# --- the judge ---------------------------------------------------------------------------------------


def test_every_operator_keeps_its_floor_and_the_met_ones_97_percent(scored: dict[str, Any]) -> None:
    assert set(scored["operators"]) == set(FLOORS), "an operator added or gone: give it its floor"
    below = {name: f"{row['as_expected']}/{row['mutants']} under {FLOORS[name]:.0%}; e.g. "
                   + "; ".join(f"{f['source']}: {f['text'][-100:]!r} ({f['because'] or 'Correct'})"
                               for f in row["failures"][:1])
             for name, row in scored["operators"].items()
             if row["share"] is None or row["share"] < FLOORS[name]}
    assert not below, "\n".join(f"{name}: {why}" for name, why in below.items())


def test_at_least_2000_mutants_over_12_changing_operators_and_8_rewrites(scored: dict[str, Any]) -> None:
    operators = scored["operators"]
    kinds = Counter(row["kind"] for row in operators.values() if row["mutants"] >= 20)
    assert scored["mutants"] >= 2000 and len(scored["all_mutants"]) == scored["mutants"]
    assert kinds["changing"] >= 12 and kinds["preserving"] >= 8, kinds
    assert sum(row["mutants"] for row in operators.values()) == scored["mutants"]


# --- the generator -----------------------------------------------------------------------------------


def test_the_same_seed_makes_the_same_mutants(scored: dict[str, Any], generated: dict[str, Any]) -> None:
    # The scored run leaves out the mutants of the few answers not judged Correct themselves.
    kept = [(m["operator"], m["source"], m["text"]) for m in generated["all_mutants"]]
    scored_ones = [(m["operator"], m["source"], m["text"]) for m in scored["all_mutants"]]
    assert set(scored_ones) <= set(kept)
    assert [k for k in kept if k in set(scored_ones)] == scored_ones
    assert len(kept) - len(scored_ones) <= 0.05 * len(kept)


def test_a_mutant_is_its_source_with_its_edits_and_never_the_source_itself(generated: dict[str, Any]) -> None:
    seen = set()
    for mutant in generated["all_mutants"]:
        text = mutant["before"]
        for start, end, new in sorted(mutant["edits"], reverse=True):
            text = text[:start] + new + text[end:]
        assert text == mutant["text"], mutant
        assert mutant["text"] != mutant["before"], mutant
        key = (mutant["operator"], mutant["source"], mutant["text"])
        assert key not in seen, key
        seen.add(key)


def test_equivalent_mutants_are_dropped_and_counted(generated: dict[str, Any]) -> None:
    assert generated["equivalent_dropped"] > 0
    for mutant in _by_operator(generated)["swap_figures"]:
        (s1, e1, new1), (s2, e2, new2) = mutant["edits"]
        old1, old2 = mutant["before"][s1:e1], mutant["before"][s2:e2]
        assert (new1, new2) == (old2, old1)
        assert _values(old1) != _values(old2), f"a swap of equal figures kept: {mutant['text']}"


def _cells(generated: dict[str, Any], mutant: dict[str, Any]) -> set[float]:
    rows = generated["source_rows"][mutant["source"]]["rows"]
    return {round(float(v), 2) for row in rows for v in row if isinstance(v, (int, float))}


def test_figure_operators_put_in_another_cell_of_the_result(generated: dict[str, Any]) -> None:
    grouped = _by_operator(generated)
    for name in ("other_row_figure", "other_column_figure"):
        assert grouped[name], name
        for mutant in grouped[name]:
            [(start, end, new)] = mutant["edits"]
            old = mutant["before"][start:end]
            assert float(new.replace(",", "")) != float(old.replace(",", "")), mutant
            after = mutant["text"][start:]
            mention = find_numbers(after)[0]  # with its scale word, as the rows hold it
            assert any(abs(mention.value - cell) <= mention.readings[0].unit / 2 + 0.01
                       for cell in _cells(generated, mutant)), mutant["text"]


WORD_PAIRS = {
    "comparative_word": {"أكثر", "أقل", "أعلى", "أدنى", "أكبر", "أصغر", "فوق", "تحت", "أعلاها", "أدناها", "تتذيل",
                         "يتذيل", "يقل", "تقل", "لم يبلغ"},
    "unit_word": {"ألف", "مليون", "مليار", "آلاف", "ملايين", "مليارات"},
    "month_word": {"يناير", "فبراير", "مارس", "أبريل", "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر", "أكتوبر",
                   "نوفمبر", "ديسمبر", "محرم", "ربيع", "جمادى", "رجب", "شعبان", "رمضان", "شوال", "ذو القعدة",
                   "ذو الحجة",
                   "كانون", "شباط", "آذار", "نيسان", "أيار", "حزيران", "تموز", "آب", "أيلول", "تشرين"},
    "direction_word": {"ارتفع", "انخفض", "زيادة", "نقص", "نمو", "تراجع", "ارتفاع", "انخفاض"},
    "status_word": {"النشطة", "الملغاة", "المنتهية", "ملغاة", "منتهية", "نشطة", "الترسية", "شراء مباشر",
                    "منافسة عامة", "المنافسة العامة", "الشراء المباشر", "منافسة محدودة"},
    "measure_word": {"عرض", "عروض", "الترسية", "التقديرية", "متوسط", "إجمالي", "العروض", "المناقصات"},
    "ratio_word": {"ضعف", "أضعاف", "نصف", "ثلث", "ربع"},
    "ordinal_word": {"أول", "ثاني", "ثالث", "رابع", "خامس", "سادس", "سابع", "ثامن", "تاسع", "عاشر", "المرتبة",
                     "أولاً", "ثانياً", "ثالثاً", "الأولى"},
}


def test_word_operators_change_a_word_of_their_kind(generated: dict[str, Any]) -> None:
    grouped = _by_operator(generated)
    for name, vocabulary in WORD_PAIRS.items():
        assert grouped.get(name), name
        for mutant in grouped[name]:
            edits = mutant["edits"]
            old = " ".join(mutant["before"][s:e] for s, e, _ in edits)
            new = " ".join(n for _, _, n in edits)
            numbered = name == "ordinal_word" and re.fullmatch(r"\d+ \d+", new)  # two items' numbers exchanged
            assert numbered or any(word in new for word in vocabulary), (name, old, new)
            assert old != new


NEGATIONS = re.compile(r"(?<![\u0621-\u064a])(لا|لم|ليس|ليست|ما|غير|خارج|مو)(?![\u0621-\u064a])")


def test_negation_puts_in_or_takes_out_a_negation(generated: dict[str, Any]) -> None:
    for mutant in _by_operator(generated)["negation"]:
        before, after = (len(NEGATIONS.findall(t)) for t in (mutant["before"], mutant["text"]))
        assert before != after, mutant


def test_bounds_are_broken_by_the_figure_they_replace(generated: dict[str, Any]) -> None:
    for mutant in _by_operator(generated)["bound_word"]:
        [(start, end, new)] = mutant["edits"]
        old = find_numbers(mutant["before"][start:end])[0].value
        bound = find_numbers(new)[0].value
        above = new.startswith(("أكثر من", "ما يزيد على"))
        assert (bound > old) if above else (bound < old), mutant


def test_extra_rows_and_totals_are_not_in_the_result(generated: dict[str, Any]) -> None:
    grouped = _by_operator(generated)
    for mutant in grouped["extra_row"]:
        [(_, _, new)] = mutant["edits"]
        label = new.strip().removeprefix("- ").rsplit(":", 1)[0]
        rows = generated["source_rows"][mutant["source"]]["rows"]
        assert all(label != str(v) for row in rows for v in row), mutant
    for mutant in grouped["wrong_total"]:
        rows = generated["source_rows"][mutant["source"]]["rows"]
        columns = generated["source_rows"][mutant["source"]]["columns"]
        [(start, end, new)] = mutant["edits"]
        total = find_numbers(new)[0].value
        # an id column's sum is no total ("41.17 مليار" is not the 41 the type ids add up to)
        sums = {round(sum(row[c] for row in rows), 2) for c in range(len(rows[0]))
                if all(isinstance(row[c], (int, float)) for row in rows) and not columns[c].endswith("_id")}
        assert all(abs(total - s) > 0.5 for s in sums), mutant


def test_a_percentage_on_the_other_base_is_a_new_figure(generated: dict[str, Any]) -> None:
    for mutant in _by_operator(generated)["other_base_percentage"]:
        before = {m.value for m in find_numbers(mutant["before"]) if m.percent}
        after = {m.value for m in find_numbers(mutant["text"]) if m.percent}
        assert after - before, mutant


KEEP_FIGURES = ("arabic_indic_digits", "number_words", "markdown_bullets", "bold", "preface", "reorder_bullets",
                "dialect_saudi", "dialect_other")


def test_rewrites_keep_every_figure(generated: dict[str, Any]) -> None:
    grouped = _by_operator(generated)
    for name in KEEP_FIGURES:
        assert grouped.get(name), name
        for mutant in grouped[name]:
            assert _values(mutant["text"]) == _values(mutant["before"]), (name, mutant["text"])
    for mutant in grouped["closing_offer"]:
        body, _, offer = mutant["text"].rpartition("\n\n")
        assert body == mutant["before"] and offer.endswith("؟") and find_numbers(offer), mutant
    for mutant in grouped["rounding_last_digit"]:
        changed = [(o, n) for o, n in zip(find_numbers(mutant["before"]), find_numbers(mutant["text"]))
                   if o.value != n.value]
        assert len(changed) <= 1, mutant  # none when a zero decimal went ("77.0 مليون" -> "نحو 77 مليون")
        for old, new in changed:
            digits = re.sub(r"\D", "", new.text)
            last = new.readings[0].unit if new.decimals else new.scale * 10 ** (len(digits) - len(digits.rstrip("0")))
            assert abs(old.value - new.value) <= last / 2 + 1e-9, mutant  # within half a unit of its last digit
            assert re.search("نحو|قرابة|حوالي|تقريب|يقارب", mutant["text"][:new.start]), mutant
