"""An engine over the protocol with one planted fault, named by its first argument: for the checker's tests.

Faults that break the rules, the broken adapters of tests/test_stateful.py behind the protocol:
``keeps-turn`` (KeepsTheTurn), ``takes-any-move`` (TakesAnyMove), ``hides-sniff-arms``
(HidesTheSniffArms), ``doubles-end-count`` (DoublesTheEndCount: a placement scores the points of twice
its count, the count itself having no field in a state document), ``plays-on-after-the-win``
(PlaysOnAfterTheWin), ``deals-by-the-clock`` (DealsByTheClock), ``cites-end-1-after-the-win``
(CitesEndOneAfterTheWin); and the broken copies of tests/crosshair_broken: ``counts-covered-doubles``
(broken_end_count: an ordinary double extended on both long sides still counted), ``fifth-points``
(broken_play_points), ``lists-a-tile-once`` (broken_legal_placements), ``rounds-three-down``
(broken_round_to_five) and ``rounds-partners-together`` (broken_settle_hands), the last two in every
settlement the engine answers, by ``settle`` or at a round's end. Faults of the next round:
``ignores-the-order`` (a next round dealt from the state's source whatever order is supplied) and
``ignores-the-opener`` (a next round dealt as though no opener were named). ``speaks-version-1`` answers
``hello`` as an engine of ``sniff-protocol/1``, which PROTO-6 says is too old. Faults only the vector files see,
the differential asking no such request: ``settles-five-more`` (a settlement's first deduction 5
more), ``refuses-spaced-moves`` (a move text with spaces around its parts refused as FORMAT-1).
Faults that break the protocol:
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
DEALS = [0]
"""How many matches this engine has dealt: the clock ``deals-by-the-clock`` deals by."""


def _side(rules: Any, seat: int) -> int:
    return seat % (2 if rules["players"] == 4 else rules["players"])


def broken_settlement(rules: Any, settlement: Any) -> Any:
    """The settlement as the broken copy of round_to_five or settle_hands gives it, from the same hand pips."""
    pips = settlement["hand_pips"]
    sides = 2 if rules["players"] == 4 else rules["players"]
    if FAULT == "rounds-three-down":
        deductions = [p - p % 5 if p % 5 <= 3 else p + 5 - p % 5 for p in pips]
        side = [sum(deductions[seat] for seat in range(s, len(pips), sides)) for s in range(sides)]
        return {"hand_pips": pips, "deductions": deductions, "side_deductions": side}
    side_pips = [sum(pips[seat] for seat in range(s, len(pips), sides)) for s in range(sides)]
    side = [p - p % 5 if p % 5 <= 2 else p + 5 - p % 5 for p in side_pips]
    return {**settlement, "side_deductions": side}


def _settled(state: Any) -> Any:
    """``state`` with its last round's settlement broken, the scores following it."""
    result = state.get("last_round")
    if result is None:
        return state
    right, wrong = result["settlement"], broken_settlement(state["rules"], result["settlement"])
    scores = list(state["scores"])
    for side, (good, bad) in enumerate(zip(right["side_deductions"], wrong["side_deductions"], strict=True)):
        scores[side] += good - bad
    return {**state, "scores": scores, "last_round": {**result, "settlement": wrong}}


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
    if FAULT == "doubles-end-count" and kind == "apply" and "state" in answer:
        from sniff_rules.formats.state_json import state_from_data
        from sniff_rules.scoring import play_points

        after = state_from_data(answer["state"])
        before = request["state"]
        if len(after.layout.placements) > len(before["layout"]) and after.round_number == before["round"]:
            count = after.layout.end_count
            scores = list(answer["state"]["scores"])
            scores[_side(before["rules"], before["to_move"])] += play_points(2 * count) - play_points(count)
            answer["state"] = {**answer["state"], "scores": scores}
    if FAULT == "counts-covered-doubles" and kind == "apply" and "state" in answer:
        from sniff_rules.formats.state_json import state_from_data
        from sniff_rules.scoring import play_points

        after = state_from_data(answer["state"])
        before = request["state"]
        if len(after.layout.placements) > len(before["layout"]) and after.round_number == before["round"]:
            placements = after.layout.placements
            sniff = next((p.tile for p in placements if p.tile.is_double), None)
            extended = {
                p.target.tile
                for p in placements
                if p.target is not None and p.target.tile.is_double and p.target.tile != sniff
            }
            count = after.layout.end_count
            broken = count + sum(2 * tile.low for tile in extended)
            scores = list(answer["state"]["scores"])
            scores[_side(before["rules"], before["to_move"])] += play_points(broken) - play_points(count)
            answer["state"] = {**answer["state"], "scores": scores}
    if FAULT == "fifth-points" and kind == "apply" and "state" in answer:
        gained = [a - b for a, b in zip(answer["state"]["scores"], request["state"]["scores"], strict=True)]
        if answer["state"]["last_round"] == request["state"]["last_round"] and any(g > 0 for g in gained):
            answer["state"] = {
                **answer["state"],
                "scores": [b + g // 5 for b, g in zip(request["state"]["scores"], gained, strict=True)],
            }
    if FAULT == "plays-on-after-the-win" and kind == "apply" and request["state"]["phase"] == "match-over":
        answer = {"id": answer["id"], "state": request["state"]}
    if FAULT == "deals-by-the-clock" and kind == "new_match" and "seed" in request:
        DEALS[0] += 1
        answer = handle({**request, "seed": str(int(request["seed"]) + DEALS[0])})
    if FAULT == "cites-end-1-after-the-win" and kind == "apply" and request["state"]["phase"] == "match-over":
        answer = {"id": answer["id"], "refused": {"rule": "END-1", "message": "the round is over"}}
    if FAULT == "lists-a-tile-once" and kind == "legal_moves":
        seen: set[str] = set()
        kept = []
        for move in answer["moves"]:
            tile = str(move).split(">")[0]
            if tile not in seen:
                seen.add(tile)
                kept.append(move)
        answer["moves"] = kept
    if FAULT in ("rounds-three-down", "rounds-partners-together"):
        if kind == "settle" and "settlement" in answer:
            answer["settlement"] = broken_settlement(request["rules"], answer["settlement"])
        if kind == "apply" and "state" in answer and answer["state"]["last_round"] != request["state"]["last_round"]:
            answer["state"] = _settled(answer["state"])
    if FAULT == "speaks-version-1" and kind == "hello":
        answer["protocol"] = "sniff-protocol/1"
    for field in ("order", "opener"):
        if FAULT == f"ignores-the-{field}" and kind == "next_round" and field in request:
            answer = handle({key: value for key, value in request.items() if key != field})
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
