"""Negations said between a subject and its predicate, as Saudi speech and written Arabic put
them: "كم منافسة في جازان ما هي شراء مباشر", "ماهي ملغاة", "مب نشطة", "مو في جدة", "ليست في
منطقة عسير". "ما هي" / "ما هو" also ask ("ما هي المنافسات ...", "ابي اعرف ما هي الملغاة"), so
they negate only past the question's first words, not right after a request, and before a
predicate without the article (a negated predicate is indefinite: "ما هي ملغاة", "ما هي في
الرياض"); such a negation that no filter pass read (before a date, a figure, a group of
agencies) is named, so that the question is refused rather than answered with its positive.
A negation also carries over a list: "ما عدا الملغاة والمنتهية", "خارج الرياض وجدة", "غير ملغاة
أو منتهية" negate both members, not the first alone."""

from __future__ import annotations

import re

# The negation words of the family; "ما هي" and its kin also ask a question.
_ASKING = r"و?(?:ما هي|ما هو|ماهي|ماهو)|مهي|مهو"  # "وما هي ملغاة": and not cancelled
# (Najdi "مهوب/ماهيب"; "ماعدا", "لغير", "بغير" written as one word.)
_NEGATING = r"و?(?:مب|موب|مو|مش|ليست|ليس|ليسو|مهوب|مهيب|ماهوب|ماهيب|غير)|ماعدا|لغير|بغير"  # "ومو ملغاة": and not
# "إلا": except ("كم منافسة إلا الملغاة"), but "only" after a negation ("ما طرحت إلا في الرياض").
_EXCEPT = r"الا"
# Right before a status, a type, a place or a name: the negation and the small words it may
# take first ("مو في جدة", "ماهي من وزارة الصحة", "مو تابعة لجامعة ...", "ليست منطقة ...").
DIALECT_NEGATION = re.compile(
    rf"(?<!\w)(?P<neg>{_ASKING}|{_NEGATING}|{_EXCEPT})\s(?:(?:اللي|التي|الي)\s)?"
    r"(?:(?:في|من|تابعه|تابعه ل|تابعين ل)\s)?(?:(?:ال)?(?:منطقه|جهه|نشاط|نوع|حاله) )?$"
)
# "لا ملغاة ولا منتهية" said with a word of the family first: "ماهي منتهية ولا ملغاة".
_FIRST = re.compile(rf"(?<!\w)(?P<neg>{_ASKING}|{_NEGATING})\s")
_NEITHER = re.compile(r"(?<!\w)ولا\s(?:(?:في|من)\s)?$")  # "ما هي ملغاة ولا في الرياض"
# "اللي ما هي ...": a relative clause, so "ما هي" negates whatever follows.
_RELATIVE_BEFORE = re.compile(r"(?<!\w)(?:اللي|التي|الي|الذي)\s*$")
# A negation before "إلا" makes it "only".
_NEGATION_BEFORE = re.compile(r"(?<!\w)(?:ما|لا|لم|مو|مب|ليس|ليست|ماهي|ماهو)(?!\w)")
# The words right before "ما هي" that make it a question, not a negation.
_REQUEST_BEFORE = re.compile(
    r"(?<!\w)[وف]?(?:ابي|ابغي|ابغا|اريد|نبي|ودي|اعرف|عرفني|قل|قول|قولي|عطني|اعطني|وضح|بين|اخبرني|هل|لي|يا)\s*$"
)
# "ما هي" left in the working text with a phrase a pass read right after it (two blanks or
# more: the pass blanked it out), perhaps past "من" / "في"; a group of agencies is left as
# "الجهات" ("ما هي من الجامعات"); or before "فيها" / "لها" ("كم منطقة ما هي فيها منافسات
# ملغاة": there are none).
_UNREAD = re.compile(
    rf"(?<!\w)(?P<neg>{_ASKING})(?=(?: من| في)?(?: {{2,}}| الجهات(?!\w))| (?:فيها|فيه|لها|له|عندها|عنده)(?!\w))"
)


def negates(original: str, match: re.Match[str]) -> bool:
    """Whether ``match`` (its group ``neg``, at the same offsets in ``original``) negates: an
    asking form ("ما هي") only with words before it that are not a request, and before a word
    without the article."""
    if match.group("neg") == _EXCEPT:
        return not _NEGATION_BEFORE.search(original[: match.start("neg")])
    if not re.fullmatch(_ASKING, match.group("neg")):
        return True
    before = original[: match.start("neg")]
    after = original[match.end("neg") :].split()
    if not before.strip() or _REQUEST_BEFORE.search(before):
        return False
    if _RELATIVE_BEFORE.search(before):
        return True  # "اللي ماهي الملغاة": that are not
    return not (after and after[0].startswith("ال"))


