// The page by keyboard and by screen reader. app.js draws each snapshot and calls Keyboard.drawn(snap) once it has;
// this file keeps the player's focus where it was across those redrawings, makes a move take at most three key
// presses, names the controls in words, and tells every move and score change in a live region. It reads the page
// app.js drew (the data-tile and data-point attributes) and acts through the same buttons a click uses, so a key
// press and a click can never make different moves.
//
// The keys, with the focus anywhere but a text field or a list:
//   1..9      choose that playable tile of the hand (each shows its number); on a target, play that target
//   arrows    move between the tiles of the hand, or between the targets of the chosen tile
//   Enter     choose the focused tile (its targets get the focus), or play the focused target
//   Escape    put the chosen tile down again
//   d p n     Draw, Pass, Deal the next round
"use strict";

const Keyboard = (() => {
  const $ = (id) => document.getElementById(id);
  const PIPS = ["blank", "one", "two", "three", "four", "five", "six"];
  const PORTS = { "chain-a": "side A", "chain-b": "side B", "arm-a": "arm A", "arm-b": "arm B" };
  const SPOKEN_KEPT = 6; // the live region keeps this many sentences: a listener hears each once, nothing piles up
  const FIRST_BACKLOG = 4; // a page opened mid-round tells no more of the round so far than its last events

  let place = null; // where the player's focus was: {where: "hand" | "point" | "control" | "elsewhere", tile, index}
  let heard = null; // what has been spoken: {round, events, scores}

  // ---------------------------------------------------------------- words a listener understands

  // A tile's and a point's text are FORMAT-1's fixed forms ("[1|4]", "[1|4].high"), not move text: the words are
  // made from those, and anything else is spoken as it came.
  function tileWords(text) {
    const found = /^\[(\d)\|(\d)\]$/.exec(text || "");
    if (!found) return String(text);
    const [low, high] = [PIPS[Number(found[1])], PIPS[Number(found[2])]];
    return low === high ? `double ${low}` : `${low}-${high}`;
  }

  function pointWords(text) {
    const found = /^(\[(\d)\|(\d)\])\.([a-z-]+)$/.exec(text || "");
    if (!found) return String(text);
    const [, tile, low, high, port] = found;
    if (port === "low" || port === "high") return `the ${PIPS[Number(port === "low" ? low : high)]} end of ${tileWords(tile)}`;
    return `${PORTS[port] || port} of ${tileWords(tile)}`;
  }

  function placementWords(text) {
    // "[1|4]" leads; "[1|4]>[4|4].chain-b" attaches the tile at that point.
    const [tile, point] = String(text).split(">");
    return point === undefined ? `led ${tileWords(tile)}` : `played ${tileWords(tile)} on ${pointWords(point)}`;
  }

  function seatWords(snap, index) {
    if (index === snap.seat) return "You";
    return `Seat ${index}, ${snap.players[index].name},`;
  }

  function scoreWords(snap, scores) {
    const sides = scores.map((score, side) => {
      const seats = snap.players.filter((player) => player.side === side).map((player) => player.seat);
      const mine = seats.includes(snap.seat);
      const names = seats.map((index) => (index === snap.seat ? "you" : `seat ${index}`));
      const who = mine ? names.join(" and ") : `${seats.length > 1 ? "seats" : "seat"} ${seats.join(" and ")}`;
      return `${who}: ${score}`;
    });
    return `Scores: ${sides.join("; ")}.`;
  }

  function eventWords(snap, event) {
    const who = event.seat === undefined ? "" : seatWords(snap, event.seat);
    switch (event.event) {
      case "dealt": {
        const opener = seatWords(snap, event.opener);
        return `Round ${event.round} dealt, ${event.hand_size} tiles each. ${opener} ${event.opener === snap.seat ? "lead" : "leads"}.`;
      }
      case "placed":
        return `${who} ${placementWords(event.placement)}. End count ${event.end_count}` +
          (event.points ? `, ${event.points} points.` : ".");
      case "drew": {
        const what = event.tile ? tileWords(event.tile) : "a tile";
        return `${who} drew ${what}${event.must_place ? " and must place it" : ""}.`;
      }
      case "passed": return `${who} passed.`;
      case "round-ended":
        return event.finisher === null ? `Round ${event.round} is blocked.` :
          `${seatWords(snap, event.finisher)} went out: round ${event.round} is over.`;
      case "match-won": {
        const seats = snap.players.filter((player) => player.side === event.side).map((player) => player.seat);
        return seats.includes(snap.seat) ? "You win the match." :
          `${seats.length > 1 ? "Seats" : "Seat"} ${seats.join(" and ")} win the match.`;
      }
      default: return null;
    }
  }

  // The scores an event leaves, where it says them.
  function scoresAfter(event) {
    return event.scores_after || event.scores || null;
  }

  const region = document.createElement("div");
  region.id = "spoken";
  region.className = "visually-hidden";
  region.setAttribute("aria-live", "polite");
  region.setAttribute("aria-relevant", "additions");
  document.body.append(region);

  // The list of plays scrolls on its own: it takes the focus, so that it can be scrolled with the arrows too.
  $("log-box").tabIndex = 0;

  // The keys, said once on the page beside the hand; the hand's name points to it for a screen reader.
  const help = document.createElement("p");
  help.id = "keys-help";
  help.textContent = "Keys: 1–9 choose a tile, then 1–9 or Enter play it on a marked point; the arrows move " +
    "between tiles and between points; Esc puts the tile down; d draws, p passes, n deals the next round.";
  $("you").append(help);

  function say(text) {
    const line = document.createElement("p");
    line.textContent = text;
    region.append(line);
    while (region.childElementCount > SPOKEN_KEPT) region.firstElementChild.remove();
  }

  function speak(snap) {
    const view = snap.view;
    const fresh = !heard || heard.round !== view.round;
    let from = fresh ? 0 : heard.events;
    if (!heard && view.history.length > FIRST_BACKLOG) {
      from = view.history.length - 1;
      say(`Round ${view.round}: ${from} earlier plays are in the list of plays.`);
    }
    let scores = heard ? heard.scores : view.scores.join(",");
    for (const event of view.history.slice(from)) {
      const words = eventWords(snap, event);
      if (words) say(words);
      const after = scoresAfter(event);
      // A new round's deal repeats the scores already told; any other change is told once, after its move.
      if (after && after.join(",") !== scores) {
        if (event.event !== "dealt") say(scoreWords(snap, after));
        scores = after.join(",");
      }
    }
    heard = { round: view.round, events: view.history.length, scores };
  }

  // ---------------------------------------------------------------- names and keys of the controls

  function handTiles() { return Array.from(document.querySelectorAll("#hand [data-tile]")); }
  function playable() { return handTiles().filter((tile) => !tile.disabled); }
  function targets() { return Array.from(document.querySelectorAll("#open-points .sniff-point.target")); }
  function chosen() { return document.querySelector("#hand [data-tile].selected"); }
  function visible(id) { const found = $(id); return found && !found.hidden && !found.disabled && found.closest("[hidden]") === null ? found : null; }

  function name(snap) {
    // The picture is one image to a screen reader, named by what it shows; its targets are the buttons below it.
    const picture = document.querySelector("#layout svg");
    if (picture && snap) {
      const layout = snap.view.layout;
      const last = snap.last_placement ? `, the last ${placementWords(snap.last_placement).replace(/^(led|played) /, "")}` : "";
      picture.setAttribute("role", "img");
      picture.setAttribute("aria-label", layout.placements.length
        ? `The layout: ${layout.placements.length} tiles${last}; end count ${layout.end_count}.`
        : "The layout is empty.");
    }
    const hand = $("hand");
    hand.setAttribute("role", "group");
    hand.setAttribute("aria-label", "Your hand");
    hand.setAttribute("aria-describedby", "keys-help");
    hand.tabIndex = -1;
    const free = playable();
    for (const tile of handTiles()) {
      const number = free.indexOf(tile) + 1;
      // The name holds the text shown (what a person using voice control says), after the words.
      const shown = tile.getAttribute("data-tile");
      const words = `${tileWords(shown)}, ${shown}`;
      tile.setAttribute("aria-label", tile.disabled ? `${words}, cannot be played now` : words);
      tile.setAttribute("aria-pressed", tile.classList.contains("selected") ? "true" : "false");
      if (number > 0 && number <= 9) {
        tile.dataset.key = String(number);
        tile.setAttribute("aria-keyshortcuts", String(number));
      }
    }
    // The hand is one stop of the Tab key: the tile last focused, else the first playable one, holds it.
    const holder = free.find((tile) => place && place.where === "hand" && tile.getAttribute("data-tile") === place.tile) || free[0];
    for (const tile of free) tile.tabIndex = tile === holder ? 0 : -1;
    // The open points are reached from the hand (Enter on a tile), never before it by Tab.
    const marked = targets();
    for (const point of document.querySelectorAll("#open-points .sniff-point")) {
      point.tabIndex = -1;
      const number = marked.indexOf(point) + 1;
      // The name holds the button's whole shown text (the point, and a target's points once marked), as for a tile.
      const where = `${pointWords(point.getAttribute("data-point"))}, ${point.textContent.trim()}`;
      point.setAttribute("aria-label", number ? `${where}, ${point.getAttribute("title") || ""}`.replace(/, $/, "") : `${where}, not a target`);
      point.setAttribute("aria-disabled", number ? "false" : "true");
      if (number > 0 && number <= 9) {
        point.dataset.key = String(number);
        point.setAttribute("aria-keyshortcuts", String(number));
      } else {
        delete point.dataset.key;
        point.removeAttribute("aria-keyshortcuts");
      }
    }
    for (const [id, key] of [["draw", "d"], ["pass", "p"], ["next-round", "n"]]) $(id).setAttribute("aria-keyshortcuts", key);
  }

  // ---------------------------------------------------------------- where the focus goes

  function placeOf(element) {
    const index = place ? place.index : 0;
    const tile = element.closest("#hand [data-tile]");
    if (tile) return { where: "hand", tile: tile.getAttribute("data-tile"), index: handTiles().indexOf(tile) };
    if (element.closest("#open-points .sniff-point")) return { where: "point", tile: place && place.tile, index };
    if (element === $("hand") || element.matches("#draw, #pass, #next-round, #download-record, #start")) {
      return { where: "control", tile: place && place.tile, index };
    }
    return { where: "elsewhere" };
  }

  function lost(active) {
    return !active || active === document.body || !active.isConnected || active.disabled ||
      active.closest("[hidden]") !== null || active === $("hand");
  }

  // The nearest thing to where the player was: the same tile, else the playable tile nearest its place in the
  // hand, else the one button the turn allows, else the hand itself (while others move).
  function nearest(status) {
    const free = playable();
    if (status === "your-turn" && free.length) {
      const same = free.find((tile) => tile.getAttribute("data-tile") === place.tile);
      if (same) return same;
      const all = handTiles();
      return free.reduce((best, tile) =>
        Math.abs(all.indexOf(tile) - place.index) < Math.abs(all.indexOf(best) - place.index) ? tile : best);
    }
    return visible("draw") || visible("pass") || visible("next-round") || visible("download-record") || $("hand");
  }

  function restore(snap) {
    if (!place || place.where === "elsewhere" || !lost(document.activeElement)) return;
    const wanted = nearest(snap.status);
    if (wanted !== document.activeElement) wanted.focus();
  }

  document.addEventListener("focusin", (event) => {
    const found = placeOf(event.target);
    // The hand itself holds the focus only while no tile may be played: it is no new place of the player's.
    if (!(event.target === $("hand") && place && place.where !== "elsewhere")) place = found;
    if (found.where === "hand") {
      for (const tile of playable()) tile.tabIndex = tile === event.target ? 0 : -1;
    }
    followFocus();
  });
  document.addEventListener("focusout", () => followFocus());

  // A target focused in the list is ringed on the picture too, so a sighted player sees where it is.
  function followFocus() {
    const active = document.activeElement;
    const point = active && active.closest && active.closest("#open-points .sniff-point");
    for (const marker of document.querySelectorAll("#layout svg .sniff-point")) {
      marker.classList.toggle("focused", point !== null && point !== undefined && marker.getAttribute("data-point") === point.getAttribute("data-point"));
    }
  }

  // ---------------------------------------------------------------- the keys

  function step(items, current, by) {
    if (!items.length) return;
    const at = items.indexOf(current);
    const next = by === "first" ? 0 : by === "last" ? items.length - 1 : (Math.max(at, 0) + by + items.length) % items.length;
    items[next].focus();
  }

  // After a tile is chosen by a key, its first target takes the focus: Enter plays it, the arrows or its number
  // pick another. A click with the mouse leaves the focus where it is.
  function toTargets(tile) {
    name();
    const marked = targets();
    if (tile.isConnected && tile.classList.contains("selected") && marked.length) marked[0].focus();
  }

  function putDown() {
    const tile = chosen();
    if (!tile) return;
    tile.click();
    name();
    tile.focus();
  }

  const MOVES = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1, Home: "first", End: "last" };

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    const on = event.target instanceof Element ? event.target : document.body;
    if (on.closest("input, select, textarea, a")) return;
    const tile = on.closest("#hand [data-tile]");
    const point = on.closest("#open-points .sniff-point");
    const key = event.key;
    let done = true;
    if (/^[1-9]$/.test(key)) {
      const number = Number(key) - 1;
      if (point) { const marked = targets(); if (marked[number]) marked[number].click(); }
      else {
        const free = playable();
        // app.js's click chooses the tile (its targets marked), puts it down, or plays a lead at once.
        if (free[number]) { free[number].focus(); free[number].click(); }
      }
    } else if (key in MOVES && (tile || on === $("hand"))) step(playable(), tile, MOVES[key]);
    else if (key in MOVES && point) step(targets(), point, MOVES[key]);
    else if (key === "Escape" && (point || tile)) putDown();
    else if (key === "d" && visible("draw")) visible("draw").click();
    else if (key === "p" && visible("pass")) visible("pass").click();
    else if (key === "n" && visible("next-round")) visible("next-round").click();
    else done = false;
    if (done) event.preventDefault();
  });

  // Enter and Space on a button are the browser's own click. By the time a click reaches the window, app.js's
  // listener on the document has chosen or put down the tile: the names say so, and a key's choice (a click of
  // no pointer, detail 0) hands the focus to the targets.
  window.addEventListener("click", (event) => {
    name();
    const tile = event.target instanceof Element ? event.target.closest("#hand [data-tile]") : null;
    if (tile && event.detail === 0) toTargets(tile);
  });

  return {
    /** Called by app.js once a snapshot is drawn: tell what happened, name the controls, put the focus back. */
    drawn(snap) {
      speak(snap);
      name(snap);
      restore(snap);
      followFocus();
    },
  };
})();
