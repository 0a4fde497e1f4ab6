"""Where a wrong answer goes wrong: its SQL against the gold's clause by clause on sqlglot trees, or
the insight when the result is right; one line, ``"clause: detail; ..."``, quoting the agent's SQL
(whoever writes it out escapes it)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache

import pandas as pd
import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

# Every clause a location names, in the order a query reads.
CLAUSES: tuple[str, ...] = (
    "query", "tables", "joins", "columns", "distinct", "aggregation", "where", "literal", "date window",
    "group by", "having", "order by", "limit", "insight",
)
SEPARATOR = "; "
# A detail quotes this much of an expression at most: the location stays one readable line.
QUOTE_CHARS = 80
_ID_SUFFIX = re.compile(r"_(id|name|name_ar|name_en|ar|en)$")


def locate_error(
    agent_sql: str | None,
    gold_sql: str | None,
    *,
    result_right: bool,
    contradicted: Sequence[str] = (),
    ungrounded: Sequence[str] = (),
    arabic: bool = True,
) -> str:
    """The location of a wrong answer's error, ``""`` when it cannot be named.

    With ``result_right`` (the agent's SQL gives the gold's result everywhere it ran) or SQL that
    matches the gold's clause by clause, the insight is at fault: its first ``contradicted`` claim,
    else its ``ungrounded`` numbers (unverified, each in its context), else that it is not ``arabic``. Otherwise the SQL's
    differences from ``gold_sql`` (both SQLite)."""
    differences = [] if result_right or not agent_sql or not gold_sql else sql_differences(agent_sql, gold_sql)
    if differences:
        return SEPARATOR.join(differences)
    if not result_right and not (agent_sql and gold_sql):
        return ""
    if contradicted:
        return "insight: " + _quote(contradicted[0], 160)
    if ungrounded:
        return "insight: unverified " + _quote(" · ".join(ungrounded[:3]))
    if not arabic:
        return "insight: not Arabic"
    return ""


def location_clauses(location: str | None) -> list[str]:
    """The clauses a location names, each once, in its order (text that is no clause is skipped)."""
    if not isinstance(location, str):
        return []
    named = (part.split(":", 1)[0].strip() for part in location.split(SEPARATOR))
    return list(dict.fromkeys(name for name in named if name in CLAUSES))


def location_counts(scores: pd.DataFrame) -> pd.DataFrame:
    """Wrong answers by the clause their location names and category (an answer counts once under
    each clause it names): columns location, category, answers; clauses in ``CLAUSES`` order."""
    counts: Counter[tuple[str, str]] = Counter()
    if "error_location" in scores.columns:
        for location, category in zip(scores["error_location"], scores["category"]):
            for clause in location_clauses(location):
                counts[(clause, str(category))] += 1
    rows = sorted(counts.items(), key=lambda item: (CLAUSES.index(item[0][0]), item[0][1]))
    return pd.DataFrame([(clause, category, count) for (clause, category), count in rows],
                        columns=["location", "category", "answers"])


def sql_differences(agent_sql: str, gold_sql: str) -> list[str]:
    """What differs between two SQLite queries, clause by clause, each as "clause: detail"; []
    when they match clause by clause (names of aliases, qualifiers, case and the order of AND-ed
    conditions aside)."""
    return list(_differences(agent_sql, gold_sql))


# Safe in a long-lived process: a pure function of two texts, its entries bounded; repeats and
# agents that answer alike are compared once.
@lru_cache(maxsize=1024)
def _differences(agent_sql: str, gold_sql: str) -> tuple[str, ...]:
    try:
        agent, gold = _normalized(agent_sql), _normalized(gold_sql)
    except SqlglotError:
        return ("query: the SQL does not parse",)
    if agent.sql() == gold.sql():
        return ()
    if not isinstance(agent, exp.Select) or not isinstance(gold, exp.Select):
        return (f"query: {_kind(agent)} where the gold has {_kind(gold)}",)
    return (
        *_tables(agent, gold),
        *_joins(agent, gold),
        *_projections(agent, gold),
        *_distinct(agent, gold),
        *_conditions("where", agent.args.get("where"), gold.args.get("where")),
        *_group_by(agent, gold),
        *_conditions("having", agent.args.get("having"), gold.args.get("having")),
        *_order_by(agent, gold),
        *_limit(agent, gold),
    )


def _normalized(sql: str) -> exp.Expression:
    """``sql`` parsed, identifiers lower-cased and columns unqualified (aliases of tables are
    names, not meaning), parentheses around the whole condition dropped."""
    tree = sqlglot.parse_one(sql, read="sqlite")
    for identifier in tree.find_all(exp.Identifier):
        identifier.set("this", identifier.name.lower())
        identifier.set("quoted", False)
    for column in tree.find_all(exp.Column):
        column.set("table", None)
    return tree


def _kind(tree: exp.Expression) -> str:
    return "a SELECT" if isinstance(tree, exp.Select) else f"a {type(tree).__name__.upper()}"


def _text(node: exp.Expression | None) -> str:
    return "" if node is None else node.sql(dialect="sqlite")


def _quote(text: str, limit: int = QUOTE_CHARS) -> str:
    """``text`` on one line, cut to ``limit``, and never holding the separator: quoted agent text
    cannot make a location name a clause it does not."""
    text = " ".join(text.split()).replace(SEPARATOR, ";")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _listed(texts: Iterable[str]) -> str:
    return ", ".join(_quote(text) for text in texts) or "none"


def _differ(clause: str, ours: object, theirs: object, detail: str) -> list[str]:
    """``clause: detail`` when ``ours`` and ``theirs`` differ."""
    return [] if ours == theirs else [f"{clause}: {detail}"]


def _tables(agent: exp.Select, gold: exp.Select) -> list[str]:
    ours, theirs = sorted(_table_names(agent)), sorted(_table_names(gold))
    return _differ("tables", ours, theirs, f"reads {_listed(ours)} where the gold reads {_listed(theirs)}")


def _table_names(tree: exp.Expression) -> set[str]:
    return {table.name for table in tree.find_all(exp.Table)}


def _joins(agent: exp.Select, gold: exp.Select) -> list[str]:
    ours = sorted(_text(join.args.get("on")) for join in agent.args.get("joins") or [])
    theirs = sorted(_text(join.args.get("on")) for join in gold.args.get("joins") or [])
    if len(ours) != len(theirs):  # a different number of tables is the tables' difference
        return []
    return _differ("joins", ours, theirs, f"joined on {_listed(ours)} where the gold joins on {_listed(theirs)}")


def _unaliased(select: exp.Select) -> list[exp.Expression]:
    return [projection.this if isinstance(projection, exp.Alias) else projection for projection in select.expressions]


def _projections(agent: exp.Select, gold: exp.Select) -> list[str]:
    """The selected columns and the aggregates, each compared as a multiset of expressions."""
    ours, theirs = _unaliased(agent), _unaliased(gold)
    our_aggs = [_text(node) for node in ours if node.find(exp.AggFunc)]
    their_aggs = [_text(node) for node in theirs if node.find(exp.AggFunc)]
    found = _differ("aggregation", Counter(our_aggs), Counter(their_aggs),
                    f"{_listed(our_aggs)} where the gold has {_listed(their_aggs)}")
    our_columns = [_text(node) for node in ours if not node.find(exp.AggFunc)]
    their_columns = [_text(node) for node in theirs if not node.find(exp.AggFunc)]
    if Counter(our_columns) != Counter(their_columns):
        missing = [column for column in their_columns if column not in our_columns]
        extra = [column for column in our_columns if column not in their_columns]
        parts = ([f"missing {_listed(missing)}"] if missing else []) + ([f"extra {_listed(extra)}"] if extra else [])
        found.append("columns: " + (", ".join(parts) or "the same columns, another count"))
    return found


def _distinct(agent: exp.Select, gold: exp.Select) -> list[str]:
    ours, theirs = bool(agent.args.get("distinct")), bool(gold.args.get("distinct"))
    return _differ("distinct", ours, theirs, "SELECT DISTINCT where the gold keeps duplicates" if ours
                   else "duplicates kept where the gold has SELECT DISTINCT")


def _conjuncts(clause: exp.Expression | None) -> list[exp.Expression]:
    if clause is None:
        return []
    condition = clause.this
    while isinstance(condition, exp.Paren):
        condition = condition.this
    return list(condition.flatten()) if isinstance(condition, exp.And) else [condition]


def _columns(node: exp.Expression) -> set[str]:
    return {column.name for column in node.find_all(exp.Column)}


def _stems(node: exp.Expression) -> set[str]:
    """The things a condition is about: region_id and region_name are both the region."""
    return {_ID_SUFFIX.sub("", name) for name in _columns(node)}


def _dated(node: exp.Expression) -> bool:
    return any("date" in name for name in _columns(node))


def _shape(node: exp.Expression) -> str:
    """The condition with every literal a placeholder: two conditions of one shape differ in values."""
    blank = node.copy()
    for literal in list(blank.find_all(exp.Literal)):
        literal.replace(exp.Placeholder())
    return _text(blank)


def _conditions(clause: str, agent: exp.Expression | None, gold: exp.Expression | None) -> list[str]:
    """WHERE or HAVING conditions (their AND-ed parts) matched up: the same ones set aside, the rest
    paired by what they are about (a column's entity, else any date with a date); a pair of one
    shape differs in a literal (or the date window), else in its condition; what is left is
    missing or extra."""
    ours = [(node, _text(node)) for node in _conjuncts(agent)]
    theirs = [(node, _text(node)) for node in _conjuncts(gold)]
    same = Counter(text for _, text in ours) & Counter(text for _, text in theirs)
    left_ours = _without(ours, same)
    left_theirs = _without(theirs, same)
    found: list[str] = []
    for node, text in left_ours:
        partner = (next((pair for pair in left_theirs if _stems(pair[0]) == _stems(node)), None)
                   or next((pair for pair in left_theirs if _stems(pair[0]) & _stems(node)), None)
                   or next((pair for pair in left_theirs if _dated(pair[0]) and _dated(node)), None))
        if partner is None:
            found.append(f"{_condition_clause(clause, node)}: extra condition {_quote(text)}")
            continue
        left_theirs.remove(partner)
        if clause == "where" and (_dated(node) or _dated(partner[0])):
            kind = "date window"
        else:
            kind = "literal" if _shape(node) == _shape(partner[0]) else clause
        found.append(f"{kind}: {_quote(text)} where the gold has {_quote(partner[1])}")
    for node, text in left_theirs:
        found.append(f"{_condition_clause(clause, node)}: missing condition {_quote(text)}")
    return found


def _condition_clause(clause: str, node: exp.Expression) -> str:
    return "date window" if clause == "where" and _dated(node) else clause


def _without(conditions: list[tuple[exp.Expression, str]], same: Counter[str]) -> list[tuple[exp.Expression, str]]:
    left, shared = [], Counter(same)
    for node, text in conditions:
        if shared[text]:
            shared[text] -= 1
        else:
            left.append((node, text))
    return left


def _resolved(select: exp.Select, node: exp.Expression) -> str:
    """An ORDER BY or GROUP BY term with a projection's alias or position replaced by what it names."""
    aliases = {node.alias: node.this for node in select.expressions if isinstance(node, exp.Alias)}
    projections = _unaliased(select)
    if isinstance(node, exp.Column) and node.name in aliases and not node.table:
        return _text(aliases[node.name])
    if isinstance(node, exp.Literal) and not node.is_string and node.name.isdigit():
        position = int(node.name) - 1
        if 0 <= position < len(projections):
            return _text(projections[position])
    return _text(node)


def _group_by(agent: exp.Select, gold: exp.Select) -> list[str]:
    def terms(select: exp.Select) -> list[str]:
        group = select.args.get("group")
        return sorted(_resolved(select, node) for node in (group.expressions if group else []))

    ours, theirs = terms(agent), terms(gold)
    return _differ("group by", ours, theirs, f"{_listed(ours)} where the gold groups by {_listed(theirs)}")


def _order_by(agent: exp.Select, gold: exp.Select) -> list[str]:
    def terms(select: exp.Select) -> list[str]:
        order = select.args.get("order")
        return [f"{_resolved(select, node.this)} {'DESC' if node.args.get('desc') else 'ASC'}"
                for node in (order.expressions if order else [])]

    ours, theirs = terms(agent), terms(gold)
    return _differ("order by", ours, theirs, f"{_listed(ours)} where the gold orders by {_listed(theirs)}")


def _limit(agent: exp.Select, gold: exp.Select) -> list[str]:
    def value(select: exp.Select) -> str:
        limit = select.args.get("limit")
        offset = select.args.get("offset")
        text = _text(limit.expression) if limit is not None else "none"
        return text + (f" offset {_text(offset.expression)}" if offset is not None else "")

    return _differ("limit", value(agent), value(gold), f"{value(agent)} where the gold has {value(gold)}")
