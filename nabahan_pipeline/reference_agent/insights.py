"""Result rows -> a short Arabic answer that states the figures of the result.

Every number written is a cell of the rows, the number of rows, a column's sum, a share of a
column's total computed from the rows, or a number the question stated, so that each can be traced
back. Amounts take thousands separators (two decimals with halalas), large ones also in millions or
billions."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from nabahan_pipeline.arabic import hijri_calendar as hc
from nabahan_pipeline.reference_agent import lexicon as lx
from nabahan_pipeline.reference_agent.lookup_catalog import Catalog
from nabahan_pipeline.reference_agent.parser import QueryFrame, Refusal
from nabahan_pipeline.reference_agent.parser.values import AVERAGE
from nabahan_pipeline.reference_agent.parser.frame import Condition
from nabahan_pipeline.reference_agent.sql_builder import DIMENSIONS, METRIC_PREFIXES, TABLES

SHOWN_ITEMS = 3
_WORDING = lx.package_data("wording.json")  # the nouns and sentences answers are worded with

# Each grouping dimension: its noun, its plural, and the unit a count of its values takes (singular, plural).
_DIMENSION_NOUNS: dict[str, tuple[str, ...]] = {key: tuple(words) for key, words in _WORDING["DIMENSION_NOUNS"].items()}
_LOOKUP_NOUNS: dict[str, tuple[str, ...]] = {key: tuple(words) for key, words in _WORDING["LOOKUP_NOUNS"].items()}
_COLUMN_NOUNS: dict[str, str] = _WORDING["COLUMN_NOUNS"]
_MONEY = {"value", "awarded", "booklet"}
_MEASURE_WORDS = {"count": "عدد", "sum": "إجمالي", "avg": "متوسط", "max": "أعلى", "min": "أدنى"}
_UNIT_WORDS = {"value": " ريال", "awarded": " ريال", "booklet": " ريال", "duration": " شهراً", "bids": " عرضاً"}
# A row's columns by field: the figures a row is shown with, and a tender's dates other than its publish date
# (rows ranked by one show it).
_COLUMNS = {**TABLES["projects"].columns, **TABLES["tenders"].columns}
_ROW_FIGURES = ("value", "awarded", "bids", "booklet", "duration")
_DATE_FIELDS = ("deadline", "enquiry", "opening")

# The apologies by refusal reason; and what each topic of ``lexicon.UNHELD_DATA`` is called in one.
APOLOGIES: dict[str, str] = _WORDING["APOLOGIES"]
UNHELD_NAMES: dict[str, str] = _WORDING["UNHELD_NAMES"]


def understood_note(understood: tuple[tuple[str, str], ...]) -> str:
    """The words of a question read back from a typo, said before the answer, so that the asker
    sees which question was answered: "قرأت «الرياص» على أنها «الرياض». "."""
    return "قرأت " + "، و".join(f"«{typed}» على أنها «{meant}»" for typed, meant in understood) + ". "


# The ranks an ordinal question asks for, as the insight says them ("في المرتبة الرابعة").
_RANK_WORDS = {int(rank): word for rank, word in _WORDING["RANK_WORDS"].items()}


def unused_note(unused: tuple[str, ...]) -> str:
    """The words of a clause beside the question that the answer did not use, said after it, so
    that the asker sees they changed nothing: " (لم أستخدم من السؤال: «بصراحة»، «محتار».)"."""
    return " (لم أستخدم من السؤال: " + "، ".join(f"«{w}»" for w in unused) + "؛ لا تغيّر ما سُئل عنه.)"


def apology(refusal: Refusal) -> str:
    """The Arabic apology for a refused question."""
    reason = "off_topic_named" if refusal.reason == "off_topic" and refusal.topic else refusal.reason
    text = APOLOGIES.get(reason, APOLOGIES["unknown"])
    words = "، ".join(f"«{w}»" for w in refusal.words)
    topic = UNHELD_NAMES.get(refusal.topic, "هذه البيانات")
    return text.format(words=words, topic=topic, first=hc.FIRST_YEAR, last=hc.LAST_YEAR)


def write_insight(frame: QueryFrame, rows: Sequence[dict[str, Any]], catalog: Catalog) -> str:
    """One to three Arabic sentences that state the figures of ``rows`` for ``frame``."""
    if frame.entity in _LOOKUP_NOUNS:
        return _lookup(frame, rows)
    scope = _Scope.of(frame, catalog)
    if frame.sides:
        return _difference(frame, rows, scope)
    if frame.group_by:
        return _groups(frame, rows, scope)
    if frame.measure == "rows":
        return _rows(frame, rows, scope)
    return _aggregate(frame, rows, scope)


# --- wording helpers ----------------------------------------------------------------------------


def money(value: float) -> str:
    """An amount with thousands separators, with halalas when it has them."""
    value = float(value)
    return f"{value:,.0f}" if abs(value - round(value)) < 0.005 else f"{value:,.2f}"


def approx_money(value: float) -> str:
    """Large amounts also in millions or billions, rounded from the exact value ("" when small)."""
    value = float(value)
    if value >= 1e9:
        return f" (نحو {value / 1e9:,.2f} مليار ريال)"
    if value >= 1e6:
        return f" (نحو {value / 1e6:,.2f} مليون ريال)"
    return ""


def count(value: float) -> str:
    """A whole count with thousands separators."""
    return f"{int(value):,}"


def counted(n: float, singular: str, plural: str) -> str:
    """A number with its noun: plural for 3 to 10, singular otherwise (as written with digits)."""
    return f"{count(n)} {plural if 3 <= int(n) <= 10 else singular}"


def li(phrase: str) -> str:
    """The preposition ل before a phrase: "للمناقصات", "لمشاريع"."""
    return "لل" + phrase[2:] if phrase.startswith("ال") else "ل" + phrase


def display(name: Any) -> str:
    """A name from the data as shown in prose: tabs and tatweel gone, Persian yeh as Arabic yeh."""
    text = str(name).replace("\u06cc", "\u064a").replace("\u0640", "")
    return " ".join(text.split())


def _amount(column: str, value: float) -> str:
    if isinstance(value, str):
        return value  # a date (an ISO day), as the data holds it
    return "عرض واحد" if column == "bids" and value == 1 else money(value) + _UNIT_WORDS.get(column, "")


def _status_wording(name: str | None) -> tuple[str, str]:
    """How a status name from the data reads after "المناقصات" and after "مناقصة": "نشطة" ->
    ("النشطة", "نشطة"), "قيد الفحص" stays, the verb phrase "تمت الترسية" agrees with the noun
    ("التي تمت ترسيتها", "تمت ترسيتها")."""
    if not name:
        return "", ""
    verb = re.fullmatch(r"(تمت?) ال(\w+)ة", name)
    if verb:
        clause = f"{verb.group(1)} {verb.group(2)}تها"
        return "التي " + clause, clause
    return (name if " " in name else "ال" + name), name


# How a condition on each field qualifies the rows ("{label}" when not here).
_QUALIFIERS = {
    "activity": "في نشاط {name}", "agency": "لدى {name}", "date": "{time}",
    "deadline": "التي يحل آخر موعد لتقديم عروضها {time}", "enquiry": "التي تنتهي مهلة الاستفسارات فيها {time}",
    "opening": "التي يحل موعد فتح عروضها {time}",
}


class _Scope:
    """The rows a question is about, in words: "المناقصات النشطة في منطقة الرياض"."""

    def __init__(
        self, catalog: Catalog, noun: str, unit: str, units: str, qualifiers: list[str], indefinite: list[str]
    ) -> None:
        self.catalog = catalog
        self.noun, self.unit, self.units = noun, unit, units
        self.qualifiers, self.indefinite = qualifiers, indefinite

    @classmethod
    def of(cls, frame: QueryFrame, catalog: Catalog) -> _Scope:
        qualifiers: list[str] = []
        indefinite: list[str] = []
        order = (
            "reference", "tender_name", "status", "type", "activity", "agency", "region", "date", "deadline",
            "enquiry", "opening", "value", "awarded", "bids", "booklet", "duration",
        )
        for field in order:
            for c in (c for c in frame.conditions if c.field == field):
                negated = c.op in ("not_in", "is_null") or (field == "status" and c.label.startswith("غير"))
                if field == "status" and not negated:
                    wordings = [_status_wording(catalog.statuses.get(i)) for i in c.values]
                    qualifiers.append(" أو ".join(definite for definite, _ in wordings))
                    indefinite.append(" أو ".join(plain for _, plain in wordings))
                    continue
                if negated or (field in _DATE_FIELDS and c.op in ("<", ">=")):
                    text = c.label  # a negation, or a date passed or not by the as-of date: as worded
                else:
                    wording = _QUALIFIERS.get(field, "{label}")
                    text = wording.format(label=c.label, name=display(c.label), time=_time_phrase(c.label))
                qualifiers.append(text)
                indefinite.append(text)
        projects = frame.entity == "projects"
        nouns = ("المشاريع المستقبلية", "مشروع", "مشاريع") if projects else ("المناقصات", "مناقصة", "مناقصات")
        return cls(catalog, *nouns, qualifiers, indefinite)

    @property
    def definite(self) -> str:
        return " ".join([self.noun, *self.qualifiers])

    @property
    def conditions(self) -> str:
        return "، ".join(q for q in self.indefinite if q)

    def none_found(self) -> str:
        asked = f" تطابق شروط السؤال ({self.conditions})" if self.conditions else ""
        return f"لم أجد في البيانات أي {self.unit}{asked}."


def _time_phrase(label: str) -> str:
    if label.startswith(("خلال", "من ", "منذ", "قبل", "بعد", "حتى", "في ", "هذا", "الشهر", "العام")):
        return label
    return f"في {label}"


def _title(row: dict[str, Any], entity: str) -> str:
    """How to name one row: its quoted title, else (a title with digits would read as figures)
    the agency that published it."""
    title = row.get("tender_name" if entity == "tenders" else "project_name")
    agency = row.get("agency_name")
    unit = "مناقصة" if entity == "tenders" else "مشروع"
    if isinstance(title, str) and title.strip() and not any(ch.isdigit() for ch in title):
        text = f"«{display(title)}»"
        if agency and not any(ch.isdigit() for ch in str(agency)):
            text += f" لدى {display(agency)}"
        return text
    if agency and not any(ch.isdigit() for ch in str(agency)):
        return f"{unit} لدى {display(agency)}"
    return unit


# --- answers --------------------------------------------------------------------------------------


def _aggregate(frame: QueryFrame, rows: Sequence[dict[str, Any]], scope: _Scope) -> str:
    values = list(rows[0].values()) if rows else []
    first = values[0] if values else None
    if frame.measure == "count":
        if not first:
            return scope.none_found()
        return f"بلغ عدد {scope.definite} في البيانات {counted(first, scope.unit, scope.units)}."
    if frame.measure == "share":
        matching, total, share = (values + [None, None, None])[:3]
        if not total:
            return scope.none_found()
        part = _Scope.of(QueryFrame(entity=frame.entity, conditions=frame.share_of), scope.catalog)
        whole = scope.definite if scope.qualifiers else "إجمالي " + scope.noun
        if frame.column:
            return (
                f"حصة {part.definite} من {_COLUMN_NOUNS[frame.column]} {li(whole)}: {float(share or 0):.1f}% "
                f"({_amount(frame.column, matching or 0)} من أصل {_amount(frame.column, total)})."
            )
        return (
            f"نسبة {part.definite} من {whole}: {float(share or 0):.1f}% "
            f"({count(matching or 0)} من أصل {counted(total, scope.unit, scope.units)})."
        )
    if frame.measure == "count_distinct":
        dimension = frame.distinct_of or "agency"
        _, plural, unit, _ = _DIMENSION_NOUNS[dimension]
        if not first:
            return scope.none_found()
        return f"عدد {plural} المختلفة في {scope.definite}: {count(first)} {unit}."
    column = frame.column or "value"
    counted_rows = values[1] if len(values) > 1 else None
    if first is None or not counted_rows:
        return scope.none_found()
    noun = _COLUMN_NOUNS[column]
    amount = _amount(column, first) + (approx_money(first) if column in _MONEY else "")
    if frame.measure == "sum":
        return f"إجمالي {noun} {li(scope.definite)}: {amount}، موزعة على {counted(counted_rows, scope.unit, scope.units)}."
    if frame.measure == "avg":
        return f"متوسط {noun} {li(scope.definite)}: {amount}، محسوباً على {counted(counted_rows, scope.unit, scope.units)}."
    word = "أعلى" if frame.measure == "max" else "أدنى"
    if column in ("deadline", "enquiry", "opening", "date"):
        word = "أبعد" if frame.measure == "max" else "أبكر"
    return f"{word} {noun} {li(scope.definite)}: {amount}."


def _difference(frame: QueryFrame, rows: Sequence[dict[str, Any]], scope: _Scope) -> str:
    """Both figures and the first less the second: "عدد المناقصات في منطقة الرياض: 7,044 مناقصة،
    وعدد المناقصات في منطقة مكة المكرمة: 3,558 مناقصة؛ الفرق بينهما 3,486 مناقصة"."""
    row = rows[0] if rows else {}
    first, second, difference = row.get("first_value"), row.get("second_value"), row.get("difference")
    word = _MEASURE_WORDS[frame.measure]
    catalog = scope.catalog

    def figure(value: Any, column: str) -> str:
        if frame.measure == "count":
            return counted(value, scope.unit, scope.units)
        return _amount(column, value) + (approx_money(value) if column in _MONEY else "")

    phrases = []
    for side in frame.sides:
        column = side.column or frame.column or "value"
        if side.conditions:
            side_scope = _Scope.of(replace(frame, conditions=frame.conditions + side.conditions, sides=()), catalog)
            what = side_scope.definite if frame.measure == "count" else f"{_COLUMN_NOUNS[column]} {li(side_scope.definite)}"
        else:
            what = f"{_COLUMN_NOUNS[column]} {li(scope.definite)}" if not phrases else _COLUMN_NOUNS[column]
        phrases.append(f"{word} {what}")
    if first is None or second is None or difference is None:
        return f"لا أجد في البيانات ما أحسب منه الفرق: {phrases[0]} و{phrases[1]}؛ أحدهما بلا قيم."
    column = frame.sides[0].column or frame.column or "value"
    verb = "يزيد الأول على الثاني" if difference >= 0 else "يقل الأول عن الثاني"
    text = (
        f"{phrases[0]}: {figure(first, column)}، و{phrases[1]}: {figure(second, frame.sides[1].column or column)}؛ "
        f"{verb} بمقدار {figure(abs(difference), column)}"
    )
    share = row.get("difference_pct")
    if frame.relative and share is not None:
        text += f"، أي {float(share):.1f}% من الأول"
    return text + "."


