"""The words a claim is made of: measure words, comparators, approximators, directions,
superlatives, yes and no, "none". Each is spelled as normalize_arabic leaves it (أ/إ/آ -> ا,
ة -> ه, ى -> ي) and matched as a whole word, with its proclitics (و، ف، ب، ل) allowed.

To teach the reader a new word, add it to its table here; ``reading`` finds it and ``checking``
applies the rule of its kind.
"""

from __future__ import annotations

# A measure word -> the measure it names. The nearest one before a number (with no other number
# between) is the number's measure.
MEASURES: dict[str, str] = {
    "عدد": "count", "العدد": "count", "اعداد": "count",
    "اجمالي": "sum", "الاجمالي": "sum", "اجماليه": "sum", "الاجماليه": "sum", "مجموع": "sum",
    "المجموع": "sum", "بمجموع": "sum", "بإجمالي": "sum",
    "متوسط": "avg", "المتوسط": "avg", "متوسطه": "avg", "معدل": "avg", "المعدل": "avg",
    "نسبه": "share", "النسبه": "share", "حصه": "share", "الحصه": "share", "نسبتها": "share",
    "نسبته": "share", "حصتها": "share", "حصته": "share",
}

# A comparator before a number (or "تقريبا" after it): the relation the number bounds. "~" is an
# approximation: the number holds within the precision of its significant digits.
COMPARATORS: dict[str, str] = {
    "اكثر من": ">", "ازيد من": ">", "اكبر من": ">", "اعلي من": ">", "يزيد عن": ">", "يزيد علي": ">",
    "تزيد عن": ">", "تزيد علي": ">", "ما يزيد عن": ">", "ما يزيد علي": ">", "يتجاوز": ">", "تتجاوز": ">",
    "تجاوز": ">", "تجاوزت": ">", "يفوق": ">", "تفوق": ">", "ما يفوق": ">", "فاق": ">", "فاقت": ">",
    "تخطي": ">", "تخطت": ">", "فوق": ">", "اكثر بقليل من": ">", "يتخطي": ">", "تتخطي": ">",
    "تعدي": ">", "تعدت": ">", "يتعدي": ">", "تتعدي": ">",
    "اقل من": "<", "ادني من": "<", "دون": "<", "تحت": "<", "يقل عن": "<", "تقل عن": "<",
    "اقل بقليل من": "<",
    "لا يقل عن": ">=", "لا تقل عن": ">=", "ما لا يقل عن": ">=", "علي الاقل": ">=",
    "لا يزيد عن": "<=", "لا تزيد عن": "<=", "لا يزيد علي": "<=", "لا تزيد علي": "<=",
    "لا يتجاوز": "<=", "لا تتجاوز": "<=", "لم يتجاوز": "<=", "لم تتجاوز": "<=", "بحد اقصي": "<=",
    "حوالي": "~", "حوالى": "~", "قرابه": "~", "نحو": "~", "تقريبا": "~", "ما يقارب": "~",
    "يقارب": "~", "تقارب": "~", "ما يقرب من": "~", "زهاء": "~", "يناهز": "~", "ما يناهز": "~",
    "بحدود": "~", "في حدود": "~", "قرابة": "~", "approximately": "~", "about": "~", "around": "~",
    "nearly": "~", "roughly": "~", "more than": ">", "over": ">", "less than": "<", "under": "<",
    "at least": ">=", "at most": "<=",
}
# Approximators written after the number: "5,000 تقريبا".
AFTER_APPROXIMATORS: tuple[str, ...] = ("تقريبا", "approximately", "roughly")

# Direction words: +1 a rise, -1 a fall.
DIRECTIONS: dict[str, int] = {
    **dict.fromkeys((
        "ارتفع", "ارتفعت", "ارتفاع", "ارتفاعا", "زاد", "زادت", "زياده", "ازداد", "ازدادت", "ازدياد",
        "نما", "نمت", "نمو", "نموا", "قفز", "قفزت", "قفزه", "تضاعف", "تضاعفت", "صعد", "صعدت",
        "زود", "زودت", "يرتفع", "ترتفع", "يزيد", "تزيد", "increased", "rose", "grew",
    ), 1),
    **dict.fromkeys((
        "انخفض", "انخفضت", "انخفاض", "انخفاضا", "تراجع", "تراجعت", "تراجعا", "هبط", "هبطت", "هبوط",
        "نقص", "نقصت", "تقلص", "تقلصت", "انكمش", "انكمشت", "تدنت", "تدني", "نزل", "نزلت", "طاح", "طاحت",
        "ينخفض", "تنخفض", "يتراجع", "تتراجع", "decreased", "fell", "dropped", "declined",
    ), -1),
}

