"""Row labels in the spellings answers use."""

from __future__ import annotations

from nabahan_pipeline.evaluation.claims.folding import Folded
from nabahan_pipeline.evaluation.claims.labels import RowLabels


def named(labels: RowLabels, text: str) -> list[tuple[str, frozenset[int]]]:
    return [(label.text, label.rows) for label in labels.find(Folded.of(text))]


def test_a_region_is_named_by_its_full_short_and_english_names() -> None:
    labels = RowLabels.of(["region_name", "n"], [["منطقة الرياض", 1], ["المنطقة الشرقية", 2], ["منطقة مكة المكرمة", 3]])
    assert named(labels, "الرياض ثم الشرقيه ثم Makkah ومكة") == [
        ("الرياض", frozenset({0})), ("الشرقيه", frozenset({1})), ("Makkah", frozenset({2})), ("مكة", frozenset({2}))]


def test_statuses_and_types_are_named_in_their_definite_and_plural_forms() -> None:
    labels = RowLabels.of(["status", "type", "n"], [["ملغاة", "منافسة عامة", 1], ["تمت الترسية", "شراء مباشر", 2]])
    assert [rows for _, rows in named(labels, "المنافسات العامة الملغاة، والشراء المباشر المرساة")] == [
        frozenset({0}), frozenset({0}), frozenset({1}), frozenset({1})]


def test_years_months_and_padded_names_are_labels() -> None:
    labels = RowLabels.of(["year", "month", "activity", "n"],
                          [[2024, 3, "\tالتشغيل والصيانة\t", 1], [2025, 4, "تقنية المعلومات", 2]])
    assert [text for text, _ in named(labels, "في 2025 الشهر 3 (مارس)، التشغيل والصيانة")] == [
        "2025", "الشهر 3", "مارس", "التشغيل والصيانة"]


def test_a_name_with_a_comma_inside_is_one_label() -> None:
    name = "مقاولات عامة للمباني (الانشاء، الإصلاح، الهدم، الترميم)"
    labels = RowLabels.of(["activity", "n"], [[name, 1]])
    assert named(labels, f"«{name}» بـ1,313") == [(name, frozenset({0}))]