def _rows(frame: QueryFrame, rows: Sequence[dict[str, Any]], scope: _Scope) -> str:
    if not rows:
        return scope.none_found()
    entity = frame.entity
    column = frame.column if frame.column in _ROW_FIGURES else "value"

    def describe(row: dict[str, Any], key: str = column) -> str:
        value = row.get(_COLUMNS[key])
        if value is None:
            return _title(row, entity)
        return f"{_title(row, entity)} ({_COLUMN_NOUNS[key]} {_amount(key, value)})"

    if frame.ranked and entity == "tenders" and frame.column in _DATE_FIELDS:
        # "أقرب 5 منافسات ينتهي موعد تقديم عروضها": each with the date it was ranked by.
        word = "أقرب" if frame.order == "asc" else "أبعد"
        items = "، ".join(f"{i}) {describe(row, frame.column)}" for i, row in enumerate(rows[:SHOWN_ITEMS], 1))
        return f"{word} {counted(len(rows), scope.unit, scope.units)} من {scope.definite}: {items}."
    if frame.ranked:
        word, among, key = _rank_word(frame), f"من حيث {_COLUMN_NOUNS[column]} بين", column
        if frame.column in ("date", "deadline"):
            among, key = "من", "value"
            if entity == "projects":
                word = "أقرب" if frame.order == "asc" else "أبعد"
            else:
                word = "أحدث" if frame.order == "desc" else "أقدم"
        if len(rows) == 1:
            return f"{word} {scope.unit} {among} {scope.definite}: {describe(rows[0], key)}."
        items = "، ".join(f"{i}) {describe(row, key)}" for i, row in enumerate(rows[:SHOWN_ITEMS], 1))
        return f"{word} {counted(len(rows), scope.unit, scope.units)} {among} {scope.definite}: {items}."
    # A plain list: how many, their total value, and the largest.
    total = sum(float(row.get("estimated_value") or 0) for row in rows)
    if len(rows) == 1:
        one = f"{scope.unit} واحدة" if entity == "tenders" else "مشروعاً واحداً"
        return f"وجدت {one} فقط من {scope.definite}: {describe(rows[0], 'value')}."
    top = max(rows, key=lambda row: float(row.get("estimated_value") or 0))
    return (
        f"وجدت {counted(len(rows), scope.unit, scope.units)} من {scope.definite}، "
        f"إجمالي قيمتها التقديرية {money(total)} ريال{approx_money(total)}. "
        f"أعلاها قيمة {describe(top, 'value')}."
    )


