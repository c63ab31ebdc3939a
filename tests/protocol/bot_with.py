"""A bot over the protocol with one planted fault, named by its first argument: for the hosts' tests.

Every fault strikes on the first ``choose`` after a correct ``hello``: ``hang`` never answers,
``crash`` exits, ``garbage`` writes a line that is no JSON, ``huge-line`` writes a line past the
limit, ``wrong-id`` answers another request, ``other-seat`` answers another seat's move,
``not-offered`` answers a tile the seat does not hold, ``no-move`` answers without a move.
``none`` answers the first option, a bot with no fault. A second argument names a file to which
every request is appended, one a line, for the tests of what a bot is sent.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

FAULT = sys.argv[1]
LOG = sys.argv[2] if len(sys.argv) > 2 else None


def answer(request: Any) -> Any:
    """The bot's answer to ``request``, with the fault planted."""
    number, kind = request["id"], request["type"]
    if kind == "hello":
        return {"id": number, "protocol": "sniff-protocol/1", "role": "bot", "bot": f"bot-with-{FAULT}"}
    if kind == "quit":
        return {"id": number, "bye": True}
    view = request["view"]
    if FAULT == "hang":
        time.sleep(3600)
    if FAULT == "crash":
        sys.exit(3)
    if FAULT == "wrong-id":
        return {"id": number + 7, "move": view["options"][0]["move"]}
    if FAULT == "other-seat":
        return {"id": number, "move": f"{(view['seat'] + 1) % view['rules']['players']}:draw"}
    if FAULT == "not-offered":
        held = set(view["hand"])
        tile = next(f"[{a}|{b}]" for a in range(7) for b in range(a, 7) if f"[{a}|{b}]" not in held)
        return {"id": number, "move": f"{view['seat']}:{tile}"}
    if FAULT == "no-move":
        return {"id": number, "thinking": True}
    return {"id": number, "move": view["options"][0]["move"]}


def main() -> None:
    """Answer requests until quit or the end of input."""
    for line in sys.stdin:
        if LOG is not None:
            with Path(LOG).open("a", encoding="utf-8") as log:
                log.write(line)
        request = json.loads(line)
        if request["type"] == "choose" and FAULT == "garbage":
            sys.stdout.write("this is not json\n")
        elif request["type"] == "choose" and FAULT == "huge-line":
            chunk = "x" * (1 << 20)
            while True:
                sys.stdout.write(chunk)
        else:
            reply = answer(request)
            sys.stdout.write(json.dumps(reply) + "\n")
            if reply.get("bye"):
                sys.stdout.flush()
                return
        sys.stdout.flush()


if __name__ == "__main__":
    main()
