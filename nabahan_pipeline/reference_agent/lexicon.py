"""The reference agent's Arabic vocabulary, MSA and Saudi dialect, in normalized spelling.

Every entry is written as ``normalize_arabic`` leaves text (أ/إ/آ → ا, ة → ه, ى → ي, ئ → ي, ؤ → و)
and is a regular-expression fragment for one word or phrase *without* its clitics: the parser adds
the conjunctions و/ف, the prepositions ب/ل/ك and the article ال in front of the first word
("بالرياض", "والشرقية", "للرياض" all match ``رياض``). ``ال?`` inside a phrase marks an optional
article on a later word. Keep entries specific: a word listed here is taken as meaning what its
section says wherever it appears in a question.

Region, city and status names come from the reference data the database is generated from
(``etimad_db.reference_data``); this module adds only the other ways people say them.
"""

from __future__ import annotations

import json
import re
from importlib.resources import files

from nabahan_pipeline.arabic import hijri_calendar as hc
from nabahan_pipeline.arabic.normalize import normalize_arabic
from nabahan_pipeline.etimad_db.reference_data import CITIES, REGIONS, STATUSES

# The ways of phrasing a question beyond the words it asks with (fillers, greetings, wrappers,
# dialect and English words, typo nouns): package data, read once when the lexicon is imported.
PHRASING: dict = json.loads(files("nabahan_pipeline.reference_agent").joinpath("phrasing.json").read_text(encoding="utf-8"))

# --- places -------------------------------------------------------------------------------------

# Spoken names of a region beyond the names the reference data gives it (its short name and its
# cities): bare city names without their article, other spellings, governorates the data omits.
REGION_VARIANTS: dict[int, tuple[str, ...]] = {
    1: ("خرج", "القويعيه", "عفيف"),
    2: ("مكه(?: ال?مكرمه)?", "جدا", "طايف"),
    3: ("مدينه ال?منوره", "المدينه"),
    5: ("دمام", "خبر", "ظهران", "جبيل", "احساء", "احسا", "هفوف", "قطيف", "خفجي"),
    6: ("خميس",),
    7: ("نيوم",),
    9: ("حدود ال?شماليه", "الشماليه", "رفحا"),
    10: ("جيزان",),
    13: ("دومه ال?جندل",),
}


def _name_term(name: str, article: bool = True) -> str:
    """A name from the reference data as a lexicon entry: normalized, and without the article of
    its first word unless ``article`` (the parser adds the article itself)."""
    term = normalize_arabic(name)
    if not re.fullmatch(r"[\u0621-\u064a ]+", term):
        raise ValueError(f"reference name {name!r} is not plain Arabic words")
    return term if article or not term.startswith("ال") else term[2:]


# Region id -> its short name, its cities (as written: a city's bare name can be an ordinary word,
# "الوجه" / "وجه"), and its spoken variants.
REGION_TERMS: dict[int, tuple[str, ...]] = {
    region.region_id: (
        _name_term(region.short_ar, article=False),
        *(_name_term(city.name_ar) for city in CITIES if city.region_id == region.region_id),
        *REGION_VARIANTS.get(region.region_id, ()),
    )
    for region in REGIONS
}

# Words for the whole country: no region filter.
COUNTRY_TERMS = ("سعوديه", "المملكه(?: ال?عربيه ال?سعوديه)?", "كل ال?مملكه")

# --- statuses and tender types (ids as in tender_statuses / tender_types) ------------------------

