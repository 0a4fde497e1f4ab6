"""Words that change nothing a question asks (``lexicon.PASSED_OVER_TERMS``: a tender is there,
listed, someone's, put out), blanked out after the other passes so that they no longer refuse the
question. A word next to a number, a negation or a comparator is never passed over ("المدرجة
ضمن أعلى 5" ranks; "غير المسجلة" negates), nor one that is a word of an agency's or activity's
name (it may be part of a name the name pass did not read)."""

from __future__ import annotations

import re

from nabahan_pipeline.reference_agent import lexicon as lx
from nabahan_pipeline.reference_agent.lookup_catalog import NameIndex, word_variants
from nabahan_pipeline.reference_agent.parser.patterns import PASSED_OVER
from nabahan_pipeline.reference_agent.parser.reading import Reading

# What a word passed over must not stand next to.
_NUMBER = re.compile(r"\d[\d.,]*|(?:[وب]?ال)?(?:" + "|".join(lx.SMALL_NUMBERS) + r"|الف|الاف|مليون|ملايين|مليار|مليارات)")
_NEGATION = re.compile(r"[وف]?(?:غير|لا|ليس|ليست|لم|لن|ما|ماهي|ماهو|مو|مب|مش|بدون|عدا|سوي|الا|باستثناء|خارج)")
_COMPARATOR = re.compile(
    r"[وب]?(?:ال)?(?:اكثر|اقل|اكبر|اصغر|اعلي|ادني|فوق|تحت|دون|يتجاوز|تتجاوز|يزيد|تزيد|يقل|تقل|يساوي|تساوي"
    r"|يتعدي|تتعدي|قبل|بعد|منذ|حتي|اعلى|اول|اخر|احدث|اقدم)"
)
_GUARDS = (_NUMBER, _NEGATION, _COMPARATOR)


def pass_over(r: Reading, names: NameIndex) -> None:
    """Blank out in ``r`` the words of ``PASSED_OVER`` that are safe to pass over (above)."""
    for m in list(PASSED_OVER.finditer(r.text)):
        before = r.original[: m.start()].split()[-1:]
        after = r.original[m.end() :].split()[:1]
        if any(guard.fullmatch(word) for word in before + after for guard in _GUARDS):
            continue
        if any(word_variants(word) & names.postings.keys() for word in m.group(0).split()):
            continue
        r.blank(m.start(), m.end())