def _rank_word(frame: QueryFrame) -> str:
    most, least = {"bids": ("أكثر", "أقل"), "duration": ("أطول", "أقصر")}.get(frame.column or "value", ("أعلى", "أدنى"))
    return most if frame.order == "desc" else least


_NAME_COLUMNS = {dimension: name for dimension, (_, name) in DIMENSIONS.items()}
# A group of a period in words, from its columns; of a column's values, with the words for none.
_PERIOD_LABELS = {"year": "عام {year}", "month": "شهر {year_month}", "quarter": "الربع {quarter} من عام {year}"}
_UNSTATED = {"booklet": "سعر غير محدد", "duration": "مدة غير محددة", "bids": "عدد عروض غير محدد"}
_VALUE_HEADS = {"booklet": "كراسة بسعر "}


def _groups(frame: QueryFrame, rows: Sequence[dict[str, Any]], scope: _Scope) -> str:
    dimension = frame.group_by[0]
    singular_noun, plural_noun, unit, units = _DIMENSION_NOUNS[dimension]
    if not rows and frame.having is not None:
        return f"لم أجد في البيانات {unit} {_metric_phrase(frame, scope)} فيها {_threshold_phrase(frame.having)}."
    if not rows:
        return scope.none_found()
    metric_column = _metric_column(frame, list(rows[0].keys()))

    def label(row: dict[str, Any]) -> str:
        parts = []
        for dim in frame.group_by:
            if dim in _NAME_COLUMNS:
                name = row.get(_NAME_COLUMNS[dim])
                parts.append(display(name) if name is not None else "غير محدد")
            elif dim in _PERIOD_LABELS:
                parts.append(_PERIOD_LABELS[dim].format_map(defaultdict(lambda: None, row)))
            elif dim in _UNSTATED:
                value = row.get(dim)
                parts.append(_VALUE_HEADS.get(dim, "") + _amount(dim, value) if value is not None else _UNSTATED[dim])
        return " - ".join(parts)

    def figure(row: dict[str, Any]) -> str:
        value = row.get(metric_column)
        if value is None:
            return "بلا قيمة"
        if frame.measure == "count":
            return counted(value, scope.unit, scope.units)
        return _amount(frame.column or "value", value)

    metric = _metric_phrase(frame, scope)
    if frame.having is not None:
        # "المناطق التي يتجاوز ...": every group that passes, each with its figure.
        shown = "، ".join(f"{label(row)} ({figure(row)})" for row in rows[:SHOWN_ITEMS])
        rest = len(rows) - SHOWN_ITEMS
        more = f" و{unit} أخرى" if rest == 1 else f" و{counted(rest, unit, units)} أخرى" if rest > 1 else ""
        head = f"{plural_noun} التي {metric} فيها {_threshold_phrase(frame.having)}"
        return f"{head}: {counted(len(rows), unit, units)}: {shown}{more}."
    if frame.ranked:
        most, least = ("الأكثر", "الأقل") if frame.measure == "count" else ("الأعلى", "الأدنى")
        word = least if frame.order == "asc" else most
        if frame.offset:
            # "رابع منطقة": the rank said, never "the top one".
            # The ranks in words: a digit the rows do not hold would read as an ungrounded figure.
            ranks = [_RANK_WORDS.get(rank, "التالية") for rank in range(frame.offset + 1, frame.offset + 1 + len(rows))]
            items = "، ".join(f"{rank}: {label(row)} ({figure(row)})" for rank, row in zip(ranks, rows))
            return f"{plural_noun} {word} من حيث {metric}، في المرتبة {items}."
        if len(rows) == 1:
            return f"{singular_noun} {word} من حيث {metric}: {label(rows[0])} ({figure(rows[0])})."
        items = "، ".join(f"{i}) {label(row)} ({figure(row)})" for i, row in enumerate(rows[:SHOWN_ITEMS], 1))
        head = f"{plural_noun} {word} من حيث {metric} ({counted(len(rows), unit, units)})"
        return f"{head}: {items}."
    additive = frame.measure in ("count", "sum")
    total = sum(float(row.get(metric_column) or 0) for row in rows) if additive else 0.0

    def item(row: dict[str, Any]) -> str:
        text = f"{label(row)} ({figure(row)}"
        value = row.get(metric_column)
        if additive and total > 0 and value is not None:
            text += f"، {100.0 * float(value) / total:.1f}%"
        return text + ")"

    if dimension in ("year", "month", "quarter"):
        shown = rows if len(rows) <= 6 else rows[:SHOWN_ITEMS]
        text = f"{metric} حسب {singular_noun}: " + "، ".join(item(row) for row in shown) + "."
        if len(rows) > 6:
            best = max(rows, key=lambda row: float(row.get(metric_column) or 0))
            text += f" وأعلى {plural_noun} {label(best)} ({figure(best)})."
        return text
    leaders = sorted(rows, key=lambda row: float(row.get(metric_column) or 0), reverse=True)[:SHOWN_ITEMS]
    head = f"توزيع {metric} حسب {singular_noun} على {counted(len(rows), unit, units)}"
    if additive:
        head += f"، بإجمالي {_total_phrase(frame, scope, total)}"
    return f"{head}. في المقدمة: " + "، ".join(item(row) for row in leaders) + "."