# Spoken forms of each status beyond its name in the reference data.
STATUS_VARIANTS: dict[int, tuple[str, ...]] = {
    1: (
        "نشط(?:ه|ات)?", "حاليه", "متاح(?:ه|ات)?(?: لل?تقديم)?", "مفتوح(?:ه|ات)?", "شغاله", "ساريه",
        "تستقبل ال?عروض", "مطروح(?:ه|ات)? حاليا", "(?:في|قيد) (?:مرحله )?تقديم ال?عروض",
    ),
    2: ("(?:قيد|تحت) ال?(?:فحص|تقييم|دراسه|مراجعه)", "فحص ال?عروض"),
    3: ("(?:قيد|تحت) ال?ترسيه", "جاري ترسيت(?:ها|ه)", "(?:في )?مرحله ال?ترسيه"),
    4: (
        "تمت? ال?ترسيه", "تمت? ترسيت(?:ها|ه|هم)", "(?:اللي )?ترست", "اترست", "مرساه", "مرسيه", "مرسي عليها",
        "تمت ترسيتها", "رست", "رسيت",
    ),
    5: ("ملغا(?:ه|ت)?", "ملغي(?:ه|ات)?", "الغيت", "تم الغاوها", "انلغت", "ملغيه"),
    6: ("منتهي(?:ه|ات)?", "انتهت", "مغلق(?:ه|ات)?", "مقفل(?:ه|ات)?", "مسكر(?:ه|ات)?", "خلصت", "منقضيه"),
}
# Status id -> its name and its spoken forms.
STATUS_TERMS: dict[int, tuple[str, ...]] = {
    status.status_id: (_name_term(status.name_ar, article=False), *STATUS_VARIANTS.get(status.status_id, ()))
    for status in STATUSES
}

TYPE_TERMS: dict[int, tuple[str, ...]] = {
    1: ("(?:منافس|مناقص)(?:ه|ات) ال?عام(?:ه)?", "طرح ال?عام", "عام(?:ه)? مفتوحه"),
    2: ("(?:شراء|شرا|مشتريات|تعاقد|تعميد) ال?مباشر(?:ه)?", "مباشر(?:ه)?"),
    4: ("(?:منافس|مناقص)(?:ه|ات) ال?محدود(?:ه)?", "محدوده"),
    5: ("مزايد(?:ه|ات)(?: ال?عكسيه)?(?: ال?الكترونيه)?", "عكسيه"),
    6: ("(?:علي )?مرحلتين",),
    11: ("(?:منافس(?:ه|ات) )?اتفاقي(?:ه|ات) ال?اطاري(?:ه)?", "اطاري(?:ه)?"),
    12: ("مسابق(?:ه|ات)(?: تصميم)?",),
}

# Groups of agencies named by a plural ("الجامعات"): group -> the words that name it. Who belongs
# is derived from the agencies' names (``parser.agency_groups``), never listed here.
AGENCY_GROUP_TERMS: dict[str, tuple[str, ...]] = {
    "universities": ("جامعات",),
    "health_clusters": ("تجمعات ال?صحيه",),
    "municipalities": ("امانات(?: ال?مناطق)?(?: وال?محافظات)?",),
    "hospitals": ("مستشفيات",),
    "ministries": ("وزارات",),
    "authorities": ("هييات",),
}
# The singular of each group, read as the group only after a grouping word ("لكل جامعة": the
# universities, each one); elsewhere a singular is a name's first word ("جامعة القصيم").
AGENCY_GROUP_SINGULARS: dict[str, tuple[str, ...]] = {
    "universities": ("جامعه",),
    "health_clusters": ("تجمع صحي",),
    "municipalities": ("امانه",),
    "hospitals": ("مستشفي",),
    "ministries": ("وزاره",),
    "authorities": ("هييه",),
}

# --- what the question is about -----------------------------------------------------------------

TENDER_TERMS = (
    "مناقص(?:ه واحده|ه|ات|تين|اتها|اته|ات?هم)?", "منافس(?:ه واحده|ه|ات|تين|اتها)?", "عطاء(?:ات)?", "عطا",
    "طرح(?:ت|ها|وا|ا|ه|تها|تهم)?", "انطرح(?:ت)?", "مطروح(?:ه|ات)?", "صفق(?:ه|ات)", "مشتريات ال?حكوميه",
    "مشتريات", "اعلان(?:ات)?",
)
PROJECT_TERMS = ("مشروع(?:ات|ا)?", "مشاريع(?:ها)?", "خط(?:ه|ط) ال?(?:شراء|مشتريات)", "مشتريات ال?مستقبليه")
# Adjectives that confirm the future_projects table ("المشاريع القادمة").
PROJECT_ADJECTIVES = ("مستقبلي(?:ه|ا)?", "قادم(?:ه)?", "جايه", "مخطط(?: لها)?", "متوقع(?:ه)?", "يتوقع", "مستقبل")

