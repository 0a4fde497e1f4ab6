"""The insight read into claims: each number with the label, measure word and comparator it is
attached to; none, yes/no, directions and superlatives found where they are said."""

from __future__ import annotations

from nabahan_pipeline.evaluation.claims.reading import read_claims
from nabahan_pipeline.evaluation.claims.labels import RowLabels

LABELS = RowLabels.of(["status_name", "tenders"], [["تمت الترسية", 11605], ["منتهية", 2614], ["ملغاة", 2359]])


def attached(insight: str) -> list[tuple[str, frozenset[int] | None, bool | None]]:
    return [(claim.mention.text, claim.attachment.rows if claim.attachment else None,
             claim.attachment.strong if claim.attachment else None)
            for claim in read_claims(insight, LABELS) if claim.kind == "number"]


def test_a_number_takes_the_label_before_it_in_its_clause() -> None:
    assert attached("الملغاة 2,359 والمنتهية 2,614") == [
        ("2,359", frozenset({2}), True), ("2,614", frozenset({1}), True)]


def test_a_number_takes_the_label_right_after_it_across_a_unit_noun_and_a_preposition() -> None:
    assert attached("2,359 منافسة للملغاة و2,614 في المنتهية") == [
        ("2,359", frozenset({2}), True), ("2,614", frozenset({1}), True)]


def test_a_number_in_the_same_clause_keeps_the_label_across_a_comma_weakly() -> None:
    assert attached("المنتهية 2,614 (11.7%)، أي نحو ثُمن المنافسات") == [
        ("2,614", frozenset({1}), True), ("11.7%", frozenset({1}), True)]
    assert attached("المنتهية 2,614، أي 11.7%") == [("2,614", frozenset({1}), True), ("11.7%", frozenset({1}), False)]


def test_a_new_subject_or_a_contrast_word_stops_the_label() -> None:
    assert attached("المنتهية 2,614، والإجمالي 16,578")[1] == ("16,578", None, None)
    assert attached("المنتهية 2,614 مقابل 2,359 للملغاة")[1] == ("2,359", frozenset({2}), True)


def test_measure_and_comparator_are_read_before_the_number() -> None:
    insight = "بلغ متوسط عدد العروض 2.4، وأكثر من 2,000 منافسة ملغاة"
    claims = [c for c in read_claims(insight, LABELS) if c.kind == "number"]
    assert [(c.measure, c.comparator) for c in claims] == [("avg", None), (None, ">")]
    claims = [c for c in read_claims("يقارب عدد المنافسات في المنطقة 300 منافسة", LABELS) if c.kind == "number"]
    assert claims[0].comparator == "~" and claims[0].measure == "count"


def test_yes_no_direction_superlative_and_none_are_found() -> None:
    insight = "لا، انخفضت الملغاة وأقل الحالات المنتهية، ولا توجد أي منافسة نشطة"
    kinds = [(c.kind, c.sign) for c in read_claims(insight, LABELS)]
    assert ("yes_no", -1) in kinds and ("direction", -1) in kinds and ("superlative", -1) in kinds
    assert [c.kind for c in read_claims("لا توجد أي منافسة نشطة", LABELS)] == ["none"]
    assert [c.kind for c in read_claims("أكثر من 2,000 منافسة", LABELS)] == ["number"]  # a bound, no superlative
    assert [c.kind for c in read_claims("الربع الأول من العام", LABELS)] == []
