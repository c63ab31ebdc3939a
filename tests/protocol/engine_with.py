"""An engine over the protocol with one planted fault, named by its first argument: for the checker's tests.

Faults that break the rules (the broken adapters of tests/test_stateful.py, behind the protocol):
``keeps-turn``, ``takes-any-move``, ``hides-sniff-arms``. Faults only the vector files see, the
differential asking no such request: ``settles-five-more`` (a settlement's first deduction 5 more),
``refuses-spaced-moves`` (a move text with spaces around its parts refused as FORMAT-1). Faults that break the protocol:
``hang``, ``crash``, ``garbage``, ``huge-line``, ``wrong-id``, ``flood-stderr``, each on the first
``new_match`` after a correct ``hello``. ``none`` is the library's engine unchanged.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from sniff_rules.protocol.engine import handle
from sniff_rules.protocol.messages import read_request

FAULT = sys.argv[1]


def rule_fault(request: Any, answer: Any) -> Any:
    """The answer with the planted rule fault applied."""
    kind = request["type"]
    if FAULT == "keeps-turn" and kind == "apply" and "state" in answer:
        state = dict(answer["state"])
        before = request["state"]
        if str(request["move"]).count("[") and state["phase"] == "playing":
            state["to_move"] = before["to_move"]
        answer["state"] = state
    if FAULT == "takes-any-move" and kind == "apply" and "refused" in answer:
        before = dict(request["state"])
        if before["phase"] == "playing":
            before["to_move"] = (before["to_move"] + 1) % before["rules"]["players"]
            answer = {"id": answer["id"], "state": before}
    if FAULT == "settles-five-more" and kind == "settle" and "settlement" in answer:
        answer["settlement"]["deductions"][0] += 5
    if FAULT == "refuses-spaced-moves" and kind == "apply" and " " in str(request["move"]).strip():
        answer = {"id": answer["id"], "refused": {"rule": "FORMAT-1", "message": "no spaces"}}
    if FAULT == "hides-sniff-arms" and kind == "legal_moves":
        kept = [move for move in answer["moves"] if ".arm-" not in str(move)]
        answer["moves"] = kept or answer["moves"]
    return answer


def main() -> None:
    """Answer requests until quit, with the fault planted."""
    for line in sys.stdin.buffer:
        request = read_request(line)
        if request["type"] == "new_match" and FAULT in (
            "hang",
            "crash",
            "garbage",
            "huge-line",
            "wrong-id",
            "flood-stderr",
        ):
            if FAULT == "hang":
                time.sleep(3600)
            if FAULT == "crash":
                sys.exit(3)
            if FAULT == "garbage":
                sys.stdout.write("this is not json\n")
            if FAULT == "huge-line":
                chunk = "x" * (1 << 20)
                while True:
                    sys.stdout.write(chunk)
            if FAULT == "wrong-id":
                sys.stdout.write(json.dumps({"id": 999, "state": None}) + "\n")
            if FAULT == "flood-stderr":
                chunk = "noise " * 10000
                while True:
                    sys.stderr.write(chunk)
            sys.stdout.flush()
            continue
        answer = rule_fault(request, handle(request))
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
        if answer.get("bye"):
            return


if __name__ == "__main__":
    main()