# Column words.
VALUE_TERMS = (
    "قيم(?:ه|ت|تها|ته|تهم|هم|ها)?", "مبلغ(?:ها)?", "مبالغ", "تكلف(?:ه|تها|ته)", "ميزاني(?:ه|تها|ات)",
    "سعر(?:ها)?", "فلوس", "ريال", "اسعار", "غال(?:يه|ي)",
)
# Words that name the estimated value against the awarded one ("القيمة التقديرية").
ESTIMATED_TERMS = ("قيم(?:ه|ت|تها|ته|هم|ها)? ال?تقديري(?:ه)?", "تقديري(?:ه)?")
AWARD_TERMS = ("ترسي(?:ه|تها|ات)", "ال?مبلغ ال?مرسي", "عقود")
BIDS_TERMS = ("عروض(?:ا|ها)?", "عرض", "متقدمين", "متنافسين", "مشاركين", "عطاءات ال?مقدمه")
BOOKLET_TERMS = ("كراس(?:ه|ات|تها|ته)(?: ال?شروط)?(?: وال?مواصفات)?", "كراسه ال?شروط", "وثايق ال?مناقصه")
DURATION_TERMS = ("مد(?:ه|تها|ته|ت)", "طول")
DEADLINE_TERMS = (
    "اخر موعد(?: ل?(?:تقديم|استقبال))?(?: ال?عروض(?:ها)?)?", "موعد ال?اغلاق",
    "موعد(?: ال?نهايي)? ل?تقديم(?: ال?عروض(?:ها)?)?",
    "(?:يقفل|يغلق|ينتهي|تنتهي) (?:باب )?(?:ال?تقديم|موعد ال?تقديم)(?: ال?عروض(?:ها)?)?", "تغلق", "يغلق",
    "ينتهي ال?تقديم", "(?:مهله|فتره) (?:ال?تقديم|تقديم ال?عروض)(?: ال?عروض(?:ها)?)?", "موعد(?:ها)? ال?نهايي",
    "اخر يوم (?:ل)?(?:تقديم|استقبال) ال?عروض(?:ها)?", "موعد ال?تقديم(?:ها)?(?: (?:عليها|فيها))?",
)
# The other dates of a tender's calendar: the last day for enquiries (last_enquiry_date) and the day
# its offers are opened (offers_opening_date).
ENQUIRY_TERMS = (
    "(?:اخر )?(?:موعد|تاريخ|مهله|فتره|يوم) (?:ال|لل|ل)?(?:استفسار(?:ات)?|اسيله|تساولات)(?:ها)?",
    "(?:استقبال|تلقي) ال?(?:استفسارات|اسيله)", "استفسارات(?:ها)?",
)
OPENING_TERMS = (
    "(?:موعد|تاريخ|يوم) (?:ل)?فتح ال?(?:عروض|مظاريف)(?:ها)?", "فتح ال?(?:عروض|مظاريف)(?:ها)?",
    "(?:تفتح|يفتح|فتحت|انفتحت) (?:فيها )?ال?(?:عروض|مظاريف)(?:ها)?", "(?:تفتح|يفتح|فتحت) (?:عروضها|مظاريفها)",
)
# Verbs of a date column: its day has passed ("انتهت مهلة الاستفسارات"), has not ("لم ينته موعد
# تقديم العروض"), or falls on a date the question names ("تنتهي ... في سبتمبر").
DATE_PASSED_VERBS = (
    "انتهت", "انتهي", "انقضت", "انقضي", "فاتت", "فات", "مضت", "مضي", "خلصت", "خلص", "قفلت", "قفل", "اغلقت",
    "انغلقت", "سكرت", "تجاوزت", "تعدت", "مر", "مرت",
)
DATE_PENDING_VERBS = (
    "لم (?:ت|ي)(?:نته|نتهي|نقض|نقضي|قفل|غلق|حن)", "ما (?:انتهت|انتهي|خلصت|خلص|قفلت|قفل|فات|فاتت|جا|جات)",
    "لا (?:ي|ت)زال", "ما زال(?:ت)?", "مازال(?:ت)?", "لسه", "باقي", "ما بعد (?:انتهت|انتهي|خلص(?:ت)?)",
)
DATE_ON_VERBS = (
    "تنتهي", "ينتهي", "تنقضي", "ينقضي", "يقفل", "تقفل", "يغلق", "تغلق", "يحل", "تحل", "يكون", "تكون", "يصادف",
    "يوافق",
)
# A superlative before a date column asks for that date itself: the soonest one still to come,
# the earliest or the latest in the data.
DATE_EXTREME_TERMS = {"اقرب": "soonest", "ابكر": "min", "اقدم": "min", "ابعد": "max"}