# Superlatives: +1 the most, -1 the least. A comparative followed by "من" is a comparison, not a
# superlative ("أكثر من 100").
SUPERLATIVES: dict[str, int] = {
    **dict.fromkeys((
        "الاكثر", "اكثر", "الاعلي", "اعلي", "الاكبر", "اكبر", "تتصدر", "تصدرت", "يتصدر", "تصدر",
        "الصداره", "صداره", "المقدمه", "المرتبه الاولي", "المركز الاول", "اقصي", "الاقصي", "most", "highest",
        "largest", "top", "leads", "اكثرهم", "اكثرها", "اعلاهم", "اعلاها", "اكبرهم", "اكبرها", "اكثرهن",
    ), 1),
    **dict.fromkeys((
        "الاقل", "اقل", "الادني", "ادني", "الاصغر", "اصغر", "المرتبه الاخيره", "المركز الاخير", "least",
        "lowest", "smallest", "fewest", "تتذيل", "يتذيل", "تذيلت", "تذيل", "اقلهم", "اقلها", "ادناها", "ادناهم", "اصغرها", "اصغرهم",
    ), -1),
}
# Words after which a superlative is no claim about a row ("أكثر من", "أقل مما").
NOT_SUPERLATIVE_AFTER: tuple[str, ...] = ("من", "مما", "ممن", "than")

YES: tuple[str, ...] = ("نعم", "اي", "ايه", "ايوه", "ايوا", "اكيد", "بلي", "yes")
NO: tuple[str, ...] = ("لا", "كلا", "no")
# A "no" followed by one of these is a "no" answer; a bare "لا" opens many sentences otherwise.
NO_FOLLOWERS: tuple[str, ...] = (",", "،", ".", "!", "لم", "لن", "ليس", "ليست", "ما", "مو", "مب", "ابدا")

# "None": the quantity its clause names is zero.
NONE_PHRASES: tuple[str, ...] = (
    "لا يوجد", "لا توجد", "لا يوجد اي", "لا توجد اي", "ليس هناك", "ليست هناك", "ليس هناك اي",
    "لم يتم تسجيل اي", "لم تسجل اي", "لم يسجل اي", "ما فيه", "ما في", "مافي", "مافيه", "ما فيه اي",
    "ولا منافسه", "ولا مناقصه", "ولا مشروع", "لا شيء", "there are no", "there is no", "no tenders",
)
# A negated verb before "أي": "لم تطرح أي منافسة"، "لا تظهر أي منافسة"، "لم يتم طرح أي".
NONE_NEGATIONS: tuple[str, ...] = ("لا", "لم", "ما", "ليس", "ليست", "لن")
NONE_ANY: tuple[str, ...] = ("اي", "ايه", "any")

# Phrases that open a refusal or a statement about the data, not a count ("لا توجد بيانات").
NONE_NOT_COUNTS: tuple[str, ...] = (
    "بيانات", "معلومات", "معلومه", "فرق", "اختلاف", "تغير", "نتائج", "نتيجه", "سجلات", "data",
    "information", "difference",
)

# Question words for yes/no: "هل ...؟".
YES_NO_QUESTION: tuple[str, ...] = ("هل", "is", "are", "does", "do", "did")
# Existence asked without a threshold: "هل توجد منافسات ملغاة؟" compares the count with zero.
# Right after "هل" only: "هل توجد"، "هل فيه".
EXISTENCE: tuple[str, ...] = ("يوجد", "توجد", "هناك", "فيه", "في", "هنالك", "there")
# Scale words written definite, which the number reader does not read alone ("هل تجاوزت المليار؟").
DEFINITE_SCALES: dict[str, float] = {"الالف": 1e3, "المليون": 1e6, "المليار": 1e9, "الترليون": 1e12}

