"""How the Correct verdict reads the labelled claims set (issue 25): the wrong insights it lets
through and the right ones it flags, against the target of 97 % of both right.

    cd REPO && PYTHONPATH=$PWD /work/main/.venv/bin/python bench/study_claims.py

Each item's SQL runs on the default database and its insight is scored by score_responses with
that SQL as the gold (nabahan_fixtures.claims_labelled), so only the insight decides.
"""

from __future__ import annotations

import time
from pathlib import Path

from nabahan_fixtures.claims_labelled import load_items, score_items

CLAIMS_SET = Path(__file__).resolve().parents[1] / "nabahan_pipeline_tests" / "data" / "claims_labelled.json"
TARGET = 0.97
FIRST_REASONS = 3


def main() -> None:
    items = load_items(CLAIMS_SET)
    started = time.perf_counter()
    scores = score_items(items)
    seconds = time.perf_counter() - started
    wrong = scores[scores["label"] == "wrong"]
    right = scores[scores["label"] == "right"]
    passed = wrong[wrong["correct"]]
    flagged = right[~right["correct"]]
    print(f"{len(items)} items ({len(right)} right, {len(wrong)} wrong), scored in {seconds:.1f} s")
    caught, kept = 1 - len(passed) / len(wrong), 1 - len(flagged) / len(right)
    print(f"\nwrong ones Correct lets through: {len(passed)}/{len(wrong)} "
          f"(caught {caught:.1%}; target {TARGET:.0%}, ratio {caught / TARGET:.2f})")
    for kind, group in wrong.groupby("kind"):
        print(f"  {kind:22} {int(group['correct'].sum()):3}/{len(group)}")
    print(f"\nright ones it flags: {len(flagged)}/{len(right)} "
          f"(kept {kept:.1%}; target {TARGET:.0%}, ratio {kept / TARGET:.2f})")
    for style, group in right.groupby("kind"):
        missed = group[~group["correct"]]
        print(f"  {style:22} {len(missed):3}/{len(group)}")
        for row in missed.head(FIRST_REASONS).itertuples():
            print(f"      {row.item}: {row.not_correct_because}")


if __name__ == "__main__":
    main()