# The unit an answer is asked in ("بالأشهر"): read before the dimension nouns it looks like.
UNIT_TERMS = ("بال?(?:اشهر|شهور)", "بال?ريال", "بال?ايام")

# Group-by dimensions: word -> dimension.
DIMENSION_TERMS: dict[str, tuple[str, ...]] = {
    "region": ("منطق(?:ه|ات|تها|تين)", "مناطق(?:ها)?"),
    "status": ("حال(?:ه|ات|تها|اتها)", "وضع"),
    "type": ("نوع(?:ها)?", "انواع(?:ها)?", "طريق(?:ه) ال?طرح", "طرق ال?طرح", "اصناف(?:ها)?"),
    "activity": ("نشاط(?:ات|ها)?", "انشط(?:ه|تها)", "مجال(?:ات|اتها)?", "قطاع(?:ات|اتها)?"),
    "agency": (
        "جه(?:ه|ات|اتها)(?: ال?حكومي(?:ه)?)?", "جهات ال?حكوميه", "وزار(?:ه|ات)", "هيي(?:ه|ات)", "هي(?:ه|ات)",
        "اداره", "ادارات", "مستشفيات",
    ),
    "year": ("سن(?:ه|وات|ين)", "عام", "اعوام", "سنويا"),
    "month": ("شهر", "اشهر", "شهور", "شهريا"),
    "quarter": ("ربع", "ارباع", "فصل", "فصول"),
}

# --- what is asked ----------------------------------------------------------------------------