# Words that name a row as left out ("خارج منطقة الرياض"): no superlative speaks of it.
EXCLUDING: tuple[str, ...] = ("خارج", "عدا", "باستثناء", "سوي", "غير", "excluding", "except")

# Clause breaks within a sentence: what follows names another row ("تليها جدة").
CLAUSE_WORDS: tuple[str, ...] = ("تليها", "يليها", "تليه", "يليه", "ثم", "بينما", "في حين", "مقابل", "اما")
# A preposition between a number and the label after it that takes the label: "500 في الرياض".
LABEL_PREPOSITIONS: tuple[str, ...] = ("في", "لدي", "عند", "ضمن", "داخل", "من", "ل", "ب", "لـ", "بـ", "in", "for")
# Nouns a count or value is stated in ("500 منافسة في الرياض"), skipped between a number and its label.
UNIT_NOUNS: tuple[str, ...] = (
    "منافسه", "منافسات", "مناقصه", "مناقصات", "مشروع", "مشاريع", "مشروعا", "جهه", "جهات", "ريال",
    "ريالا", "عرض", "عروض", "عرضا", "tenders", "projects", "sar", "riyals",
)
# The noun right after a figure says what it counts or is worth: a riyal figure is a value column's,
# "N مناقصة" a count's (and never a share's or a value's).
MONEY_UNITS: tuple[str, ...] = ("ريال", "ريالا", "ريالات", "sar", "riyal", "riyals", "ر.س")
COUNT_UNITS: tuple[str, ...] = (
    "منافسه", "منافسات", "مناقصه", "مناقصات", "مشروع", "مشاريع", "مشروعا", "عرض", "عروض", "عرضا",
    "tenders", "projects", "bids",
)
# Result columns by the kind of figure they hold, from their names (checked in this order).
COLUMN_KINDS: dict[str, tuple[str, ...]] = {
    "share": ("pct", "percent", "share", "ratio", "rate", "نسبه", "حصه"),
    "money": ("value", "amount", "price", "قيمه", "سعر"),
    "count": ("count", "cnt", "num", "number", "عدد", "tenders", "projects", "bids"),
    "rank": ("rank", "ترتيب", "مرتبه"),  # a place, never a count or a value
}
# The phrase that names which value a riyal figure is, and the word of the columns that hold it
# ("القيمة التقديرية 882 مليون" is an estimated_value's, never an awarded_value's).
VALUE_MEASURES: dict[str, str] = {
    "القيمة التقديرية": "estimated", "قيمتها التقديرية": "estimated", "القيم التقديرية": "estimated",
    "قيمة الترسية": "awarded", "قيم الترسية": "awarded", "قيمتها الترسية": "awarded",
    "سعر الكراسة": "booklet", "أسعار الكراسات": "booklet", "سعر كراسة": "booklet",
    "estimated value": "estimated", "awarded value": "awarded", "booklet price": "booklet",
}
# Name words for columns by measure, for the SQL's aliases and the words of a sentence.
COLUMN_HINTS: dict[str, tuple[str, ...]] = {
    "count": ("count", "cnt", "num", "number", "عدد", "tenders", "projects"),
    "sum": ("sum", "total", "اجمالي", "مجموع"),
    "avg": ("avg", "average", "mean", "متوسط", "معدل"),
    "share": ("pct", "percent", "share", "ratio", "rate", "نسبه", "حصه"),
    "max": ("max", "highest", "اعلي", "اقصي"),
    "min": ("min", "lowest", "ادني"),
}
# Words of a sentence that say which quantity it speaks of ("القيمة" -> a value column).
VALUE_WORDS: tuple[str, ...] = ("قيمه", "القيمه", "قيمتها", "قيم", "القيم", "value", "ريال")
VALUE_COLUMN_HINTS: tuple[str, ...] = ("value", "amount", "price", "قيمه")