def dialect_negation(text: str, original: str, start: int) -> re.Match[str] | None:
    """The dialect negation right before ``start`` in the working ``text`` ("كم منافسة ما هي
    ملغاة"), or "ولا" after one ("ماهي منتهية ولا ملغاة"); ``original`` is the normalized
    question at the same offsets."""
    before = text[:start]
    m = DIALECT_NEGATION.search(before)
    if m:
        return m if negates(original, m) else None
    neither = _NEITHER.search(before)
    if neither and any(negates(original, f) for f in _FIRST.finditer(original[: neither.start()])):
        return neither
    return None


def unread_negations(text: str, original: str) -> tuple[str, ...]:
    """The asking-form negations ("ما هي") left in the working ``text`` right before a phrase a
    pass read without them (a date, a figure, a group of agencies): the question read would be
    its positive."""
    return tuple(m.group("neg") for m in _UNREAD.finditer(text) if negates(original, m) or _after_a_count(original, m))


# "كم منافسة ماهي الملغاة": after "كم" (or "توزيع") the question is asked, so "ماهي" before a word with the
# article is no second question and may be "not": neither reading is sure.
_COUNT_BEFORE = re.compile(r"(?<!\w)(?:كم|عدد|مجموع|متوسط|اجمالي|نسبه|توزيع)(?!\w)")


def _after_a_count(original: str, match: re.Match[str]) -> bool:
    before = original[: match.start("neg")]
    return bool(_COUNT_BEFORE.search(before)) and not _REQUEST_BEFORE.search(before)


# A list's later member: "و" glued to it, or "و" / "أو" / "ولا" before it in the working text.
_CONJUNCTION_BEFORE = re.compile(r"(?:(?<=\s)(?:او|و|ولا)\s)?$")
# A negation in the phrase a pass read (and blanked) right before the conjunction, a few words at most.
_NEGATED_PHRASE = re.compile(
    rf"(?<!\w)(?:[وفب]?غير|من غير|في غير|ما عدا|ماعدا|عدا|باستثناء|سوي|خارج|بدون|لا|{_ASKING}|{_NEGATING}|{_EXCEPT})"
    r"\s(?:\S+\s){1,6}$"
)


_CONJUNCTION_AT = re.compile(r"(?:(?:او|و|ولا)\s)?")


def negated_conjunct(text: str, original: str, start: int) -> re.Match[str] | None:
    """The conjunction before ``start`` (perhaps empty: "و" glued to the word) when what stands
    there is a later member of a negated list: the working ``text`` has, right before it, a
    phrase a pass read with its negation ("ما عدا الملغاة والمنتهية", "غير ملغاة أو منتهية");
    None otherwise. ``original`` is the normalized question at the same offsets. (A negation in
    the blanked phrase was read as one: no pass blanks a negation word otherwise.)"""
    before = text[:start]
    conjunction = _CONJUNCTION_BEFORE.search(before)
    at = conjunction.start() if conjunction and conjunction.group(0) else start
    if at == start and original[start : start + 1] != "و":
        return None
    run = len(before[:at].rstrip(" "))
    if at - run < 2:
        return None  # nothing read right before it: no list
    if not _NEGATED_PHRASE.search(original[run:at].rstrip(" ") + " "):
        return None
    return _CONJUNCTION_AT.match(text, at)


# "بقيمة ما يزيد عن مليون", "بما يقل عن": "ما" after a noun with "ب" (or "بما") is "what", not
# "not" (written Arabic: more than a million), but the comparator reads it as a negation.
_RELATIVE_MA = re.compile(
    r"(?<!\w)(?:(?:بقيمه|بمبلغ|بسعر|بعدد|بتكلفه|بميزانيه|بقيم)\sما|بما)\s"
    r"(?:ي|ت)?(?:زيد|قل|تجاوز|تعدي|تخطي|فوق|نقص|جاوز)\w*(?!\w)"
)


def relative_ma(original: str) -> tuple[str, ...]:
    """The words of a relative "ما" before a comparator ("بقيمة ما يزيد عن مليون"), which the
    figures' reading would take for a negation and answer with the opposite comparison."""
    return tuple(w for m in _RELATIVE_MA.finditer(original) for w in m.group(0).split()[-2:])