COUNT_TERMS = ("كم(?: عدد)?", "عدد", "قديش", "كام", "احسب", "احص", "تعداد")
LIST_TERMS = (
    "اعرض", "اعرضلي", "ورني", "وريني", "عطني", "عطيني", "اعطني", "اعطيني", "هات", "هاتلي", "جيب", "جيبلي",
    "ابغي", "ابي", "ابا", "اريد", "بدي", "اذكر", "سرد", "قايمه", "لست", "ما هي", "ما هو", "ماهي", "ماهو",
    "وش", "ايش", "شنو", "شو", "وشو", "ايه", "اظهر", "ابحث", "دور", "فيه", "هل", "ممكن", "لو سمحت",
)
SUM_TERMS = ("مجموع", "اجمالي", "مجمل", "اجماليه", "كامل", "حجم", "اجمال", "المجموع الكلي", "مجموع(?:ها|هم)")
AVG_TERMS = ("متوسط", "معدل", "وسطي", "المتوسط", "متوسط(?:ها|هم)")
# Superlatives: word -> direction. "اكثر"/"اقل" are also comparators ("اكثر من مليون"); the
# parser reads comparators first and only the words left over are superlatives.
SUPERLATIVE_TERMS: dict[str, str] = {
    "اكثر": "desc", "اعلي": "desc", "اكبر": "desc", "اغلي": "desc", "اضخم": "desc", "ارفع": "desc",
    "اطول": "desc", "اقل": "asc", "ادني": "asc", "اصغر": "asc", "ارخص": "asc", "اقصر": "asc", "اضعف": "asc",
}
# Words that order by date: newest first or oldest first.
RECENT_TERMS = ("احدث", "اجدد", "اخر", "جديد(?:ه)?", "اخر ما نشر")
# "أول 5 منافسات طرحت في 2024": the first published, not the five highest values.
OLDEST_TERMS = ("اقدم", "اول ما نشر", "اول(?=\\s+(?:[0-9]+\\s+)?(?:ال)?(?:منافس|مناقص|مشاريع|مشروع|عطاء|صفق))")
SOONEST_TERMS = ("اقرب",)
# Small cardinal words for top-N ("اعلى خمس مناقصات").
SMALL_NUMBERS: dict[str, int] = {
    "واحد": 1, "واحده": 1, "اثنين": 2, "اثنتين": 2, "ثنتين": 2, "ثلاث": 3, "ثلاثه": 3, "اربع": 4, "اربعه": 4,
    "خمس": 5, "خمسه": 5, "ست": 6, "سته": 6, "سبع": 7, "سبعه": 7, "ثمان": 8, "ثماني": 8, "ثمانيه": 8, "تسع": 9,
    "تسعه": 9, "عشر": 10, "عشره": 10, "عشرين": 20, "خمسطعش": 15, "خمسه عشر": 15,
}
# Plural superlatives without a number ("أكثر الجهات") return this many rows.
DEFAULT_TOP_N = 5

# Comparators before a number: pattern -> operator. Checked in order; the first that fits wins.
COMPARATOR_TERMS: tuple[tuple[str, str], ...] = (
    (r"(?:اقل|اصغر|ادني) (?:من|عن) او (?:ت|ي)?ساوي", "<="),
    (r"(?:اكثر|اكبر|اعلي) (?:من|عن) او (?:ت|ي)?ساوي", ">="),
    (r"(?:لا|ما|مو|ليس) ?(?:ت|ي)?(?:تعدي|تتعدي|يتعدي|تخطي|تتخطي|يتخطي|فوق|تفوق|يفوق)(?: عن| علي)?", "<="),
    (r"(?:علي (?:ال)?اقل|كحد ادني|(?:ب|ك)?(?:ال)?حد (?:ال)?ادني)", ">="),
    (r"(?:علي (?:ال)?اكثر|كحد اقصي|(?:ب|ك)?(?:ال)?حد (?:ال)?اقصي)", "<="),
    (r"(?:لا|ما|مو|ليس) ?(?:ت|ي)?(?:تجاوز|تتجاوز|يتجاوز|تزيد|يزيد|تزيد قيمتها)(?: عن| علي)?", "<="),
    (r"(?:لا|ما|مو) ?(?:ت|ي)?(?:قل|تقل|يقل|تنزل|ينزل)(?: قيمتها)? عن", ">="),
    (r"(?:اكثر|اكبر|اعلي|اعلي|ازيد|اغلي) (?:من|عن)", ">"),
    (
        r"(?:يتجاوز|تتجاوز|تجاوز|تجاوزت|تتعدي|يتعدي|تعدت|تعدي|تتخطي|يتخطي|تخطت|تفوق|يفوق|فاقت|تزيد|يزيد|زادت|زاد)"
        r" ?(?:عن|علي)?",
        ">",
    ),
    (r"فوق", ">"),
    (r"(?:اقل|اصغر|ادني|ادني|انقص|ارخص) (?:من|عن)", "<"),
    (r"(?:تحت|دون)", "<"),
    (r"(?:تقل|يقل|نقصت|تنقص) ?(?:عن)?", "<"),
    (r"(?:تساوي|يساوي|بالضبط)", "="),
)
# After a number: "مليون فأكثر", "1000 أو أقل".
TRAILING_COMPARATORS: tuple[tuple[str, str], ...] = (
    (r"(?:علي (?:ال)?اقل|كحد ادني|ب(?:ال)?حد (?:ال)?ادني)", ">="),
    (r"(?:علي (?:ال)?اكثر|كحد اقصي|ب(?:ال)?حد (?:ال)?اقصي)", "<="),
    (r"(?:ف|و|او )(?:اكثر|اعلي|ما فوق|فوق|اكبر)", ">="),
    (r"(?:ف|و|او )(?:اقل|ادني|ما دون|دون|اصغر|تحت)", "<="),
)