# Ratio and fraction words: the factor one row's figure is of another's ("الرياض ضعف مكة": 2).
RATIOS: dict[str, float] = {
    "ضعف": 2.0, "ضعفي": 2.0, "ضعفا": 2.0, "الضعف": 2.0, "twice": 2.0, "double": 2.0,
    "نصف": 0.5, "النصف": 0.5, "half": 0.5, "ثلث": 1 / 3, "الثلث": 1 / 3, "ثلثي": 2 / 3, "ثلثا": 2 / 3,
    "ربع": 0.25, "الربع": 0.25, "quarter": 0.25,
}
# Written after a number, which multiplies them: "ثلاثة أضعاف" 3, "ثلاثة أرباع" 0.75.
MULTIPLES: dict[str, float] = {"اضعاف": 1.0, "امثال": 1.0, "ارباع": 0.25, "times": 1.0}
# A ratio word is a number, not a ratio, before a scale or a period ("نصف مليار"، "النصف الأول").
NOT_RATIO_BEFORE: tuple[str, ...] = (
    "الف", "مليون", "مليار", "ترليون", "ساعه", "يوم", "شهر", "عام", "سنه", "الاول", "الثاني", "الثالث",
    "الرابع", "الاخير", "الاولي", "الثانيه", "قرن", "million", "billion",
)
# What qualifies a ratio, written before it: more than, less than, about.
RATIO_QUALIFIERS: dict[str, str] = {
    "اكثر من": ">", "ازيد من": ">", "يفوق": ">", "تفوق": ">", "يتجاوز": ">", "تتجاوز": ">", "فوق": ">",
    "اقل من": "<", "دون": "<", "لا يتجاوز": "<=", "لا تتجاوز": "<=", "قرابه": "~", "نحو": "~", "حوالي": "~",
    "ما يقارب": "~", "يقارب": "~", "تقارب": "~", "تقريبا": "~", "زهاء": "~", "ما يعادل": "~", "يعادل": "~",
    "more than": ">", "less than": "<", "about": "~", "nearly": "~", "almost": "~",
}

# Ordinal words: a row's place in a ranking. Adverbs ("أولاً: الرياض") always rank; definite
# ordinals after a rank noun ("المرتبة الثانية") or right before a row's label ("الثانية جدة").
ORDINAL_ADVERBS: dict[str, int] = {
    "اولا": 1, "ثانيا": 2, "ثالثا": 3, "رابعا": 4, "خامسا": 5, "سادسا": 6, "سابعا": 7, "ثامنا": 8,
    "تاسعا": 9, "عاشرا": 10, "first": 1, "second": 2, "third": 3,
}
DEFINITE_ORDINALS: dict[str, int] = {
    "الاول": 1, "الاولي": 1, "الثاني": 2, "الثانيه": 2, "الثالث": 3, "الثالثه": 3, "الرابع": 4,
    "الرابعه": 4, "الخامس": 5, "الخامسه": 5, "السادس": 6, "السادسه": 6, "السابع": 7, "السابعه": 7,
    "الثامن": 8, "الثامنه": 8, "التاسع": 9, "التاسعه": 9, "العاشر": 10, "العاشره": 10,
    "الحادي": 1, "الحاديه": 1,  # with عشر after it only ("الحادي عشر"); the reader adds the ten
}
RANK_NOUNS: tuple[str, ...] = ("المرتبه", "مرتبه", "المركز", "مركز", "الترتيب", "ترتيب", "المقام")
# Before a definite ordinal, words that make it no rank: a quarter, a month of a calendar, a period.
NOT_RANK_BEFORE: tuple[str, ...] = (
    "الربع", "ربع", "النصف", "نصف", "الشهر", "شهر", "الاسبوع", "العام", "السنه", "الفصل", "كانون",
    "تشرين", "ربيع", "جمادي", "القرن", "اليوم", "المقام", "الطرف", "الجزء", "القسم",
)
# A bulleted list claims an order when the sentence that opens it says it ranks.
RANKING_CUES: tuple[str, ...] = (
    "اعلي", "الاعلي", "اكثر", "الاكثر", "اكبر", "الاكبر", "ترتيب", "مرتبه", "مرتبه", "تنازليا", "تصاعديا",
    "الاقل", "اقل", "ادني", "الادني", "top", "ranked", "highest", "largest",
)
