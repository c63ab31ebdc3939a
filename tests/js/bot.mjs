// A greedy bot for Node, no packages: the bot role of specs/protocol.md on stdin and stdout.
// It decides from the seat's view alone: the option scoring the most points, ties to the heaviest tile.
import { createInterface } from "node:readline";

const pips = (tile) => (tile ? Number(tile[1]) + Number(tile[3]) : -1);
const key = (option) => (option.kind === "place" ? [option.points, pips(option.tile)] : [-1, -1]);

function choose(view) {
  let best = view.options[0];
  for (const option of view.options) {
    const [a, b] = key(option);
    const [c, d] = key(best);
    if (a > c || (a === c && b > d)) best = option;
  }
  return best.move;
}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const request = JSON.parse(line);
  let answer;
  if (request.type === "hello") answer = { id: request.id, protocol: "sniff-protocol/2", role: "bot", bot: "greedy.mjs" };
  else if (request.type === "choose") answer = { id: request.id, move: choose(request.view) };
  else if (request.type === "quit") answer = { id: request.id, bye: true };
  else answer = { id: request.id, error: { rule: "PROTO-2", message: `a bot answers hello and choose, not ${request.type}` } };
  process.stdout.write(JSON.stringify(answer) + "\n");
  if (answer.bye) process.exit(0);
}