# --- time ---------------------------------------------------------------------------------------

MONTHS: dict[str, int] = {
    "يناير": 1, "جانفي": 1, "كانون الثاني": 1,
    "فبراير": 2, "فبرابر": 2, "شباط": 2,
    "مارس": 3, "اذار": 3,
    "ابريل": 4, "افريل": 4, "نيسان": 4,
    "مايو": 5, "ماي": 5, "ايار": 5,
    "يونيو": 6, "يونيه": 6, "حزيران": 6, "جوان": 6,
    "يوليو": 7, "يوليه": 7, "تموز": 7, "جويليه": 7,
    "اغسطس": 8, "اغسطوس": 8, "اب": 8, "اوت": 8,
    "سبتمبر": 9, "ايلول": 9,
    "اكتوبر": 10, "تشرين الاول": 10,
    "نوفمبر": 11, "تشرين الثاني": 11,
    "ديسمبر": 12, "كانون الاول": 12,
}
ORDINALS: dict[str, int] = {
    "اول": 1, "الاول": 1, "ثاني": 2, "الثاني": 2, "ثالث": 3, "الثالث": 3, "رابع": 4, "الرابع": 4,
    "اخير": 4, "الاخير": 4,
}
# Ordinal ranks ("رابع منطقة", "المنطقة الخامسة"): word -> rank, read beside a group noun or a
# superlative (``parser.values.read_ordinal``); "الأول" is the top itself.
RANK_ORDINALS: dict[str, int] = {
    "ثاني": 2, "ثانيه": 2, "ثالث": 3, "ثالثه": 3, "رابع": 4, "رابعه": 4, "خامس": 5, "خامسه": 5, "سادس": 6, "سادسه": 6,
    "سابع": 7, "سابعه": 7, "ثامن": 8, "ثامنه": 8, "تاسع": 9, "تاسعه": 9, "عاشر": 10, "عاشره": 10,
}
THIS_TERMS = ("هذا", "هذه", "هذي", "ها", "هال", "الحالي", "الحاليه", "الجاري", "الجاريه", "ذا")
LAST_TERMS = ("ماضي", "ماضيه", "سابق", "سابقه", "فايت", "فايته", "فاتت", "فات", "اللي فات", "اللي فاتت", "منصرم", "المنصرم", "قبل")
NEXT_TERMS = ("قادم", "قادمه", "جاي", "جايه", "الجاي", "الجايه", "مقبل", "مقبله", "اللي بعده", "الجديد")
# 1 Muharram of each Hijri year of the Umm al-Qura calendar (hijridate's whole range).
HIJRI_NEW_YEAR: dict[int, str] = {
    year: start.isoformat() for year in range(hc.FIRST_YEAR, hc.LAST_YEAR + 1) if (start := hc.month_start(year, 1))
}

# --- refusals -------------------------------------------------------------------------------------