def _threshold_phrase(having: Condition) -> str:
    """"أكثر من 900", "أقل من 1,000,000,000 ريال": the threshold each group passes."""
    word = {">": "أكثر من", "<": "أقل من", ">=": "لا تقل عن", "<=": "لا تزيد على"}[having.op]
    value = having.values[0]
    if value == AVERAGE:
        return f"{word} متوسطها"
    return f"{word} {count(value)}" if having.field == "count" else f"{word} {money(value)} ريال"


def _total_phrase(frame: QueryFrame, scope: _Scope, total: float) -> str:
    if frame.measure == "count":
        return counted(total, scope.unit, scope.units)
    return f"{money(total)} ريال{approx_money(total)}"


def _metric_phrase(frame: QueryFrame, scope: _Scope) -> str:
    column = _COLUMN_NOUNS.get(frame.column or "value", "القيمة التقديرية")
    if frame.measure == "count":
        return f"عدد {scope.definite}"
    word = _MEASURE_WORDS[frame.measure]
    return f"{word} {column} {li(scope.definite)}"


def _metric_column(frame: QueryFrame, columns: list[str]) -> str:
    if frame.measure == "count":
        return next(c for c in columns if c.endswith("_count"))
    return next(c for c in columns if c.startswith(METRIC_PREFIXES[frame.measure] + "_"))


