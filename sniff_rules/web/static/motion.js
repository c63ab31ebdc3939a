// Moves you can follow. Each snapshot brings a whole new picture of the layout; app.js asks Motion.seen(box) where
// every tile is on the screen before it replaces the picture, and Motion.glide(box, seen) after. A tile that was on
// the table glides from where it was to its new place (FLIP: first, last, invert, play), which is what makes the
// re-centring on the Sniff (GEOM-2) and a picture that grows easy to follow; the tile just placed fades in under
// its highlight. Under prefers-reduced-motion: reduce nothing moves at all: both calls do nothing.
"use strict";

const Motion = (() => {
  const GLIDE_MS = 320;
  const PLACE_MS = 260;
  const still = window.matchMedia("(prefers-reduced-motion: reduce)");
  // Half a pixel is no move a person sees; below it a tile is left where it is drawn.
  const NO_MOVE_PX = 0.5;

  /** Where each tile of the picture in ``box`` is on the screen now, by its data-tile (a tile gliding: where
   * it is seen at this instant, so a glide cut short by the next move starts from there). */
  function seen(box) {
    const places = new Map();
    if (still.matches) return places;
    for (const tile of box.querySelectorAll("svg .sniff-tile[data-tile]")) {
      places.set(tile.getAttribute("data-tile"), tile.getBoundingClientRect());
    }
    return places;
  }

  /** The new picture in ``box`` animated from ``places``: each tile back from its old place to its new one, and
   * the last placement, new on the table, faded in. */
  function glide(box, places) {
    if (still.matches) return;
    const picture = box.querySelector("svg");
    const matrix = picture && picture.getScreenCTM();
    if (!matrix || !matrix.a || !matrix.d) return;
    for (const tile of picture.querySelectorAll(".sniff-tile[data-tile]")) {
      const before = places.get(tile.getAttribute("data-tile"));
      if (!before) continue;
      const now = tile.getBoundingClientRect();
      const [dx, dy] = [before.left - now.left, before.top - now.top];
      const scale = now.width ? before.width / now.width : 1;
      if (Math.abs(dx) < NO_MOVE_PX && Math.abs(dy) < NO_MOVE_PX && Math.abs(scale - 1) < 0.01) continue;
      // A tile's transform is in the picture's units (its origin, from the style, the tile's own top-left
      // corner), so the screen's pixels are divided by the picture's scale.
      const from = `translate(${dx / matrix.a}px, ${dy / matrix.d}px) scale(${scale})`;
      tile.animate([{ transform: from }, { transform: "none" }], { duration: GLIDE_MS, easing: "ease-out" });
    }
    const last = picture.querySelector(".sniff-tile.sniff-last");
    if (last && !places.has(last.getAttribute("data-tile"))) {
      const placed = { duration: PLACE_MS, easing: "ease-out" };
      last.animate([{ opacity: 0, transform: "scale(1.3)" }, { opacity: 1, transform: "none" }], placed);
      const mark = picture.querySelector(".sniff-last-mark");
      if (mark) mark.animate([{ opacity: 0 }, { opacity: 1 }], placed);
    }
  }

  return { seen, glide };
})();