# Requests to change data: imperative verbs (with an object pronoun or not).
MUTATION_TERMS = (
    "تحذف", "تمسح", "تعدل", "تغير", "تضيف", "تلغي", "تشيل", "تبدل", "حذف", "مسح", "احذف", "امسح", "شيل",
    "عدل", "تعديل", "حدث", "تحديث", "غير (?:ال)?(?:حاله|قيمه|اسم|تاريخ|نوع|بيانات)", "اضف", "ضيف", "اضافه",
    "الغ", "الغي", "بدل", "استبدل", "ادخل", "ادرج", "انشي", "سجل لي", "زود", "نقص", "خلي قيمه", "اعتمد",
    "رسي", "ارسي", "فرغ",
)
# Raw SQL keywords (Latin, lower case after normalization).
SQL_KEYWORDS = (
    "select", "insert", "update", "delete", "drop", "alter", "create", "truncate", "pragma", "attach",
    "detach", "replace into", "union", "from", "where", "table", "exec", "grant", "vacuum",
)
# Tasks that are not data questions even when they mention tenders ("اكتب قصيدة عن المناقصات").
OFF_TASK_TERMS = (
    "قصيد(?:ه|ه عن)?", "شعر", "ابيات", "نكت(?:ه)?", "طرف(?:ه)", "ترجم(?:ه|لي)?", "وصف(?:ه) ال?طبخ", "وصفه",
    "طبخ(?:ه)?", "اغني(?:ه)?", "قص(?:ه|ص)", "مقال(?:ه)?", "اشرح", "اشرحلي", "عرف(?:لي)?", "ما معني",
    "وش معني", "وش يعني", "ايش يعني", "ما المقصود", "نصيح(?:ه)", "انصحني", "رايك", "توقع(?:لي)?", "تنبا",
    "كيف اقدم", "كيف اسجل", "كيف اشارك", "كيف ادخل", "كيف احصل", "كيف افوز", "شروط ال?تقديم", "لخص", "برمج",
    "كود", "ايميل", "خطاب",
)
# Topics outside procurement; they refuse a question that names no tender or project.
OFF_TOPIC_TERMS = (
    "طقس", "جو", "حراره", "امطار", "مطر", "درجه ال?حراره", "مباراه", "مباريات", "دوري", "كره", "هلال", "نصر",
    "اتحاد", "اهلي", "منتخب", "لاعب", "سهم", "اسهم", "اسعار ال?اسهم", "تداول", "بورصه", "بيتكوين", "عمله",
    "ذهب", "نفط", "سكان", "عاصمه", "مساحه", "تاريخ ال?مملكه", "رييس", "ملك", "امير", "وصفه", "اكله", "اكلات",
    "مطعم", "مطاعم", "فندق", "فنادق", "سياح(?:ه|يه)", "رحله", "طيران", "تذكر(?:ه|ت)", "فيلم", "افلام",
    "مسلسل", "اغاني", "صلاه", "رمضان", "عيد", "ساعه", "الوقت", "كم الساعه", "صحتك", "مرض", "دواء", "علاج",
    "وظيف(?:ه|ات)", "راتب", "رواتب", "جامعات", "مدارس", "بنك", "قرض", "زواج",
)
# Question forms: with a place or a name but no tender word, a question form still asks about tenders.
QUESTION_FORMS = COUNT_TERMS + LIST_TERMS + AVG_TERMS + SUM_TERMS + ("كم فيه", "في كم", "عندك", "عندكم", "ايش فيه", "وش فيه")

# The stop and filler words: words the parser understands without a lexicon entry of their own
# (particles, polite words and greetings, dialect particles, units, words that only carry the
# question). The parser's accounting (``parser.accounting``) takes them as understood; any other
# word it cannot place refuses the question. Add a word only when it changes nothing a question
# asks. They live in phrasing.json with the other ways of phrasing a question.
FILLER_TERMS: tuple[str, ...] = tuple(PHRASING["fillers"])
# Prefaces that announce a question ("أكتب عرضاً للإدارة وأريد أن أعرف ..."): dropped whole.
WRAPPER_TERMS: tuple[str, ...] = tuple(PHRASING["wrappers"])
# Phrases read as the plain Arabic they mean: dialect verbs and negation ("اتلغت": ملغاة، "مش":
# غير), colloquial percent ("في المية": نسبة), English words in an Arabic question ("budget": قيمة).
REWRITE_TERMS: tuple[tuple[str, str], ...] = tuple((pattern, meaning) for pattern, meaning in PHRASING["rewrites"])

