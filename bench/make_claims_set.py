"""Write nabahan_pipeline_tests/data/claims_labelled.json: insights over real rows of the embedded
database, labelled right or wrong by hand-written rules (issue 25's "What it must show").

    cd REPO && PYTHONPATH=$PWD /work/main/.venv/bin/python bench/make_claims_set.py   # rewrites the JSON

Every figure is read from the rows the item's SQL returns on the default database; the phrasings
are written here, many per question, in the styles agents use. A wrong item is the right answer
with exactly one fault of its kind.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from pathlib import Path

from nabahan_pipeline.etimad_db.store import ensure_database

OUT = Path(__file__).resolve().parents[1] / "nabahan_pipeline_tests" / "data" / "claims_labelled.json"
T = "tenders_full_details"
CON = sqlite3.connect(f"file:{ensure_database()}?mode=ro", uri=True)
ITEMS: list[dict] = []


def rows(sql: str) -> list[tuple]:
    return CON.execute(sql).fetchall()


def one(sql: str):
    return rows(sql)[0][0]


def add(question: str, category: str, sql: str | None, insight: str, label: str, kind: str, note: str = "") -> None:
    item = {"id": f"cl-{len(ITEMS) + 1:03d}", "question": question, "category": category,
            "status": "success" if sql else "out_of_scope", "sql": sql, "insight": insight,
            "label": label, "kind": kind}
    if note:
        item["note"] = note
    ITEMS.append(item)


def right(question, category, sql, insight, style, note=""):
    add(question, category, sql, insight, "right", style, note)


def wrong(question, category, sql, insight, kind, note=""):
    add(question, category, sql, insight, "wrong", kind, note)


# --- how numbers are written -------------------------------------------------------------------

_INDIC = str.maketrans("0123456789,.", "٠١٢٣٤٥٦٧٨٩٬٫")


def n(x: float) -> str:
    return f"{round(x):,}"


def ind(text: str) -> str:
    """Arabic-Indic digits (and separators)."""
    return text.translate(_INDIC)


def sar(v: float) -> str:
    """Money as agents write it: billions and millions with a scale word, at their precision."""
    if v >= 1e9:
        return f"{v / 1e9:.2f} مليار ريال"
    if v >= 1e6:
        return f"{v / 1e6:.1f} مليون ريال"
    return f"{round(v):,} ريال"


def wrong_approx(v: float) -> float:
    """A round figure that is not about ``v``: more than 25 % off and outside half a unit of its
    last non-zero digit, so that no reading of "about" lets it hold."""
    for factor in (1.4, 0.6, 1.6):
        target = v * factor
        scale = 10 ** (len(str(int(target))) - 2) if target >= 10 else 1
        bad = round(target / scale) * scale
        unit = scale
        while bad and bad % (unit * 10) == 0:
            unit *= 10
        if abs(bad - v) / v > 0.25 and abs(bad - v) > unit / 2:
            return bad
    raise AssertionError(v)


def pct(part: float, whole: float, digits: int = 1) -> str:
    return f"{100 * part / whole:.{digits}f}%"


_UNITS = ["", "واحد", "اثنان", "ثلاثة", "أربعة", "خمسة", "ستة", "سبعة", "ثمانية", "تسعة"]
_TEENS = {10: "عشرة", 11: "أحد عشر", 12: "اثنا عشر", 13: "ثلاثة عشر", 14: "أربعة عشر", 15: "خمسة عشر",
          16: "ستة عشر", 17: "سبعة عشر", 18: "ثمانية عشر", 19: "تسعة عشر"}
_TENS = ["", "", "عشرون", "ثلاثون", "أربعون", "خمسون", "ستون", "سبعون", "ثمانون", "تسعون"]
_HUNDREDS = ["", "مائة", "مائتان", "ثلاثمائة", "أربعمائة", "خمسمائة", "ستمائة", "سبعمائة", "ثمانمائة", "تسعمائة"]


def _below_thousand(x: int) -> list[str]:
    parts = []
    if x >= 100:
        parts.append(_HUNDREDS[x // 100])
        x %= 100
    if 10 <= x <= 19:
        parts.append(_TEENS[x])
    elif x:
        if x % 10:
            parts.append(_UNITS[x % 10])
        if x >= 20:
            parts.append(_TENS[x // 10])
    return parts


def words(x: int) -> str:
    """An integer below a million in Arabic words (the units before the tens, as Arabic says them)."""
    thousands, rest = divmod(int(x), 1000)
    parts = []
    if thousands == 1:
        parts.append("ألف")
    elif thousands == 2:
        parts.append("ألفان")
    elif 3 <= thousands <= 10:
        parts.append(f"{' و'.join(_below_thousand(thousands))} آلاف")
    elif thousands > 10:
        parts.append(f"{' و'.join(_below_thousand(thousands))} ألف")
    parts += _below_thousand(rest)
    return " و".join(parts) if parts else "صفر"


# --- the data ----------------------------------------------------------------------------------

REGION = {rid: name for rid, name in rows("SELECT region_id, name_ar FROM regions")}
REGION_EN = {rid: name for rid, name in rows("SELECT region_id, name_en FROM regions")}
AGENCY_EN = {ar: en for ar, en in rows("SELECT name_ar, name_en FROM government_agencies")}


def short(name: str) -> str:
    return name.replace("منطقة ", "").replace("المنطقة ", "ال").replace("الال", "ال")


SQL_REGIONS = (f"SELECT region_name, COUNT(*) AS tenders FROM {T} WHERE region_id IS NOT NULL "
               "GROUP BY region_id ORDER BY tenders DESC")
REGION_COUNTS = rows(SQL_REGIONS)
RC = {short(name): count for name, count in REGION_COUNTS}
REGION_TOTAL = sum(RC.values())


def build() -> None:
    region_ranking()
    single_region_counts()
    yearly_by_region()
    yearly_values()
    top_agencies()
    status_shares()
    type_distribution()
    thresholds()
    none_claims()
    measures()
    derived()
    implied_dates()
    hijri_years()
    teens()
    refusals()
    date_windows()
    future_projects()
    lookups()
    monthly()
    agencies_by_region()
    types_yearly()
    bounds()
    more_none()
    more_words_and_english()
    more_wrong()
    mixed_styles()


def region_ranking() -> None:
    q1 = "كم عدد المنافسات في كل منطقة؟"
    q2 = "رتب المناطق حسب عدد المنافسات"
    q3 = "وش أكثر منطقة فيها منافسات؟"
    (r1, c1), (r2, c2), (r3, c3) = [(short(a), b) for a, b in REGION_COUNTS[:3]]
    last, clast = short(REGION_COUNTS[-1][0]), REGION_COUNTS[-1][1]
    before_last, cbl = short(REGION_COUNTS[-2][0]), REGION_COUNTS[-2][1]
    s = SQL_REGIONS
    right(q1, "distribution", s, f"تتصدر منطقة {r1} بعدد {n(c1)} منافسة، تليها {r2} بـ{n(c2)} ثم {r3} بـ{n(c3)}، "
          f"بينما تأتي {last} في آخر القائمة بـ{n(clast)} منافسة فقط.", "llm_prose")
    right(q2, "distribution", s, f"1. {r1}: {n(c1)}\n2. {r2}: {n(c2)}\n3. {r3}: {n(c3)}\n... وأقلها {last}: {n(clast)}.",
          "terse")
    right(q3, "distribution", s, f"أكثر منطقة هي {r1}، فيها {ind(str(c1))} منافسة، والفرق بينها وبين {r2} "
          f"{ind(str(c1 - c2))} منافسة، يعني تقريباً الضعف.", "dialect")
    right(q1, "distribution", s, f"أعلى المناطق عدداً للمنافسات هي {r1} ({n(c1)} منافسة، {pct(c1, REGION_TOTAL)} "
          f"من منافسات المناطق)، وأدناها {last} بـ{n(clast)} منافسة.", "superlative")
    right(q3, "distribution", s, f"{r1} بلا منافس: {n(c1)} منافسة، أي ما يقارب {pct(c1, REGION_TOTAL, 0)} من الإجمالي.",
          "superlative")
    right(q2, "distribution", s, f"تحتل منطقة {last} المرتبة الثالثة عشرة والأخيرة بـ{n(clast)} منافسة، "
          f"وقبلها {before_last} بـ{n(cbl)}، بينما تتصدر {r1} بـ{n(c1)}.", "teens")
    right(q1, "distribution", s, f"الرياض {ind(n(c1))}، مكة المكرمة {ind(n(RC['مكة المكرمة']))}، "
          f"الشرقية {ind(n(RC['الشرقية']))}، عسير {ind(n(RC['عسير']))}، وأقلها الباحة {ind(n(RC['الباحة']))}.",
          "arabic_indic")
    # wrong
    wrong(q1, "distribution", s, f"تتصدر منطقة {r1} بعدد {n(c2)} منافسة، تليها {r2} بـ{n(c1)}، ثم {r3} بـ{n(c3)}.",
          "wrong_row", "the figures of the first two regions swapped")
    wrong(q2, "distribution", s, f"عسير {n(RC['المدينة المنورة'])} منافسة، والمدينة المنورة {n(RC['عسير'])} منافسة، "
          f"وتبوك {n(RC['تبوك'])}.", "wrong_row", "Asir and Madinah swapped")
    wrong(q1, "distribution", s, f"في جازان {n(RC['القصيم'])} منافسة وفي القصيم {n(RC['جازان'])}.",
          "wrong_row", "Jazan and Qassim swapped (and the comparison follows the swap)")
    wrong(q3, "distribution", s, f"أكثر منطقة فيها منافسات هي {r2}، بـ{n(c2)} منافسة، وبعدها {r1} بـ{n(c1)}.",
          "wrong_superlative", "the second region named first")
    wrong(q1, "distribution", s, f"أقل المناطق طرحاً للمنافسات هي الجوف بـ{n(RC['الجوف'])} منافسة، "
          f"وأعلاها {r1} بـ{n(c1)}.", "wrong_superlative", f"the least is {last} ({clast})")
    wrong(q1, "distribution", s, f"The Riyadh region leads with {n(c1)} tenders, followed by Makkah with {n(c2)} "
          f"and the Eastern Province with {n(c3)}; Al-Baha has the fewest ({n(clast)}).", "not_arabic")
    wrong(q2, "distribution", s, f"الشرقية تجاوزت ثلاثة آلاف منافسة، ومكة المكرمة {n(c2)}، والرياض {n(c1)}.",
          "bound_as_rounding", f"the Eastern region has {RC['الشرقية']}")
    wrong(q1, "distribution", s, f"الرياض نحو 8 آلاف منافسة، ومكة المكرمة {n(c2)}، والشرقية {n(c3)}.",
          "wrong_approximation", f"Riyadh {c1} is about 7 thousand")


REGION_PICKS = [6, 3, 7, 10, 4, 11, 9, 8, 13, 12, 5, 2]


def single_region_counts() -> None:
    styles = ["terse", "words", "arabic_indic", "dialect", "llm_prose", "approximation"]
    for i, rid in enumerate(REGION_PICKS):
        name = short(REGION[rid])
        sql = f"SELECT COUNT(*) AS tenders FROM {T} WHERE region_id = {rid}"
        c = one(sql)
        q = [f"كم عدد المنافسات في منطقة {name}؟", f"كم منافسة طرحت في {name}؟", f"كم عدد مناقصات {name}؟",
             f"عطني عدد المنافسات اللي في {name}"][i % 4]
        style = styles[i % len(styles)]
        if style == "terse":
            text = f"عدد المنافسات في منطقة {name}: {n(c)} منافسة."
        elif style == "words":
            text = f"بلغ عدد المنافسات المطروحة في منطقة {name} {words(c)} منافسة."
        elif style == "arabic_indic":
            text = f"إجمالي المنافسات في {name} هو {ind(n(c))} منافسة حسب بيانات اعتماد."
        elif style == "dialect":
            text = f"في {name} عندك {n(c)} منافسة، هذا العدد الكلي اللي طلع لي من البيانات."
        elif style == "llm_prose":
            text = (f"وفقاً لبيانات منصة اعتماد، طُرحت في منطقة {name} {n(c)} منافسة حكومية على امتداد الفترة "
                    f"المتاحة في قاعدة البيانات.")
        else:
            approx = round(c, -2) if c >= 300 else round(c, -1)
            text = f"يقارب عدد المنافسات في {name} {n(approx)} منافسة (العدد الدقيق {n(c)})."
        right(q, "region_filter", sql, text, style)
        # a wrong twin of a different kind for each region
        kind = ["wrong_number", "wrong_approximation", "not_arabic", "wrong_number", "bound_as_rounding",
                "wrong_approximation", "not_arabic", "wrong_number", "wrong_approximation", "bound_as_rounding",
                "bound_as_rounding", "wrong_number"][i]
        if kind == "wrong_number":
            bad = c + (37 if c > 100 else 7)
            text = f"عدد المنافسات في {name}: {n(bad)} منافسة."
            note = f"the row says {c}"
        elif kind == "wrong_approximation":
            bad = wrong_approx(c)
            text = f"عدد المنافسات في منطقة {name} حوالي {n(bad)} منافسة."
            note = f"{c} is not about {bad}"
        elif kind == "not_arabic":
            text = f"There are {n(c)} tenders in {REGION_EN[rid]} according to Etimad data."
            note = "English only"
        else:
            bound = {4: 500, 13: 160, 12: 150, 5: 3000, 10: 500}.get(rid)
            if bound is None or c >= bound:
                bound = (c // 100 + 1) * 100
            text = f"طُرحت في {name} أكثر من {n(bound)} منافسة."
            note = f"{c} is less than {bound}"
        wrong(q, "region_filter", sql, text, kind, note)


def yearly_by_region() -> None:
    pairs = [(5, 2024, 2025), (6, 2024, 2025), (4, 2024, 2025), (9, 2024, 2025), (2, 2023, 2024),
             (11, 2022, 2023), (1, 2024, 2025), (3, 2024, 2025), (10, 2022, 2023), (7, 2023, 2024),
             (13, 2025, 2026), (12, 2023, 2025)]
    for i, (rid, y1, y2) in enumerate(pairs):
        name = short(REGION[rid])
        sql = (f"SELECT strftime('%Y', publish_date) AS year, COUNT(*) AS tenders FROM {T} WHERE region_id = {rid} "
               f"AND strftime('%Y', publish_date) IN ('{y1}', '{y2}') GROUP BY year ORDER BY year")
        (_, a), (_, b) = rows(sql)
        up = b > a
        q = [f"قارن عدد المنافسات في {name} بين {y1} و{y2}", f"هل زادت منافسات {name} في {y2} عن {y1}؟",
             f"كيف تغير عدد المنافسات في منطقة {name} من {y1} إلى {y2}؟"][i % 3]
        move, against = ("ارتفع", "انخفض") if up else ("انخفض", "ارتفع")
        yes = "نعم" if up else "لا"
        if i % 3 == 1:
            text = f"{yes}، {'زادت' if up else 'نقصت'} من {n(a)} منافسة في {y1} إلى {n(b)} في {y2}."
            right(q, "time_filter", sql, text, "yes_no")
        else:
            text = f"{move} عدد المنافسات في {name} من {n(a)} في {y1} إلى {n(b)} في {y2}، بفارق {n(abs(b - a))} منافسة."
            right(q, "time_filter", sql, text, "direction")
        if i % 4 == 0:
            text = f"{against} عدد المنافسات في {name} في {y2} مقارنة بـ{y1}: {n(b)} منافسة مقابل {n(a)}."
            wrong(q, "time_filter", sql, text, "wrong_direction", f"{a} -> {b}")
        elif i % 4 == 1:
            text = f"{'لا' if up else 'نعم'}، {name} سجلت {n(b)} منافسة في {y2} مقابل {n(a)} في {y1}."
            wrong(f"هل زادت منافسات {name} في {y2} عن {y1}؟", "time_filter", sql, text, "wrong_yes_no", f"{a} -> {b}")
        elif i % 4 == 2:
            text = f"في {y1} كان العدد {n(b)} منافسة، وفي {y2} صار {n(a)}."
            wrong(q, "time_filter", sql, text, "wrong_row", "the two years' figures swapped")
        else:
            word = "تراجعت" if up else "زادت"
            text = f"منافسات {name} {word} في {y2} ({n(b)}) عن {y1} ({n(a)})."
            wrong(q, "time_filter", sql, text, "wrong_direction", f"{a} -> {b}")


def yearly_values() -> None:
    sql = (f"SELECT strftime('%Y', publish_date) AS year, COUNT(*) AS tenders, SUM(estimated_value) AS total_value "
           f"FROM {T} GROUP BY year ORDER BY year")
    data = {y: (c, v) for y, c, v in rows(sql)}
    q = "كم عدد المنافسات وقيمتها التقديرية في كل سنة؟"
    q2 = "أي سنة كانت الأعلى في قيمة المنافسات؟"
    top = max(data, key=lambda y: data[y][1])
    low = min(data, key=lambda y: data[y][1])
    right(q, "aggregation", sql, "\n".join(f"- {y}: {n(c)} منافسة بقيمة {sar(v)}" for y, (c, v) in data.items()),
          "terse")
    right(q2, "aggregation", sql, f"سجل عام {top} أعلى قيمة تقديرية للمنافسات بنحو {sar(data[top][1])}، "
          f"مقابل {sar(data[low][1])} في {low} وهو الأدنى.", "superlative")
    right(q, "aggregation", sql, f"شهدت السنوات نمواً مطرداً: من {n(data['2022'][0])} منافسة بقيمة "
          f"{sar(data['2022'][1])} في 2022 إلى {n(data['2025'][0])} منافسة بقيمة {sar(data['2025'][1])} في 2025، "
          f"ثم {n(data['2026'][0])} منافسة في 2026 بقيمة {sar(data['2026'][1])}.", "llm_prose")
    right(q, "aggregation", sql, f"ارتفعت القيمة التقديرية من {sar(data['2024'][1])} في 2024 إلى "
          f"{sar(data['2025'][1])} في 2025.", "direction")
    right(q2, "aggregation", sql, f"أعلى سنة {top}، قيمتها قرابة {round(data[top][1] / 1e9)} مليار ريال.",
          "approximation")
    wrong(q2, "aggregation", sql, f"أعلى سنة في قيمة المنافسات هي 2025 بقيمة {sar(data['2025'][1])}.",
          "wrong_superlative", f"{top} is the highest")
    wrong(q, "aggregation", sql, f"تراجعت القيمة التقديرية للمنافسات في 2025 إلى {sar(data['2025'][1])} بعد "
          f"{sar(data['2024'][1])} في 2024.", "wrong_direction", "it rose")
    wrong(q, "aggregation", sql, f"في 2023 طُرحت {n(data['2024'][0])} منافسة، وفي 2024 طُرحت {n(data['2023'][0])}.",
          "wrong_row", "2023 and 2024 swapped")
    wrong(q2, "aggregation", sql, f"أقل سنة في القيمة هي 2023 بنحو {sar(data['2023'][1])}، وأعلاها {top}.",
          "wrong_superlative", f"{low} is the lowest")
    wrong(q, "aggregation", sql, f"قيمة منافسات 2024 كانت {sar(data['2023'][1])} تقريباً، وعددها {n(data['2024'][0])}.",
          "wrong_row", "2023's value given to 2024")


def top_agencies() -> None:
    sql = (f"SELECT agency_name, COUNT(*) AS tenders, SUM(estimated_value) AS total_value FROM {T} "
           f"GROUP BY agency_id ORDER BY tenders DESC LIMIT 5")
    top = rows(sql)
    (a1, c1, v1), (a2, c2, v2), (a3, c3, v3) = top[:3]
    q = "ما أكثر الجهات الحكومية طرحاً للمنافسات؟"
    q2 = "أعطني أعلى 5 جهات حسب عدد المنافسات"
    right(q, "distribution", sql, f"أكثر الجهات طرحاً هي {a1} بـ{n(c1)} منافسة، تليها {a2} ({n(c2)}).", "superlative")
    right(q2, "distribution", sql, "\n".join(f"{i}. {a}: {n(c)}" for i, (a, c, _) in enumerate(top, 1)), "terse")
    right(q, "distribution", sql, f"الأولى {a1}، طرحت {ind(n(c1))} منافسة بقيمة تقديرية {ind(sar(v1))}.",
          "arabic_indic")
    right(q2, "distribution", sql, f"أول جهة {a1} بـ{n(c1)}، وبعدها {a2} بـ{n(c2)}، وثالثهم {a3} بـ{n(c3)}، "
          f"يعني الأولى أكثر من الثانية بـ{n(c1 - c2)} منافسة.", "dialect")
    wrong(q, "distribution", sql, f"أكثر الجهات طرحاً للمنافسات هي {a2} بـ{n(c2)} منافسة.", "wrong_superlative",
          f"{a1} is first")
    wrong(q2, "distribution", sql, f"{a1}: {n(c1)}، {a2}: {n(c3)}، {a3}: {n(c2)}.", "wrong_row",
          "second and third swapped")
    wrong(q, "distribution", sql, f"تتصدر {a3} القائمة بـ{n(c3)} منافسة، ثم {a1}.", "wrong_superlative",
          f"{a1} is first")
    wrong(q2, "distribution", sql, f"The top agency is {AGENCY_EN[a1]} with {n(c1)} tenders, then {AGENCY_EN[a2]} "
          f"with {n(c2)}.",
          "not_arabic")
    # by value in one region
    sql = (f"SELECT agency_name, SUM(estimated_value) AS total_value FROM {T} WHERE region_id = 2 "
           f"GROUP BY agency_id ORDER BY total_value DESC LIMIT 3")
    (b1, w1), (b2, w2), (b3, w3) = rows(sql)
    q = "ما الجهات الأعلى قيمة للمنافسات في منطقة مكة المكرمة؟"
    right(q, "distribution", sql, f"أعلى الجهات قيمةً في مكة المكرمة {b1} بإجمالي {sar(w1)}، ثم {b2} ({sar(w2)}) "
          f"و{b3} ({sar(w3)}).", "superlative")
    wrong(q, "distribution", sql, f"أعلى الجهات قيمةً في مكة المكرمة {b2} بإجمالي {sar(w2)}، ثم {b1} ({sar(w1)}).",
          "wrong_superlative", f"{b1} is first")
    wrong(q, "distribution", sql, f"{b1} بإجمالي {sar(w2)}، و{b2} بإجمالي {sar(w1)}.", "wrong_row", "values swapped")


def status_shares() -> None:
    sql = f"SELECT status_name, COUNT(*) AS tenders FROM {T} GROUP BY status_id ORDER BY tenders DESC"
    data = dict(rows(sql))
    total = sum(data.values())
    q = "ما توزيع المنافسات حسب الحالة؟"
    q2 = "كم نسبة المنافسات الملغاة من الإجمالي؟"
    aw, ca, cl, ac = data["تمت الترسية"], data["ملغاة"], data["منتهية"], data["نشطة"]
    right(q, "distribution", sql, f"الغالبية تمت ترسيتها: {n(aw)} منافسة ({pct(aw, total)})، ثم المنتهية {n(cl)} "
          f"({pct(cl, total)})، والملغاة {n(ca)} ({pct(ca, total)})، والنشطة {n(ac)}.", "llm_prose")
    right(q2, "distribution", sql, f"الملغاة {n(ca)} منافسة، أي {pct(ca, total)} من الإجمالي.", "terse")
    right(q2, "distribution", sql, f"نسبة الملغاة {ind(f'{100 * ca / total:.1f}')}٪ تقريباً، يعني {ind(n(ca))} منافسة.",
          "arabic_indic")
    right(q, "distribution", sql, f"أكثر حالة هي «تمت الترسية» بـ{n(aw)} منافسة، وأقلها «قيد الترسية» "
          f"بـ{n(data['قيد الترسية'])}.", "superlative")
    right(q2, "distribution", sql, f"تقريباً {pct(ca, total, 0)} من المنافسات ملغاة ({n(ca)} منافسة).",
          "approximation")
    wrong(q2, "distribution", sql, f"نسبة المنافسات الملغاة {pct(cl, total)} من الإجمالي.", "wrong_row",
          "the closed tenders' share quoted for the cancelled")
    wrong(q, "distribution", sql, f"المنتهية {n(cl)} ({pct(ca, total)})، والملغاة {n(ca)} ({pct(cl, total)}).",
          "wrong_row", "the two shares swapped")
    wrong(q, "distribution", sql, f"أكثر الحالات شيوعاً هي «منتهية» بـ{n(cl)} منافسة.", "wrong_superlative",
          "awarded is the most")
    wrong(q2, "distribution", sql, f"The cancelled tenders are {n(ca)}, which is {pct(ca, total)} of all tenders.",
          "not_arabic")
    wrong(q2, "distribution", sql, f"الملغاة تتجاوز 12% من المنافسات ({n(ca)} منافسة).", "bound_as_rounding",
          f"the share is {100 * ca / total:.2f}%")


def type_distribution() -> None:
    sql = (f"SELECT tender_type_name, COUNT(*) AS tenders, AVG(estimated_value) AS avg_value FROM {T} "
           f"GROUP BY tender_type_id ORDER BY tenders DESC")
    data = {t: (c, a) for t, c, a in rows(sql)}
    total = sum(c for c, _ in data.values())
    dp, gen, fw = data["شراء مباشر"], data["منافسة عامة"], data["منافسة اتفاقية إطارية"]
    q = "ما أكثر أنواع المنافسات شيوعاً؟"
    q2 = "كم عدد المنافسات ومتوسط قيمتها لكل نوع؟"
    right(q, "distribution", sql, f"الشراء المباشر هو الأكثر شيوعاً بـ{n(dp[0])} منافسة ({pct(dp[0], total)})، "
          f"تليه المنافسة العامة بـ{n(gen[0])}.", "superlative")
    right(q2, "distribution", sql, f"الشراء المباشر: {n(dp[0])} منافسة بمتوسط {sar(dp[1])}، والمنافسة العامة: "
          f"{n(gen[0])} بمتوسط {sar(gen[1])}، والاتفاقية الإطارية: {n(fw[0])} بمتوسط {sar(fw[1])}.", "llm_prose")
    right(q, "distribution", sql, f"أغلبها شراء مباشر، قرابة ثلاثة عشر ألف منافسة (بالضبط {n(dp[0])}).",
          "approximation")
    right(q, "distribution", sql, f"الشراء المباشر أكثر من نصف المنافسات بكثير: {n(dp[0])} من {n(total)}.", "bound")
    wrong(q, "distribution", sql, f"أكثر أنواع المنافسات شيوعاً هي المنافسة العامة بـ{n(gen[0])} منافسة.",
          "wrong_superlative", "direct purchase is the most")
    wrong(q2, "distribution", sql, f"متوسط قيمة الشراء المباشر {sar(gen[1])}، ومتوسط المنافسة العامة {sar(dp[1])}.",
          "wrong_row", "the averages swapped")
    wrong(q, "distribution", sql, f"الشراء المباشر {n(dp[0])} منافسة، أي {pct(gen[0], total)} من المنافسات.",
          "wrong_row", "the general tenders' share quoted for direct purchase")
    wrong(q2, "distribution", sql, f"The direct purchases are {n(dp[0])} with an average of {dp[1]:,.0f} SAR.",
          "not_arabic")


def thresholds() -> None:
    cases = [(1, "2025", 1e9, "مليار ريال"), (12, "2025", 1e8, "100 مليون ريال"), (3, "2025", 5e8, "نصف مليار ريال"),
             (8, "2025", 5e7, "50 مليون ريال"), (2, "2025", 3e9, "3 مليارات ريال"), (6, "2025", 1e9, "مليار ريال"),
             (5, "2025", 1e9, "مليار ريال"), (13, "2025", 2e8, "200 مليون ريال"), (11, "2025", 5e8, "500 مليون ريال"),
             (9, "2025", 5e7, "50 مليون ريال")]
    for i, (rid, year, limit, spoken) in enumerate(cases):
        name = short(REGION[rid])
        sql = (f"SELECT SUM(estimated_value) AS total_value FROM {T} WHERE region_id = {rid} "
               f"AND strftime('%Y', publish_date) = '{year}'")
        v = one(sql)
        q = [f"هل تجاوزت القيمة التقديرية لمنافسات {name} حاجز {spoken} في عام {year}؟",
             f"هل إجمالي قيمة منافسات منطقة {name} أكثر من {spoken} في {year}؟"][i % 2]
        over = v > limit
        if over:
            text = [f"نعم، بلغ الإجمالي {sar(v)}.", f"إيه نعم، تعدّت: المجموع {sar(v)}."][i % 2]
            bad = [f"لا، لم تتجاوز {spoken}؛ الإجمالي {sar(v)}.", f"لا، قيمة منافسات {name} أقل من {spoken}."][i % 2]
        else:
            text = [f"لا، الإجمالي {sar(v)} فقط.", f"لا، ما وصلت؛ مجموعها {sar(v)} بس."][i % 2]
            bad = [f"نعم، تجاوزت {spoken}، إذ بلغ الإجمالي {sar(v)}.",
                   f"نعم، تجاوزت قيمة منافسات {name} {spoken} في ذلك العام."][i % 2]
        right(q, "value_filter", sql, text, ["yes_no", "dialect"][i % 2])
        wrong(q, "value_filter", sql, bad, "wrong_yes_no", f"the total is {v:,.0f}")
    # counts against a threshold
    for rid, status, limit in [(1, 5, 800), (2, 1, 300), (5, 4, 1800), (6, 6, 150), (10, 5, 60), (7, 1, 50)]:
        name, sname = short(REGION[rid]), one(f"SELECT name_ar FROM tender_statuses WHERE status_id = {status}")
        sql = f"SELECT COUNT(*) AS tenders FROM {T} WHERE region_id = {rid} AND status_id = {status}"
        c = one(sql)
        q = f"هل عدد المنافسات ال{sname} في {name} أكثر من {limit}؟" if not sname.startswith("ت") and not sname.startswith("ق") \
            else f"هل عدد المنافسات التي حالتها {sname} في {name} أكثر من {limit}؟"
        ok, bad = ("نعم", "لا") if c > limit else ("لا", "نعم")
        right(q, "value_filter", sql, f"{ok}، العدد {n(c)} منافسة.", "yes_no")
        wrong(q, "value_filter", sql, f"{bad}، العدد {n(c)} منافسة.", "wrong_yes_no", f"{c} against {limit}")


def none_claims() -> None:
    cases = [(12, 5, None), (8, 3, None), (13, 2, None), (9, 3, "2026"), (11, 5, "2023"), (4, 2, "2026"),
             (7, 5, "2022"), (3, 3, "2026")]
    for i, (rid, status, year) in enumerate(cases):
        name, sname = short(REGION[rid]), one(f"SELECT name_ar FROM tender_statuses WHERE status_id = {status}")
        cond = f" AND strftime('%Y', publish_date) = '{year}'" if year else ""
        sql = f"SELECT COUNT(*) AS tenders FROM {T} WHERE region_id = {rid} AND status_id = {status}{cond}"
        c = one(sql)
        assert c > 0, (rid, status, year)
        when = f" في {year}" if year else ""
        q = f"هل توجد منافسات حالتها «{sname}» في {name}{when}؟"
        right(q, "count", sql, [f"نعم، يوجد {n(c)} منافسة حالتها {sname} في {name}{when}.",
                                f"إيه فيه، عددها {ind(str(c))} منافسة."][i % 2], ["yes_no", "dialect"][i % 2])
        wrong(q, "count", sql, [f"لا توجد أي منافسات حالتها {sname} في منطقة {name}{when}.",
                                f"ما فيه ولا منافسة {sname} في {name}{when}.",
                                f"لا، لا توجد منافسات بهذه الحالة في {name}{when} وفق البيانات المتاحة.",
                                f"البيانات لا تُظهر أي منافسة {sname} في {name}{when}."][i % 4],
              "none_but_rows", f"the row says {c}")
    # true zeros: saying none is right
    for rid, ttype in [(6, 12), (8, 12), (12, 5), (13, 12)]:
        name = short(REGION[rid])
        tname = one(f"SELECT name_ar FROM tender_types WHERE tender_type_id = {ttype}")
        sql = f"SELECT COUNT(*) AS tenders FROM {T} WHERE region_id = {rid} AND tender_type_id = {ttype}"
        c = one(sql)
        assert c == 0, (rid, ttype, c)
        q = f"كم عدد منافسات «{tname}» في منطقة {name}؟"
        right(q, "count", sql, f"لا توجد أي منافسات من نوع {tname} في منطقة {name}؛ العدد 0.", "terse")
        wrong(q, "count", sql, f"يوجد {words(3)} منافسات من نوع {tname} في منطقة {name}.", "wrong_number",
              "the row says 0")


def measures() -> None:
    for i, ttype in enumerate([1, 2, 4, 6, 11, 12, 5]):
        tname = one(f"SELECT name_ar FROM tender_types WHERE tender_type_id = {ttype}")
        sql = (f"SELECT AVG(estimated_value) AS avg_value, SUM(estimated_value) AS total_value, COUNT(*) AS tenders "
               f"FROM {T} WHERE tender_type_id = {ttype}")
        avg, total, c = rows(sql)[0]
        q = f"ما متوسط القيمة التقديرية لمنافسات «{tname}»؟"
        right(q, "aggregation", sql, [f"متوسط القيمة التقديرية لمنافسات «{tname}» {sar(avg)}، على {n(c)} منافسة.",
                                      f"بلغ متوسط القيمة التقديرية لهذا النوع نحو {sar(avg)} للمنافسة الواحدة، "
                                      f"من إجمالي {sar(total)} موزع على {n(c)} منافسة، وهو مؤشر على حجم "
                                      f"التعاقدات المعتاد فيه.",
                                      f"يبلغ متوسط قيمة منافسات «{tname}» {ind(sar(avg))} تقريباً."][i % 3],
              ["terse", "llm_prose", "arabic_indic"][i % 3])
        wrong(q, "aggregation", sql, [f"متوسط القيمة التقديرية لمنافسات «{tname}» {sar(total)}.",
                                      f"المتوسط يبلغ {sar(total)} لكل منافسة.",
                                      f"متوسط قيمة «{tname}» هو {sar(total)}، عبر {n(c)} منافسة."][i % 3],
              "wrong_measure", "the sum quoted as the average")
    for rid in (1, 2, 5, 6):
        name = short(REGION[rid])
        sql = (f"SELECT SUM(estimated_value) AS total_value, AVG(estimated_value) AS avg_value, COUNT(*) AS tenders "
               f"FROM {T} WHERE region_id = {rid}")
        total, avg, c = rows(sql)[0]
        q = f"ما إجمالي القيمة التقديرية لمنافسات {name}؟"
        right(q, "aggregation", sql, f"إجمالي القيمة التقديرية لمنافسات {name} {sar(total)} موزعة على {n(c)} منافسة.",
              "terse")
        wrong(q, "aggregation", sql, f"إجمالي القيمة التقديرية لمنافسات {name} {sar(avg)}.", "wrong_measure",
              "the average quoted as the total")
    sql = (f"SELECT COUNT(*) AS tenders, SUM(bids_count) AS bids, AVG(bids_count) AS avg_bids FROM {T} "
           f"WHERE status_id = 4 AND region_id = 7")
    c, bids, avg_bids = rows(sql)[0]
    q = "كم عدد المنافسات التي تمت ترسيتها في تبوك؟"
    right(q, "count", sql, f"تمت ترسية {n(c)} منافسة في تبوك، تلقت {n(bids)} عرضاً.", "llm_prose")
    wrong(q, "count", sql, f"عدد المنافسات المرساة في تبوك {n(bids)} منافسة.", "wrong_measure",
          "the bids' sum quoted as the count")
    wrong(q, "count", sql, f"تمت ترسية {n(c)} منافسة في تبوك بمتوسط {n(bids)} عرض لكل منافسة.", "wrong_measure",
          f"the average is {avg_bids:.1f}")


def derived() -> None:
    for i, rid in enumerate((1, 2, 5, 6, 10)):
        name = short(REGION[rid])
        sql = (f"SELECT SUM(CASE WHEN status_id = 5 THEN 1 ELSE 0 END) AS cancelled, COUNT(*) AS tenders "
               f"FROM {T} WHERE region_id = {rid}")
        ca, c = rows(sql)[0]
        q = f"كم نسبة المنافسات الملغاة في منطقة {name}؟"
        right(q, "aggregation", sql, [f"{n(ca)} من أصل {n(c)} منافسة ملغاة، أي {pct(ca, c)}.",
                                      f"نسبة الإلغاء في {name} {pct(ca, c)} ({n(ca)} ملغاة من {n(c)})."][i % 2],
              "derived_in_row")
        if i % 2:
            wrong(q, "aggregation", sql, f"نسبة الإلغاء في {name} {pct(ca + c // 20, c)} ({n(ca)} ملغاة من {n(c)}).",
                  "wrong_number", f"the share is {pct(ca, c)}")
    for i, rid in enumerate((7, 3, 11, 4, 12)):
        name = short(REGION[rid])
        sql = f"SELECT SUM(estimated_value) AS total_value, COUNT(*) AS tenders FROM {T} WHERE region_id = {rid}"
        total, c = rows(sql)[0]
        q = f"ما متوسط قيمة المنافسة في {name}؟"
        right(q, "aggregation", sql, f"الإجمالي {sar(total)} على {n(c)} منافسة، أي بمتوسط {sar(total / c)} للمنافسة.",
              "derived_in_row")
        if i % 2 == 0:
            wrong(q, "aggregation", sql, f"متوسط قيمة المنافسة في {name} {sar(total)}.", "wrong_measure",
                  f"the average is {total / c:,.0f}")


MONTHS = {1: "يناير", 2: "فبراير", 3: "مارس", 4: "أبريل", 5: "مايو", 6: "يونيو", 7: "يوليو", 8: "أغسطس",
          9: "سبتمبر", 10: "أكتوبر", 11: "نوفمبر", 12: "ديسمبر"}
QUARTERS = {1: ("الأول", 1, 3, 31), 2: ("الثاني", 4, 6, 30), 3: ("الثالث", 7, 9, 30), 4: ("الرابع", 10, 12, 31)}


def implied_dates() -> None:
    for i, (year, quarter) in enumerate([(2025, 1), (2024, 2), (2023, 3), (2022, 4), (2025, 3)]):
        word, m1, m2, last = QUARTERS[quarter]
        sql = (f"SELECT COUNT(*) AS tenders FROM {T} WHERE publish_date BETWEEN '{year}-{m1:02d}-01' "
               f"AND '{year}-{m2:02d}-{last}'")
        c = one(sql)
        q = f"كم عدد المنافسات المطروحة في الربع {word} من {year}؟"
        right(q, "time_filter", sql, [f"خلال الفترة من 1 {MONTHS[m1]} إلى {last} {MONTHS[m2]} {year} طُرحت {n(c)} منافسة.",
                                      f"من {year}-{m1:02d}-01 حتى {year}-{m2:02d}-{last}: {n(c)} منافسة."][i % 2],
              "implied_dates")
        if i % 2 == 0:
            wrong(q, "time_filter", sql, f"خلال الفترة من 1 {MONTHS[m1]} إلى {last} {MONTHS[m2]} {year} طُرحت "
                  f"{n(c - 41)} منافسة.", "wrong_number", f"the row says {c}")
    for year, month, last in [(2024, 2, 29), (2025, 4, 30), (2023, 12, 31)]:
        sql = (f"SELECT COUNT(*) AS tenders FROM {T} WHERE publish_date BETWEEN '{year}-{month:02d}-01' "
               f"AND '{year}-{month:02d}-{last}'")
        c = one(sql)
        q = f"كم منافسة نُشرت في شهر {MONTHS[month]} {year}؟"
        right(q, "time_filter", sql, f"من 1 إلى {last} {MONTHS[month]} {year} نُشرت {n(c)} منافسة.", "implied_dates")


def hijri_years() -> None:
    spans = {2022: (1443, 1444), 2023: (1444, 1445), 2024: (1445, 1446), 2025: (1446, 1447), 2026: (1447, 1448)}
    for i, year in enumerate((2022, 2023, 2024, 2025, 2026)):
        sql = f"SELECT COUNT(*) AS tenders FROM {T} WHERE strftime('%Y', publish_date) = '{year}'"
        c = one(sql)
        h1, h2 = spans[year]
        q = [f"كم عدد المنافسات في عام {year}؟", f"كم منافسة طرحت سنة {year}؟"][i % 2]
        right(q, "time_filter", sql, [f"في عام {year} (الموافق {h1}–{h2}هـ) طُرحت {n(c)} منافسة.",
                                      f"طُرحت {n(c)} منافسة خلال {year}م، أي ما بين {h1} و{h2} هجرية."][i % 2],
              "hijri_years")
        if i in (1, 3):
            wrong(q, "time_filter", sql, f"في عام {year} (الموافق {h1}–{h2}هـ) طُرحت {n(c + 120)} منافسة.",
                  "wrong_number", f"the row says {c}")
    # region-year, Hijri mentioned
    for rid, year in [(1, 2024), (2, 2025), (5, 2023)]:
        name = short(REGION[rid])
        sql = (f"SELECT COUNT(*) AS tenders FROM {T} WHERE region_id = {rid} "
               f"AND strftime('%Y', publish_date) = '{year}'")
        c = one(sql)
        h1, h2 = spans[year]
        right(f"كم عدد منافسات {name} في {year}؟", "time_filter", sql,
              f"منافسات {name} في {year} (أي {h1}/{h2}هـ): {n(c)} منافسة.", "hijri_years")


def teens() -> None:
    for year in (2024, 2025):
        sql = f"SELECT COUNT(*) AS tenders FROM {T} WHERE strftime('%Y', publish_date) = '{year}'"
        c = one(sql)
        right(f"كم منافسة طرحت خلال {year} كاملة؟", "time_filter", sql,
              f"خلال الاثني عشر شهراً من عام {year} طُرحت {n(c)} منافسة.", "teens")
    sql = (f"SELECT strftime('%m', publish_date) AS month, COUNT(*) AS tenders FROM {T} "
           f"WHERE strftime('%Y', publish_date) = '2025' AND strftime('%m', publish_date) = '11'")
    m, c = rows(sql)[0]
    right("كم منافسة طرحت في نوفمبر 2025؟", "time_filter", sql,
          f"في الشهر الحادي عشر من 2025 (نوفمبر) طُرحت {n(c)} منافسة.", "teens")
    ranked = (f"SELECT activity_name, tenders, rank FROM (SELECT TRIM(activity_name, ' ' || char(9)) AS activity_name, "
              f"COUNT(*) AS tenders, RANK() OVER (ORDER BY COUNT(*) DESC) AS rank FROM {T} GROUP BY activity_id) "
              "WHERE rank = {r}")
    ordinals = {11: "الحادي عشر", 12: "الثاني عشر", 13: "الثالث عشر", 14: "الرابع عشر", 15: "الخامس عشر",
                17: "السابع عشر", 19: "التاسع عشر"}
    for r, word in ordinals.items():
        sql = ranked.format(r=r)
        name, c, _ = rows(sql)[0]
        q = f"ما النشاط الذي يأتي في المرتبة {r} من حيث عدد المنافسات؟"
        right(q, "lookup", sql, f"النشاط في المركز {word} هو «{name}» بـ{n(c)} منافسة.", "teens")
        if r in (12, 15, 19):
            wrong(q, "lookup", sql, f"النشاط في المركز {word} هو «{name}» بـ{n(c + 23)} منافسة.", "wrong_number",
                  f"the row says {c}")
    sql = ranked.format(r=14)
    name, c, _ = rows(sql)[0]
    right("وين يجي نشاط تجارة السيارات في الترتيب حسب عدد المنافسات؟", "lookup", sql,
          f"يجي في المرتبة الرابعة عشرة، وعدده {n(c)} منافسة.", "teens")
    rank = [short(name) for name, _ in REGION_COUNTS].index("نجران") + 1
    assert rank == 9
    right("ترتيب نجران بين المناطق في عدد المنافسات؟", "distribution", SQL_REGIONS,
          f"تأتي نجران في المرتبة التاسعة بين المناطق الثلاث عشرة، وعدد منافساتها {words(RC['نجران'])} منافسة.",
          "teens")


REFUSALS = [
    ("ما حالة الطقس في الرياض غداً؟", "معليش، ما أقدر أجاوب عن الطقس؛ أنا مختص ببيانات المنافسات الحكومية فقط."),
    ("كم سعر سهم أرامكو اليوم؟", "المعذرة، أسعار الأسهم خارج نطاق بيانات منصة اعتماد التي أعمل عليها."),
    ("اكتب لي قصيدة عن جدة", "يؤسفني أنني لا أستطيع المساعدة في كتابة الشعر، فاختصاصي بيانات المنافسات والمشاريع."),
    ("من فاز بكأس العالم 2022؟", "نأسف، هذا السؤال لا يتعلق ببيانات المنافسات الحكومية."),
    ("ما هي أفضل مطاعم الخبر؟", "عفواً، لا أملك معلومات عن المطاعم؛ يمكنني الإجابة عن المنافسات الحكومية فقط."),
    ("كم عدد سكان المملكة؟", "مع الاعتذار، بيانات السكان ليست ضمن قاعدة بيانات المنافسات."),
    ("ترجم لي هذه الجملة إلى الإنجليزية", "معليش ما أقدر، أنا أجاوب بس على أسئلة المنافسات والمشاريع الحكومية."),
    ("وش رأيك في الدوري السعودي؟", "المعذرة منك، ما عندي بيانات رياضية، تخصصي المنافسات الحكومية."),
    ("احجز لي موعد في المستشفى", "عفوًا، لا يمكنني حجز المواعيد؛ أجيب فقط عن بيانات المنافسات."),
    ("ما هو سعر صرف الدولار؟", "يؤسفنا أن أسعار العملات خارج نطاق البيانات المتاحة لدي."),
    ("كم درجة الحرارة في أبها؟", "عذراً، لا تتوفر لدي بيانات الطقس، أستطيع الإجابة عن المنافسات الحكومية فقط."),
    ("اقترح لي اسماً لشركتي", "للأسف هذا خارج نطاقي، أنا مساعد لبيانات المنافسات الحكومية."),
    ("من هو مؤسس شركة أبل؟", "أعتذر، هذا السؤال خارج نطاق بيانات منصة اعتماد."),
    ("ما أخبار سوق العقار؟", "نعتذر، لا تشمل البيانات أخبار سوق العقار."),
    ("هل ستمطر في جدة هذا الأسبوع؟", "آسف، ما أقدر أتوقع الطقس؛ اسألني عن المنافسات والمشاريع."),
    ("اشرح لي نظرية النسبية", "نأسف لعدم القدرة على المساعدة، فالسؤال خارج نطاق بيانات المشتريات الحكومية."),
]


def refusals() -> None:
    for question, text in REFUSALS:
        right(question, "out_of_scope", None, text, "refusal")


def date_windows() -> None:
    windows = [("2025-03-01", "2025-03-15", "من 1 مارس إلى 15 مارس 2025"),
               ("2024-06-10", "2024-06-20", "بين 10 و20 يونيو 2024"),
               ("2026-01-01", "2026-01-07", "في الأسبوع الأول من يناير 2026 (1 إلى 7 يناير)"),
               ("2023-09-01", "2023-09-30", "من 1 إلى 30 سبتمبر 2023")]
    for i, (d1, d2, spoken) in enumerate(windows):
        sql = f"SELECT COUNT(*) AS tenders FROM {T} WHERE publish_date BETWEEN '{d1}' AND '{d2}'"
        c = one(sql)
        q = f"كم منافسة طرحت {spoken}؟"
        right(q, "time_filter", sql, [f"طُرحت {n(c)} منافسة خلال هذه الفترة.",
                                      f"في هالفترة نزلت {ind(str(c))} منافسة.",
                                      f"بلغ عدد المنافسات {words(c)} منافسة.",
                                      f"{n(c)} منافسة فقط طرحت {spoken}."][i], ["terse", "dialect", "words", "terse"][i])
        wrong(q, "time_filter", sql, [f"طُرحت {n(c * 2)} منافسة خلال هذه الفترة.",
                                      f"في هالفترة نزلت {ind(str(c + 9))} منافسة.",
                                      f"Between those dates {c} tenders were published.",
                                      f"أكثر من {(c // 10 + 1) * 10} منافسة طرحت {spoken}."][i],
              ["wrong_number", "wrong_number", "not_arabic", "bound_as_rounding"][i], f"the row says {c}")


def future_projects() -> None:
    sql = ("SELECT strftime('%Y', expected_offering_date) AS year, COUNT(*) AS projects, "
           "SUM(estimated_value) AS total_value FROM future_projects GROUP BY year ORDER BY year")
    data = {y: (c, v) for y, c, v in rows(sql)}
    q = "كم عدد المشاريع المستقبلية وقيمتها في كل سنة؟"
    q2 = "هل قيمة المشاريع المستقبلية في 2028 أعلى من 2027؟"
    (c6, v6), (c7, v7), (c8, v8) = data["2026"], data["2027"], data["2028"]
    right(q, "aggregation", sql, f"2026: {n(c6)} مشروعاً ({sar(v6)})، 2027: {n(c7)} مشروعاً ({sar(v7)})، "
          f"2028: {n(c8)} مشروعاً ({sar(v8)}).", "terse")
    right(q2, "aggregation", sql, f"نعم، ترتفع القيمة من {sar(v7)} في 2027 إلى {sar(v8)} في 2028 رغم أن عدد "
          f"المشاريع أقل ({n(c8)} مقابل {n(c7)}).", "yes_no")
    right(q, "aggregation", sql, f"أكبر عدد مشاريع في 2027 ({n(c7)})، لكن أعلى قيمة في 2028 (حوالي "
          f"{round(v8 / 1e9)} مليار ريال).", "superlative")
    right(q, "aggregation", sql, f"عدد المشاريع المستقبلية زاد بشكل كبير من {n(c6)} في 2026 إلى {n(c7)} في 2027، "
          f"ثم انخفض قليلاً إلى {n(c8)} في 2028.", "direction")
    right(q2, "aggregation", sql, f"إيه، 2028 أعلى: قرابة {round(v8 / 1e9)} مليار مقابل تقريباً "
          f"{round(v7 / 1e9)} مليار في 2027.", "approximation")
    wrong(q2, "aggregation", sql, f"لا، قيمة 2028 ({sar(v8)}) أقل من 2027 ({sar(v7)}).", "wrong_yes_no",
          "2028 is higher")
    wrong(q, "aggregation", sql, f"ارتفع عدد المشاريع في 2028 إلى {n(c8)} بعد {n(c7)} في 2027.", "wrong_direction",
          "it fell")
    wrong(q, "aggregation", sql, f"أكبر عدد مشاريع في 2028 ({n(c8)} مشروعاً).", "wrong_superlative",
          "2027 has the most")
    wrong(q, "aggregation", sql, f"2027: {n(c8)} مشروعاً، و2028: {n(c7)} مشروعاً.", "wrong_row", "years swapped")
    wrong(q2, "aggregation", sql, f"نعم، 2028 أعلى بقيمة تتجاوز 17 مليار ريال.", "bound_as_rounding",
          f"2028 is {v8:,.0f}")
    wrong(q, "aggregation", sql, f"In 2027 there are {n(c7)} planned projects worth {v7:,.0f} SAR in total.",
          "not_arabic")
    wrong(q2, "aggregation", sql, f"نعم، 2028 أعلى: قرابة {wrong_approx(v8 / 1e9)} مليار مقابل 11 مليار في 2027.",
          "wrong_approximation", f"2028 is {v8 / 1e9:.2f} billion")


def lookups() -> None:
    for i, rid in enumerate((10, 12, 8, 13)):
        name = short(REGION[rid])
        sql = (f"SELECT tender_name, agency_name, estimated_value FROM {T} WHERE region_id = {rid} "
               f"ORDER BY estimated_value DESC LIMIT 1")
        tname, agency, v = rows(sql)[0]
        q = f"ما أعلى منافسة قيمة في منطقة {name}؟"
        right(q, "lookup", sql, [f"أعلى منافسة قيمة في {name}: «{tname}» لدى {agency}، بقيمة تقديرية {sar(v)}.",
                                 f"أغلى منافسة في {name} هي «{tname}» وقيمتها {ind(sar(v))}."][i % 2],
              ["terse", "arabic_indic"][i % 2])
        wrong(q, "lookup", sql, [f"أعلى منافسة قيمة في {name}: «{tname}» بقيمة تقديرية تقارب "
                                 f"{wrong_approx(v / 1e6)} مليون ريال.",
                                 f"أغلى منافسة في {name} هي «{tname}»، وقيمتها {sar(v * 1.08)}.",
                                 f"The most valuable tender in {REGION_EN[rid]} is worth {v:,.0f} SAR.",
                                 f"أعلى منافسة في {name} قيمتها {sar(v * 0.7)}."][i],
              ["wrong_approximation", "wrong_number", "not_arabic", "wrong_number"][i], f"the row says {v:,.0f}")
    # average by region, top 5
    sql = (f"SELECT region_name, AVG(estimated_value) AS avg_value FROM {T} WHERE region_id IS NOT NULL "
           f"GROUP BY region_id ORDER BY avg_value DESC LIMIT 5")
    top = rows(sql)
    q = "ما المناطق الأعلى في متوسط قيمة المنافسة؟"
    (r1, a1), (r2, a2) = top[:2]
    right(q, "aggregation", sql, f"تتصدر {short(r1)} بمتوسط {sar(a1)} للمنافسة، تليها {short(r2)} بمتوسط {sar(a2)}.",
          "superlative")
    wrong(q, "aggregation", sql, f"تتصدر {short(r2)} بمتوسط {sar(a2)} للمنافسة، تليها {short(r1)}.",
          "wrong_superlative", f"{r1} is first")
    wrong(q, "aggregation", sql, f"{short(r1)} بمتوسط {sar(a2)}، و{short(r2)} بمتوسط {sar(a1)}.", "wrong_row",
          "averages swapped")


def monthly() -> None:
    sql = (f"SELECT CAST(strftime('%m', publish_date) AS INTEGER) AS month, COUNT(*) AS tenders FROM {T} "
           f"WHERE strftime('%Y', publish_date) = '2025' GROUP BY month ORDER BY month")
    data = dict(rows(sql))
    top, low = max(data, key=data.get), min(data, key=data.get)
    q = "كم عدد المنافسات في كل شهر من 2025؟"
    q2 = "أي شهر في 2025 شهد أكبر عدد من المنافسات؟"
    right(q2, "time_filter", sql, f"الشهر {top} ({MONTHS[top]}) هو الأعلى بـ{n(data[top])} منافسة، "
          f"وأقل شهر هو الشهر {low} ({MONTHS[low]}) بـ{n(data[low])}.", "superlative")
    right(q, "time_filter", sql, f"ارتفع العدد من {n(data[2])} في الشهر 2 إلى {n(data[3])} في الشهر 3، "
          f"ثم بلغ ذروته في الشهر 12 بـ{n(data[12])} منافسة.", "direction")
    right(q, "time_filter", sql, f"توزعت منافسات 2025 على الاثني عشر شهراً بين {n(data[low])} و{n(data[top])} "
          f"منافسة شهرياً، بمتوسط {n(sum(data.values()) / 12)} منافسة.", "teens")
    wrong(q2, "time_filter", sql, f"الشهر 1 ({MONTHS[1]}) هو الأعلى بـ{n(data[1])} منافسة.", "wrong_superlative",
          f"month {top} has {data[top]}")
    wrong(q, "time_filter", sql, f"انخفض العدد من {n(data[11])} في الشهر 11 إلى {n(data[12])} في الشهر 12.",
          "wrong_direction", "it rose")
    wrong(q, "time_filter", sql, f"الشهر 4 سجل {n(data[5])} منافسة والشهر 5 سجل {n(data[4])}.", "wrong_row",
          "April and May swapped")


def agencies_by_region() -> None:
    for i, rid in enumerate((3, 4, 6, 7, 10, 5)):
        name = short(REGION[rid])
        sql = (f"SELECT agency_name, COUNT(*) AS tenders FROM {T} WHERE region_id = {rid} "
               f"GROUP BY agency_id ORDER BY tenders DESC LIMIT 3")
        (a1, c1), (a2, c2), (a3, c3) = rows(sql)
        q = [f"ما أكثر جهة طرحت منافسات في منطقة {name}؟", f"مين أكثر جهة عندها منافسات في {name}؟",
             f"أعلى 3 جهات في {name} حسب عدد المنافسات"][i % 3]
        right(q, "distribution", sql, [f"أكثر جهة طرحاً في {name} هي {a1} بـ{n(c1)} منافسة.",
                                       f"أكثرهم {a1}، عندها {ind(str(c1))} منافسة، وبعدها {a2} {ind(str(c2))}.",
                                       f"تتصدر {a1} منافسات {name} بـ{n(c1)} منافسة، تليها {a2} بـ{n(c2)} ثم "
                                       f"{a3} بـ{n(c3)}، أي أن الجهات الثلاث مجتمعة طرحت {n(c1 + c2 + c3)} منافسة."
                                       ][i % 3], ["superlative", "dialect", "llm_prose"][i % 3])
        wrong(q, "distribution", sql, [f"أكثر جهة طرحاً في {name} هي {a2} بـ{n(c2)} منافسة.",
                                       f"أكثرهم {a3}، عندها {ind(str(c3))} منافسة.",
                                       f"تتصدر {a2} منافسات {name}، تليها {a1} ثم {a3}."][i % 3],
              "wrong_superlative", f"{a1} is first")
        if i % 2 == 0:
            wrong(q, "distribution", sql, f"{a1} طرحت {n(c2)} منافسة، و{a2} طرحت {n(c1)}.", "wrong_row",
                  "the first two agencies' counts swapped")
        else:
            wrong(q, "distribution", sql, f"The top agency in {REGION_EN[rid]} is {AGENCY_EN[a1]} with {n(c1)} tenders.",
                  "not_arabic")


def types_yearly() -> None:
    for i, ttype in enumerate((1, 2, 11, 12, 5, 4)):
        tname = one(f"SELECT name_ar FROM tender_types WHERE tender_type_id = {ttype}")
        sql = (f"SELECT strftime('%Y', publish_date) AS year, COUNT(*) AS tenders FROM {T} WHERE tender_type_id = {ttype} "
               f"AND strftime('%Y', publish_date) IN ('2024', '2025') GROUP BY year ORDER BY year")
        (_, a), (_, b) = rows(sql)
        q = f"هل زاد عدد منافسات «{tname}» في 2025 مقارنة بـ2024؟"
        if a == b:
            right(q, "time_filter", sql, f"لا، بقي العدد ثابتاً عند {n(a)} منافسة في العامين.", "direction")
            wrong(q, "time_filter", sql, f"نعم، ارتفع عدد منافسات «{tname}» في 2025 ({n(b)}) عن 2024 ({n(a)}).",
                  "wrong_direction", "unchanged")
            continue
        up = b > a
        verb, anti = ("زاد", "انخفض") if up else ("انخفض", "زاد")
        right(q, "time_filter", sql, [f"{'نعم' if up else 'لا'}، {verb} من {n(a)} إلى {n(b)} منافسة.",
                                      f"{verb} عدد منافسات «{tname}» من {n(a)} في 2024 إلى {n(b)} في 2025، "
                                      f"بتغير نسبته {100 * (b - a) / a:.1f}%."][i % 2], ["yes_no", "llm_prose"][i % 2])
        wrong(q, "time_filter", sql, f"{anti} عدد منافسات «{tname}» في 2025 إلى {n(b)} بعد أن كان {n(a)} في 2024.",
              "wrong_direction", f"{a} -> {b}")


def bounds() -> None:
    act = f"SELECT COUNT(*) AS tenders FROM {T} WHERE activity_id = {{a}}"
    name = lambda a: one(f"SELECT TRIM(name_ar, ' ' || char(9)) FROM activities WHERE activity_id = {a}")
    # (activity, right or wrong, text)
    for a, label, phrase in [(1, "right", "أكثر من 5 آلاف"), (5, "right", "أكثر من ألف"), (6, "right", "تجاوز الألف"),
                             (10, "wrong", "أكثر من ألف"), (13, "wrong", "أكثر من 600"), (9, "wrong", "تجاوز 500"),
                             (26, "wrong", "أكثر من مئة"), (29, "wrong", "أكثر من 100"), (6, "wrong", "أقل من ألف")]:
        sql = act.format(a=a)
        c = one(sql)
        q = f"كم عدد منافسات نشاط «{name(a)}»؟"
        text = f"عدد منافسات هذا النشاط {phrase} منافسة."
        if label == "right":
            right(q, "aggregation", sql, text, "bound", f"the row says {c}")
        else:
            wrong(q, "aggregation", sql, text, "bound_as_rounding", f"the row says {c}")
    sql = f"SELECT COUNT(*) AS tenders FROM {T} WHERE tender_type_id = 2"
    c = one(sql)
    wrong("كم عدد منافسات الشراء المباشر؟", "count", sql, "الشراء المباشر يتجاوز 13 ألف منافسة.", "bound_as_rounding",
          f"the row says {c}")
    right("كم عدد منافسات الشراء المباشر؟", "count", sql, f"قرابة 13 ألف منافسة ({n(c)} بالتحديد).", "approximation")
    sql = f"SELECT COUNT(*) AS tenders FROM {T} WHERE tender_type_id = 1"
    c = one(sql)
    right("كم عدد المنافسات العامة؟", "count", sql, "المنافسات العامة تتجاوز 6 آلاف منافسة.", "bound", f"{c}")
    right("كم عدد المنافسات العامة؟", "count", sql, f"قرابة {n(round(c, -3))} منافسة عامة.", "approximation",
          "digits: flagged today")
    sql = f"SELECT SUM(estimated_value) AS total_value FROM {T} WHERE strftime('%Y', publish_date) = '2024'"
    v = one(sql)
    q = "كم إجمالي القيمة التقديرية لمنافسات 2024؟"
    right(q, "aggregation", sql, "أقل من 10 مليارات ريال بقليل.", "bound", f"{v:,.0f}")
    wrong(q, "aggregation", sql, "تجاوز إجمالي قيمة منافسات 2024 عشرة مليارات ريال.", "bound_as_rounding", f"{v:,.0f}")
    right(q, "aggregation", sql, f"نحو 9.5 مليار ريال ({sar(v)}).", "approximation")
    wrong(q, "aggregation", sql, f"نحو {wrong_approx(v / 1e8) / 10:g} مليار ريال.", "wrong_approximation", f"{v:,.0f}")
    sql = f"SELECT COUNT(*) AS tenders FROM {T} WHERE strftime('%Y', publish_date) = '2025'"
    c = one(sql)
    q = "كم منافسة طرحت في 2025؟"
    wrong(q, "time_filter", sql, "طرحت في 2025 أكثر من 4 آلاف منافسة.", "bound_as_rounding", f"{c}")
    right(q, "time_filter", sql, f"حوالي أربعة آلاف منافسة (تحديداً {n(c)}).", "approximation")
    right(q, "time_filter", sql, f"قرابة {n(round(c, -2))} منافسة.", "approximation", "digits: flagged today")
    wrong(q, "time_filter", sql, f"قرابة {n(wrong_approx(c))} منافسة.", "wrong_approximation", f"{c}")
    sql = f"SELECT COUNT(*) AS tenders FROM {T} WHERE region_id = 1"
    c = one(sql)
    right("كم عدد منافسات الرياض؟", "region_filter", sql, "منافسات الرياض تتعدى سبعة آلاف منافسة.", "bound", f"{c}")
    sql = f"SELECT SUM(estimated_value) AS total_value FROM {T} WHERE strftime('%Y', publish_date) = '2023'"
    v = one(sql)
    right("كم قيمة منافسات 2023؟", "aggregation", sql, "تجاوزت قيمة منافسات 2023 تسعة مليارات ريال.", "bound",
          f"{v:,.0f}")
    wrong("كم قيمة منافسات 2023؟", "aggregation", sql, "قيمة منافسات 2023 أقل من 9 مليارات ريال.",
          "bound_as_rounding", f"{v:,.0f}")


def more_none() -> None:
    small = rows(f"SELECT region_id, activity_id, COUNT(*) AS n FROM {T} WHERE region_id IN (8, 12) "
                 "GROUP BY region_id, activity_id HAVING n BETWEEN 2 AND 9 ORDER BY region_id, activity_id LIMIT 6")
    for i, (rid, aid, _) in enumerate(small):
        name = short(REGION[rid])
        aname = one(f"SELECT TRIM(name_ar, ' ' || char(9)) FROM activities WHERE activity_id = {aid}")
        sql = f"SELECT COUNT(*) AS tenders FROM {T} WHERE region_id = {rid} AND activity_id = {aid}"
        c = one(sql)
        q = [f"هل فيه منافسات في {name} لنشاط {aname}؟", f"كم منافسة لنشاط «{aname}» في منطقة {name}؟"][i % 2]
        if i % 3 == 0:
            right(q, "count", sql, f"فيه {words(c)} منافسات بس لهذا النشاط في {name}.", "words")
        wrong(q, "count", sql, [f"ما فيه أي منافسات لهذا النشاط في {name}.",
                                f"لا توجد أي منافسة لنشاط «{aname}» في منطقة {name}."][i % 2],
              "none_but_rows", f"the row says {c}")
    zeros = rows("SELECT r.region_id, a.activity_id FROM regions r CROSS JOIN activities a WHERE r.region_id IN (8, 9) "
                 f"AND NOT EXISTS (SELECT 1 FROM {T} t WHERE t.region_id = r.region_id AND t.activity_id = a.activity_id) "
                 "ORDER BY r.region_id, a.activity_id LIMIT 3")
    for rid, aid in zeros:
        name = short(REGION[rid])
        aname = one(f"SELECT TRIM(name_ar, ' ' || char(9)) FROM activities WHERE activity_id = {aid}")
        sql = f"SELECT COUNT(*) AS tenders FROM {T} WHERE region_id = {rid} AND activity_id = {aid}"
        right(f"هل توجد منافسات لنشاط «{aname}» في {name}؟", "count", sql,
              f"لا توجد أي منافسات لهذا النشاط في منطقة {name} (العدد 0).", "yes_no")


def more_words_and_english() -> None:
    for i, (rid, year) in enumerate([(1, 2025), (2, 2026), (5, 2024), (6, 2026), (3, 2025), (10, 2024)]):
        name = short(REGION[rid])
        sql = (f"SELECT COUNT(*) AS tenders FROM {T} WHERE region_id = {rid} "
               f"AND strftime('%Y', publish_date) = '{year}'")
        c = one(sql)
        q = f"كم منافسة في {name} خلال {year}؟"
        right(q, "time_filter", sql, [f"شهدت {name} في {year} طرح {words(c)} منافسة.",
                                      f"بلغ عدد المنافسات المطروحة في {name} {words(c)} منافسة خلال عام {year}."][i % 2], "words")
        if i % 2 == 0:
            wrong(q, "time_filter", sql, f"{REGION_EN[rid]} had {n(c)} tenders published in {year}.", "not_arabic")
        else:
            wrong(q, "time_filter", sql, f"في {year} لم تطرح أي منافسة في منطقة {name}.", "none_but_rows",
                  f"the row says {c}")
    sql = (f"SELECT SUM(estimated_value) AS total_value, AVG(estimated_value) AS avg_value, COUNT(*) AS tenders "
           f"FROM {T} WHERE region_id = 3")
    total, avg, c = rows(sql)[0]
    q = "ما متوسط قيمة المنافسة في المدينة المنورة؟"
    wrong(q, "aggregation", sql, f"The average tender value in Madinah is {avg:,.0f} SAR across {n(c)} tenders.",
          "not_arabic")
    right(q, "aggregation", sql, f"متوسط القيمة {sar(avg)} للمنافسة الواحدة، من أصل {n(c)} منافسة إجماليها {sar(total)}.",
          "llm_prose")
    wrong(q, "aggregation", sql, f"متوسط القيمة {sar(total)} للمنافسة الواحدة.", "wrong_measure", "the sum")
    wrong(q, "aggregation", sql, f"متوسط القيمة قرابة {wrong_approx(avg / 1e5) / 10:g} مليون ريال.",
          "wrong_approximation", f"{avg:,.0f}")


def more_wrong() -> None:
    """More faults of the kinds the scenarios above hold fewest of, over the same kinds of rows."""
    s = SQL_REGIONS
    q = "كم عدد المنافسات في كل منطقة؟"
    for a, b in [("الشرقية", "مكة المكرمة"), ("تبوك", "جازان"), ("الحدود الشمالية", "حائل"), ("الجوف", "الباحة")]:
        wrong(q, "distribution", s, f"منطقة {a} فيها {n(RC[b])} منافسة، بينما {b} فيها {n(RC[a])}.", "wrong_row",
              f"{a} and {b} swapped")
    wrong(q, "distribution", s, f"أكثر المناطق {short(REGION_COUNTS[0][0])} بنحو 9 آلاف منافسة.",
          "wrong_approximation", f"{REGION_COUNTS[0][1]}")
    wrong(q, "distribution", s, f"الرياض تستحوذ على {pct(RC['مكة المكرمة'], REGION_TOTAL)} من منافسات المناطق.",
          "wrong_row", "Makkah's share quoted for Riyadh")
    for i, ttype in enumerate((1, 2, 11, 6)):
        tname = one(f"SELECT name_ar FROM tender_types WHERE tender_type_id = {ttype}")
        sql = (f"SELECT COUNT(*) AS tenders, SUM(estimated_value) AS total_value, AVG(estimated_value) AS avg_value "
               f"FROM {T} WHERE tender_type_id = {ttype}")
        c, total, avg = rows(sql)[0]
        q = f"ما إجمالي القيمة التقديرية لمنافسات «{tname}»؟"
        wrong(q, "aggregation", sql, [f"إجمالي قيمة منافسات «{tname}» نحو {wrong_approx(total / 1e9)} مليار ريال.",
                                      f"الإجمالي قرابة {n(wrong_approx(total / 1e6))} مليون ريال.",
                                      f"يقارب الإجمالي {wrong_approx(total / 1e8) / 10:g} مليار ريال.",
                                      f"تقريباً {wrong_approx(total / 1e9)} مليار ريال في المجموع."][i],
              "wrong_approximation", f"{total:,.0f}")
        if i < 3:
            wrong(q, "aggregation", sql, [f"إجمالي قيمة منافسات «{tname}» {sar(avg)}.",
                                          f"الإجمالي {sar(avg)} موزعاً على {n(c)} منافسة.",
                                          f"مجموع القيم {n(c)} ريال."][i], "wrong_measure",
                  "the average (or the count) quoted as the total")
    sql = (f"SELECT strftime('%Y', publish_date) AS year, COUNT(*) AS tenders, SUM(estimated_value) AS total_value "
           f"FROM {T} GROUP BY year ORDER BY year")
    data = {y: (c, v) for y, c, v in rows(sql)}
    q = "كيف تطورت المنافسات من سنة لأخرى؟"
    wrong(q, "aggregation", sql, f"انخفض عدد المنافسات من {n(data['2022'][0])} في 2022 إلى {n(data['2023'][0])} في 2023.",
          "wrong_direction", "it rose")
    wrong(q, "aggregation", sql, f"تراجعت قيمة المنافسات في 2026 إلى {sar(data['2026'][1])} بعد {sar(data['2025'][1])} "
          f"في 2025.", "wrong_direction", "it rose")
    wrong(q, "aggregation", sql, f"نزلت المنافسات في 2024، كانت {ind(n(data['2023'][0]))} وصارت {ind(n(data['2024'][0]))}.",
          "wrong_direction", "it rose")
    wrong(q, "aggregation", sql, f"عدد منافسات 2026 {n(data['2025'][0])}، ومنافسات 2025 {n(data['2026'][0])}.",
          "wrong_row", "2025 and 2026 swapped")
    for rid, status, limit in [(1, 1, 700), (3, 5, 100), (2, 6, 400)]:
        name, sname = short(REGION[rid]), one(f"SELECT name_ar FROM tender_statuses WHERE status_id = {status}")
        sql = f"SELECT COUNT(*) AS tenders FROM {T} WHERE region_id = {rid} AND status_id = {status}"
        c = one(sql)
        q = f"هل المنافسات ال{sname} في {name} تتجاوز {limit} منافسة؟"
        ok, bad = ("نعم", "لا") if c > limit else ("لا", "نعم")
        wrong(q, "value_filter", sql, f"{bad}، حيث بلغ عددها {n(c)} منافسة {sname}.", "wrong_yes_no",
              f"{c} against {limit}")
    for rid, status in [(13, 3), (9, 2)]:
        name, sname = short(REGION[rid]), one(f"SELECT name_ar FROM tender_statuses WHERE status_id = {status}")
        sql = f"SELECT COUNT(*) AS tenders FROM {T} WHERE region_id = {rid} AND status_id = {status}"
        c = one(sql)
        wrong(f"كم منافسة {sname} في {name}؟", "count", sql,
              f"حالياً لا توجد أي منافسات {sname} في منطقة {name}، فجميعها في مراحل أخرى.", "none_but_rows",
              f"the row says {c}")
    sql = (f"SELECT TRIM(activity_name, ' ' || char(9)) AS activity, COUNT(*) AS tenders, "
           f"SUM(estimated_value) AS total_value FROM {T} GROUP BY activity_id ORDER BY tenders DESC LIMIT 5")
    (n1, c1, v1), (n2, c2, v2), (n3, c3, v3) = rows(sql)[:3]
    q = "ما أكثر الأنشطة طرحاً للمنافسات؟"
    right(q, "distribution", sql, f"يتصدر نشاط «{n1}» بـ{n(c1)} منافسة وقيمة تقديرية {sar(v1)}، يليه «{n2}» "
          f"بـ{n(c2)} منافسة، ثم «{n3}» بـ{n(c3)}.", "superlative")
    wrong(q, "distribution", sql, f"أكثر الأنشطة طرحاً هو «{n2}» بـ{n(c2)} منافسة.", "wrong_superlative",
          f"{n1} is first")
    wrong(q, "distribution", sql, f"«{n1}»: {n(c2)} منافسة، و«{n2}»: {n(c1)} منافسة.", "wrong_row", "swapped")
    wrong(q, "distribution", sql, f"يتصدر نشاط «{n1}» بـ{n(c1)} منافسة، بمتوسط {sar(v1)} للمنافسة.",
          "wrong_measure", "the sum quoted as the average")
    wrong(q, "distribution", sql, f"يتصدر نشاط «{n1}» بقرابة {n(wrong_approx(c1))} منافسة.", "wrong_approximation",
          f"{c1}")
    wrong(q, "distribution", sql, f"يتصدر «{n1}»، يليه «{n2}»، وفي المرتبة الثالثة «{n3}» بـ{n(c3 + 250)} منافسة.",
          "wrong_number", f"{n3} has {c3}")


def mixed_styles() -> None:
    """Faults written in the styles of right answers (dialect, Arabic-Indic digits, words,
    markdown prose) and right answers in the same voices, so that style never tells the label."""
    s = SQL_REGIONS
    r, m, e, b, j = RC["الرياض"], RC["مكة المكرمة"], RC["الشرقية"], RC["الباحة"], RC["الجوف"]
    q = "وش توزيع المنافسات على المناطق؟"
    right(q, "distribution", s, f"**توزيع المنافسات حسب المنطقة:**\n- **الرياض**: {n(r)} منافسة ({pct(r, REGION_TOTAL)})\n"
          f"- **مكة المكرمة**: {n(m)} ({pct(m, REGION_TOTAL)})\n- **الشرقية**: {n(e)} ({pct(e, REGION_TOTAL)})\n\n"
          f"وفي ذيل القائمة الباحة بـ{n(b)} منافسة فقط.", "llm_prose")
    wrong(q, "distribution", s, f"الرياض {ind(n(m))} ومكة المكرمة {ind(n(r))}، والشرقية {ind(n(e))}.", "wrong_row",
          "Riyadh and Makkah swapped, in Arabic-Indic digits")
    wrong(q, "distribution", s, f"أقل منطقة فيها منافسات الجوف، بس {ind(str(j))} منافسة.", "wrong_superlative",
          f"Al-Baha has {b}")
    wrong(q, "distribution", s, f"أكثر منطقة مكة المكرمة، فيها {words(m)} منافسة.", "wrong_superlative",
          "Riyadh is first (in words)")
    right(q, "distribution", s, f"أكثر منطقة الرياض، فيها {words(r)} منافسة، وأقلها الباحة، فيها {words(b)}.", "words")
    wrong(q, "distribution", s, f"الرياض فيها تقريباً ٩ آلاف منافسة، ومكة حوالي {ind(n(m))}.", "wrong_approximation",
          f"Riyadh {r}")
    wrong(q, "distribution", s, "الشرقية فوق الثلاثة آلاف منافسة، وهي ثالث منطقة.", "bound_as_rounding", f"{e}")
    right(q, "distribution", s, "الشرقية قرابة ثلاثة آلاف منافسة، وهي ثالث منطقة بعد الرياض ومكة المكرمة.",
          "approximation", f"{e}")
    right(q, "distribution", s, "الرياض فوق السبعة آلاف منافسة، ولا منطقة ثانية تقرب منها.", "bound", f"{r}")
    right(q, "distribution", s, f"أقل منطقة الباحة، {ind(str(b))} منافسة بس، وقبلها الجوف {ind(str(j))}.", "superlative")
    for rid, y1, y2 in [(6, 2024, 2025), (5, 2024, 2025)]:
        name = short(REGION[rid])
        sql = (f"SELECT strftime('%Y', publish_date) AS year, COUNT(*) AS tenders FROM {T} WHERE region_id = {rid} "
               f"AND strftime('%Y', publish_date) IN ('{y1}', '{y2}') GROUP BY year ORDER BY year")
        (_, a), (_, c) = rows(sql)
        assert c < a
        q = f"منافسات {name} زادت ولا نقصت في {y2}؟"
        right(q, "time_filter", sql, f"نقصت، كانت {ind(str(a))} في {ind(str(y1))} وصارت {ind(str(c))} في {ind(str(y2))}.",
              "dialect")
        wrong(q, "time_filter", sql, f"زادت، كانت {ind(str(a))} في {ind(str(y1))} وصارت {ind(str(c))} في {ind(str(y2))}.",
              "wrong_direction", f"{a} -> {c}")
    sql = (f"SELECT SUM(estimated_value) AS total_value FROM {T} WHERE region_id = 5 "
           f"AND strftime('%Y', publish_date) = '2025'")
    v = one(sql)
    assert v < 1e9
    q = "قيمة منافسات الشرقية في 2025 تعدّت المليار؟"
    wrong(q, "value_filter", sql, f"إيه تعدّت المليار، مجموعها {ind(sar(v))}.", "wrong_yes_no", f"{v:,.0f}")
    right(q, "value_filter", sql, f"لا ما تعدّت، مجموعها {ind(sar(v))} يعني قريبة من المليار بس أقل.", "dialect")
    sql = f"SELECT COUNT(*) AS tenders FROM {T} WHERE region_id = 2 AND status_id = 1"
    c = one(sql)
    q = "هل عدد المنافسات النشطة في مكة المكرمة يتجاوز 300؟"
    wrong(q, "value_filter", sql, f"نعم، يتجاوزها؛ عددها {words(c)} منافسة.", "wrong_yes_no", f"{c}")
    right(q, "value_filter", sql, f"لا، لا يتجاوزها؛ عددها {words(c)} منافسة نشطة.", "words")
    sql = f"SELECT SUM(estimated_value) AS total_value, COUNT(*) AS tenders FROM {T} WHERE region_id = 7"
    total, c = rows(sql)[0]
    q = "كم متوسط قيمة المنافسة في تبوك؟"
    wrong(q, "aggregation", sql, f"متوسط المنافسة الوحدة في تبوك {ind(sar(total))}.", "wrong_measure",
          "the sum quoted as the average")
    right(q, "aggregation", sql, f"المنافسة الوحدة في تبوك متوسطها {ind(sar(total / c))}، لأن المجموع "
          f"{ind(sar(total))} على {ind(str(c))} منافسة.", "derived_in_row")
    sql = (f"SELECT SUM(CASE WHEN status_id = 5 THEN 1 ELSE 0 END) AS cancelled, COUNT(*) AS tenders FROM {T} "
           "WHERE region_id = 1")
    ca, c = rows(sql)[0]
    q = "وش نسبة الملغاة في الرياض؟"
    right(q, "aggregation", sql, f"{ind(n(ca))} ملغاة من أصل {ind(n(c))}، يعني تقريباً {ind(pct(ca, c)[:-1])}٪.",
          "derived_in_row")
    wrong(q, "aggregation", sql, f"ما فيه ولا منافسة ملغاة في الرياض، كلها ماشية.", "none_but_rows", f"{ca}")
    sql = (f"SELECT agency_name, COUNT(*) AS tenders FROM {T} WHERE region_id = 1 "
           f"GROUP BY agency_id ORDER BY tenders DESC LIMIT 3")
    (a1, c1), (a2, c2), (a3, c3) = rows(sql)
    q = "أبي أكثر ثلاث جهات تطرح منافسات في الرياض"
    right(q, "distribution", sql, f"## أكثر الجهات طرحاً في الرياض\n1. **{a1}** — {n(c1)} منافسة\n2. **{a2}** — "
          f"{n(c2)} منافسة\n3. **{a3}** — {n(c3)} منافسة\n\nالفارق بين الأولى والثانية {n(c1 - c2)} منافسة.",
          "llm_prose")
    wrong(q, "distribution", sql, f"## أكثر الجهات طرحاً في الرياض\n1. **{a2}** — {n(c2)} منافسة\n2. **{a1}** — "
          f"{n(c1)} منافسة\n3. **{a3}** — {n(c3)} منافسة", "wrong_superlative", f"{a1} is first")
    wrong(q, "distribution", sql, f"1. {a1}: {ind(n(c1))}\n2. {a2}: {ind(n(c3))}\n3. {a3}: {ind(n(c2))}", "wrong_row",
          "second and third swapped")
    right(q, "distribution", sql, f"١. {a1}: {ind(n(c1))}\n٢. {a2}: {ind(n(c2))}\n٣. {a3}: {ind(n(c3))}",
          "arabic_indic")
    sql = f"SELECT COUNT(*) AS projects, SUM(estimated_value) AS total_value FROM future_projects WHERE region_id = 1"
    c, v = rows(sql)[0]
    q = "كم عدد المشاريع المستقبلية في منطقة الرياض وقيمتها؟"
    right(q, "aggregation", sql, f"عندك في الرياض {n(c)} مشروع مستقبلي، قيمتها التقديرية {sar(v)}.", "dialect")
    wrong(q, "aggregation", sql, f"ما فيه مشاريع مستقبلية مسجلة للرياض حتى الآن.", "none_but_rows", f"{c}")
    wrong(q, "aggregation", sql, f"Riyadh has {n(c)} future projects worth {v:,.0f} SAR.", "not_arabic")
    right(q, "aggregation", sql, f"{ind(n(c))} مشروعاً بقيمة تقديرية {ind(sar(v))}.", "arabic_indic")


def check() -> None:
    """What every item must be: a question and an insight, an answer long enough or with a digit
    (else the seed's fidelity fails it for another reason than its label)."""
    for item in ITEMS:
        has_digit = any(ch.isdigit() for ch in item["insight"])
        assert has_digit or len(item["insight"].strip()) > 30 or item["sql"] is None, item


if __name__ == "__main__":
    build()
    check()
    OUT.write_text(json.dumps(ITEMS, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    tally = Counter((item["label"], item["kind"]) for item in ITEMS)
    print(len(ITEMS), Counter(item["label"] for item in ITEMS))
    for (label, kind), count in sorted(tally.items()):
        print(f"  {label:5} {kind:20} {count}")
