// A thin engine-protocol client for Node, no packages: replays a recorded match of the vectors
// through an engine process and checks every list of legal moves and every score it answers, and
// that each next round dealt again from a supplied order (sniff-protocol/2) deals that order.
// usage: node client.mjs RECORDED.jsonl MATCH -- ENGINE [ARGS...]
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";

const [file, match, dashes, ...command] = process.argv.slice(2);
if (dashes !== "--" || command.length === 0) {
  console.error("usage: node client.mjs RECORDED.jsonl MATCH -- ENGINE [ARGS...]");
  process.exit(2);
}
const all = readFileSync(file, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line));
const start = all.findIndex((line) => line.type === "match" && line.match === match);
if (start < 0) {
  console.error(`no match ${match} in ${file}`);
  process.exit(2);
}
const lines = [all[start]];
for (const line of all.slice(start + 1)) {
  if (line.type !== "deal" && line.type !== "move") break;
  lines.push(line);
}

const engine = spawn(command[0], command.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
const answers = createInterface({ input: engine.stdout })[Symbol.asyncIterator]();
let next = 0;
async function ask(request) {
  const id = next++;
  engine.stdin.write(JSON.stringify({ ...request, id }) + "\n");
  const { value, done } = await answers.next();
  if (done) throw new Error(`the engine ended before answering ${request.type} #${id}`);
  const answer = JSON.parse(value);
  if (answer.id !== id || answer.error) throw new Error(`${request.type} #${id}: ${value.slice(0, 300)}`);
  return answer;
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

let state = null;
let moves = 0;
let rounds = 0;
try {
  const hello = await ask({ type: "hello", protocol: "sniff-protocol/2" });
  if (hello.protocol !== "sniff-protocol/2") throw new Error(`the engine speaks ${hello.protocol}, not sniff-protocol/2`);
  const head = lines[0];
  for (const [number, line] of lines.slice(1).entries()) {
    if (line.type === "deal") {
      const request = state === null ? { type: "new_match", rules: head.rules, seed: String(head.seed) } : { type: "next_round", state };
      const dealt = (await ask(request)).state;
      if (state !== null) {
        // The round dealt again from a supplied order, the engine's own reversed: each seat is dealt its
        // hand from the front of the order and the rest is the boneyard (SETUP-5).
        const order = [...dealt.hands.flat(), ...dealt.boneyard].reverse();
        const again = (await ask({ type: "next_round", state, order })).state;
        const size = head.rules.hand_size;
        const hands = dealt.hands.map((_, seat) => order.slice(seat * size, (seat + 1) * size).sort());
        const boneyard = order.slice(dealt.hands.length * size);
        if (!same([again.hands.map((hand) => [...hand].sort()), again.boneyard], [hands, boneyard])) {
          throw new Error(`line ${number + 1}: the next round dealt from a supplied order differs from that order`);
        }
        rounds += 1;
      }
      state = dealt;
      const legal = (await ask({ type: "legal_moves", state })).moves;
      if (!same(legal, line.legal)) throw new Error(`line ${number + 1}: legal moves ${legal} differ from ${line.legal}`);
    } else {
      const answer = await ask({ type: "apply", state, move: line.move });
      if (answer.refused) throw new Error(`line ${number + 1}: ${line.move} refused: ${answer.refused.rule}`);
      state = answer.state;
      moves += 1;
      if (!same(state.scores, line.scores)) throw new Error(`line ${number + 1}: scores ${state.scores} differ from ${line.scores}`);
      const legal = (await ask({ type: "legal_moves", state })).moves;
      if (!same(legal, line.legal)) throw new Error(`line ${number + 1}: legal moves differ from the record`);
    }
  }
  await ask({ type: "quit" });
  console.log(`match ${match}: ${moves} moves agree, ${rounds} next rounds dealt again from supplied orders; winner ${state.winner}`);
} catch (error) {
  console.error(`FAIL ${error.message}`);
  engine.kill();
  process.exit(1);
}