# Data the database does not hold, asked for by name: topic -> the words that ask for it (the
# apology names the topic: ``insights.UNHELD_NAMES``). A question that names one is refused
# whatever else it names, so that "كلمة المرور لحساب أمانة الرياض" is not read as a question
# about that agency's tenders.
UNHELD_DATA: dict[str, tuple[str, ...]] = {
    "suppliers": ("مورد(?:ين|ون|ي|يها|ه)?", "شرك(?:ه|ات|تين)", "مقاول(?:ين|ون|ي)?", "منشا(?:ه|ت)"),
    "winners": (
        "فايز(?:ه|ين|ون)?", "فاز(?:ت|وا)?", "يفوز", "ربح(?:ت|وا)?", "خسر(?:ت|وا|وه)?", "رست (?:علي|عليه|عليها)",
        "رسيت (?:علي|عليه|عليها)", "ترست (?:علي|عليه)", "رسا(?:ت)? (?:علي|عليه|عليها)",
    ),
    "bidders": (
        "متقدم(?:ه|ون)", "شركات ال?متقدمه", "اسماء ال?متقدمين", "من هم ال?متنافس(?:ون|ين)",
        "متنافسون", "قدمت? عروض", "قدموا",
    ),
    "local_content": ("محتوي ال?محلي", "تفضيل ال?سعري", "منتج ال?وطني"),
    "contract_terms": (
        "ضمان(?: ال?ابتدايي| ال?نهايي)?", "ضمانات", "وقع(?:ت)? ال?عقد", "توقيع ال?عقد", "تقييم ال?اداء", "تقييم اداء",
    ),
    "people": (
        "موظف(?:ين|ون|ي|يها)?", "رواتب", "راتب", "مدير", "مسوول", "جوال", "هاتف", "تلفون", "ايميل", "بريد",
        "عنوان",
    ),
    "credentials": (
        "كلمه ال?(?:مرور|سر)", "رقم ال?سري", "باسورد", "باسوورد", "اسم ال?مستخدم", "توكن", "token",
        "password", "api", "مفتاح", "بيانات ال?دخول", "حساب",
    ),
    "weather": ("طقس", "جو", "امطار", "مطر", "تمطر", "بتمطر", "حراره", "غبار", "رياح"),
    "sports": ("مباراه", "مباريات", "ديربي", "منتخب", "دوري", "لاعب", "كاس ال?عالم"),
}
# Topics of UNHELD_DATA that are no procurement data at all: refused as off topic, still by name.
OFF_TOPIC_SUBJECTS = frozenset({"weather", "sports"})

# Words that change nothing a question asks, by what they say: a tender is there, listed, someone's,
# or put out ("المنافسات المسجلة لجهة ..." asks for that agency's tenders). Passed over only where
# they cannot carry a condition (``parser.passed_over``). Not here: "المتاحة" (open for bids: a
# status), "الحالية", "الجديدة" (dates), nor a word another list already reads ("المطروحة": a
# tender word; "موجودة", "نشرها": fillers).
PASSED_OVER_TERMS: dict[str, tuple[str, ...]] = {
    "existence": ("متوفر(?:ه|ات)?", "متواجد(?:ه|ات)?", "مسجل(?:ه|ات|ا)?"),
    "listing": ("مدرج(?:ه|ات|ا)?", "تندرج", "يندرج", "ضمن", "وارد(?:ه)?"),
    "belonging": ("ذات", "تعود", "يعود", "عايد(?:ه|ات)?", "تخص", "يخص", "خاص(?:ه)?", "من قبل"),
    "action": ("عمليات", "عمليه", "يتم", "قامت", "قام", "بطرح(?:ها)?", "نشرتها", "اعلنتها", "اعلنها"),
}

# Domain nouns a one-letter typo is read back to (``parser.typos``), each with its other forms:
# a typo between two forms of one noun ("المناقصت": المناقصات or المناقصة) still means that noun.
TYPO_NOUNS: tuple[tuple[str, ...], ...] = tuple(tuple(forms) for forms in PHRASING["typo_nouns"])