def _lookup_column(frame: QueryFrame, rows: Sequence[dict[str, Any]]) -> str:
    """One column of the reference rows asked for: their English or Arabic names, their ids, or
    the region each agency is in."""
    plural = _LOOKUP_NOUNS[frame.entity][0]
    if not rows:
        return f"لم أجد في البيانات أياً من {plural} المطلوبة."
    items = []
    for row in rows[:8]:
        if frame.column == "region":
            items.append(f"تقع {display(row.get('agency_name', ''))} في {display(row.get('region_name', ''))}")
            continue
        arabic, english = display(row.get("name_ar", "")), display(row.get("name_en", ""))
        if frame.column == "name_en":
            items.append(f"الاسم الإنجليزي لـ«{arabic}»: {english}")
        elif frame.column == "name_ar":
            items.append(f"الاسم العربي لـ«{english}»: {arabic}")
        else:
            items.append(f"رقم «{arabic}» في البيانات: {next(iter(row.values()))}")
    rest = f"، و{count(len(rows) - 8)} غيرها" if len(rows) > 8 else ""
    return "؛ ".join(items) + rest + "."


def _lookup(frame: QueryFrame, rows: Sequence[dict[str, Any]]) -> str:
    if frame.column in ("name_en", "name_ar", "id", "region") and frame.measure == "rows":
        return _lookup_column(frame, rows)
    plural, unit, name_column = _LOOKUP_NOUNS[frame.entity]
    where = "".join(f" {c.label}" for c in frame.conditions if c.field == "region")
    # "الجامعات", "«تجاره»": which of the table's rows were asked for.
    named = [c.label for c in frame.conditions if c.field in ("agency", "activity")]
    where = "".join(f" التي في اسمها {n}" if n.startswith("«") else f" من {display(n)}" for n in named) + where
    value = next(iter(rows[0].values())) if rows else 0
    if not (value if frame.measure == "count" else rows):
        return f"لم أجد أي {plural}{where} في البيانات."
    if frame.measure == "count":
        return f"بلغ عدد {plural}{where} في البيانات {count(value)} {unit}."
    names = [display(row.get(name_column, "")) for row in rows]
    readable = [n for n in names if n and not any(ch.isdigit() for ch in n)]
    shown = "، ".join(readable[:8])
    rest = "، وغيرها" if len(readable) > 8 else ""
    return f"تضم البيانات {count(len(rows))} من {plural}{where}: {shown}{rest}."
