// Shifting Stones on a phone: one 3×3 grid, tapped directly (a card, then one stone to flip or two neighbours to
// swap), the cards drawn as their patterns. The grid, the cards and the patterns keep the board's orientation in
// every language: a right-to-left page mirrors its text and chrome, never them.

import { formatNumber, h, playerName, setArgWords, t, tn } from "../common.js";
import { look, pic, picName } from "../look.js";

/** Draw the page again (the phone page's redraw; the host page redraws when a selection is set). */
function redraw(ctx) {
  if (ctx.redraw) ctx.redraw();
  else if (ctx.select) ctx.select(ctx.selection);
}

const MOVE_KINDS = ["shift_stones", "flip_stone"];
// A stone's two faces: flipping shows the other one.
const OTHER_FACE = {
  sun: "moon", moon: "sun", fish: "bird", bird: "fish", horse: "boat", boat: "horse", seed: "tree", tree: "seed",
};

// The stone tapped first (for a swap or a flip), kept while the state and the card stay the same.
let picked = { state: null, card: null, cell: null };
// A word for the player after a tap that could not be a move ("choose a card first").
let note = null;
// Asking before ending a turn while a card could still score.
let confirmEnd = null;

function view(envelope) {
  return envelope.view || {};
}

function hand(envelope) {
  return view(envelope).hand || [];
}

/** A card's points and rows: from the hand, else from the game's card list (a card seen in the log). */
function cardData(envelope, id) {
  const own = hand(envelope).find((c) => c.card === id);
  if (own) return own;
  const known = (look().cards || {})[id];
  return known ? { card: id, ...known } : null;
}

/** A card in words: its points and the stones it asks for ("2-point card (Fish, Bird)"). */
function cardName(envelope, id) {
  const card = cardData(envelope, id);
  if (!card) return t("a pattern card");
  const faces = card.rows.flat().filter((f) => f !== "*").map((f) => picName("stone", f));
  return tn("{count}-point card ({faces})", card.points, { faces: faces.join(", ") });
}

function cellName(envelope, cell) {
  const names = view(envelope).cell_names || [];
  return names[cell] ? t(names[cell]) : formatNumber(cell + 1);
}

/** A pattern as on the printed card: rows top first, left to right whatever the page's direction. */
function pattern(envelope, card, size) {
  const rows = card.rows || [];
  const width = Math.max(...rows.map((r) => r.length), 1);
  return h("span", { class: "pattern", dir: "ltr", role: "img", "aria-label": cardName(envelope, card.card),
    style: size ? { "--w": String(width), "--s": size } : { "--w": String(width) } },
  rows.flat().map((f) => {
    if (f === "*" || f === null) return h("span", { class: "sq any" });
    const img = pic("stone", f, { label: false });
    img.alt = "";
    return h("span", { class: "sq" }, img);
  }));
}

function cardFace(envelope, card, extra) {
  return h("span", { class: "ss-card" }, pattern(envelope, card),
    h("small", {}, tn("{count} point", card.points)),
    card.scores_now ? h("small", { class: "scores" }, "✓ ", t("scores now")) : null,
    extra || null);
}

function moves(envelope) {
  return (envelope.legal || []).filter((a) => MOVE_KINDS.includes(a.action));
}

function chosenCard(envelope, ctx) {
  const usable = new Set(moves(envelope).map((a) => a.card));
  return usable.has(ctx.selection) ? ctx.selection : null;
}

function syncPicked(envelope, card) {
  // A stone tapped stays picked when the card is chosen after it; a new state forgets it.
  if (picked.state !== envelope.state_id) picked = { state: envelope.state_id, card, cell: null };
  picked.card = card;
}

function neighbours(a, b) {
  const [ra, ca, rb, cb] = [Math.floor(a / 3), a % 3, Math.floor(b / 3), b % 3];
  return Math.abs(ra - rb) + Math.abs(ca - cb) === 1;
}

function tapStone(envelope, ctx, cell) {
  const card = chosenCard(envelope, ctx);
  if (card === null) {
    picked.cell = picked.cell === cell ? null : cell;
    note = t("Now choose the card to spend.");
    redraw(ctx);
    return;
  }
  if (picked.cell === null || picked.cell === cell || !neighbours(picked.cell, cell)) {
    picked.cell = picked.cell === cell ? null : cell;
    note = null;
    redraw(ctx);
    return;
  }
  const [a, b] = [Math.min(picked.cell, cell), Math.max(picked.cell, cell)];
  const shift = (envelope.legal || []).find((x) => x.action === "shift_stones" && x.card === card && x.a === a && x.b === b);
  picked.cell = null;
  ctx.submit(shift || { seat: envelope.seat, action: "shift_stones", card, a, b });
}

/** The one grid: stones as pictograms with their names; tappable while you may move stones. */
function grid(envelope, ctx) {
  const faces = (view(envelope).grid || {}).faces || [];
  const last = new Set(view(envelope).last_move || []);
  const tappable = moves(envelope).length > 0 && Boolean(ctx.submit);
  if (tappable) syncPicked(envelope, chosenCard(envelope, ctx));
  return h("div", { class: "ss-grid", dir: "ltr", role: "group", "aria-label": t("The stones") }, faces.map((f, i) => {
    const selected = tappable && picked.cell === i;
    const classes = ["cell"];
    if (last.has(i)) classes.push("last");
    if (selected) classes.push("selected");
    const states = [selected ? t("selected") : null, last.has(i) ? t("moved last") : null].filter(Boolean);
    const label = `${cellName(envelope, i)}: ${picName("stone", f)}${states.length ? ` (${states.join(", ")})` : ""}`;
    const body = [pic("stone", f), last.has(i) ? h("span", { class: "moved", "aria-hidden": "true" }, "↻") : null];
    if (tappable) {
      return h("button", { type: "button", class: classes.join(" "), dataset: { cell: String(i), face: f },
        "aria-label": label, "aria-pressed": selected ? "true" : "false", onclick: () => tapStone(envelope, ctx, i) }, body);
    }
    return h("div", { class: classes.join(" "), dataset: { cell: String(i), face: f }, role: "img", "aria-label": label }, body);
  }));
}

// -- the table part ------------------------------------------------------------------------------------
function render(envelope, ctx) {
  const v = view(envelope);
  const parts = [h("section", { class: "ss-board", "aria-label": t("The stones") }, grid(envelope, ctx),
    note ? h("p", { class: "note", role: "status" }, note) : null)];
  note = null;
  // While you may move stones your cards are in the actions below (tap one there); otherwise they are here.
  if (envelope.seat !== null && envelope.seat !== undefined && !moves(envelope).length) {
    const cards = hand(envelope);
    parts.push(h("section", { class: "hand" }, h("h2", {}, t("Your hand"), " ", h("small", {}, tn("{count} card", cards.length))),
      h("div", { class: "cards", dir: "ltr" }, cards.map((c) => h("div", { class: "card idle" + (c.scores_now ? " ready" : "") }, cardFace(envelope, c))))));
  }
  parts.push(h("section", {}, h("table", { class: "players" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Player")), h("th", { scope: "col" }, t("Scored")),
      h("th", { scope: "col" }, t("Score")), h("th", { scope: "col" }, t("Hand")))),
    h("tbody", {}, (v.players || []).map((p) => h("tr", {
      class: ((envelope.current_seats || []).includes(p.seat) ? "current" : "") + (p.seat === envelope.seat ? " me" : ""),
    }, h("th", { scope: "row" }, h("span", { class: "dot", style: { "--c": (envelope.players[p.seat] || {}).colour } }), playerName(envelope, p.seat)),
    h("td", {}, formatNumber(p.scored_count)), h("td", {}, formatNumber(p.score)), h("td", {}, formatNumber(p.hand_size))))))));
  const facts = [t("Deck: {count}", { count: v.deck_size }), t("Discards: {count}", { count: v.discard_size })];
  if (v.final_round) facts.push(t("Final round!"));
  parts.push(h("p", { class: "muted" }, facts.join(" · ")));
  return parts;
}

// -- actions ---------------------------------------------------------------------------------------------
function label(field, value, envelope) {
  if (field === "card") return cardName(envelope, value);
  if (field === "a" || field === "b" || field === "cell") return cellName(envelope, value);
  return undefined;
}

function movesPanel(group, ctx) {
  const envelope = ctx.envelope;
  const legal = moves(envelope);
  if (!legal.length || legal[0].action !== group.kind) return null;
  const usable = [...new Set(legal.map((a) => a.card))];
  const chosen = chosenCard(envelope, ctx);
  syncPicked(envelope, chosen);
  const out = [h("h3", {}, t("Spend a card to move stones")), h("div", { class: "cards", dir: "ltr" }, usable.map((id) => {
    const card = cardData(envelope, id);
    return h("button", { type: "button", class: "card" + (id === chosen ? " selected" : "") + (card && card.scores_now ? " ready" : ""),
      "aria-pressed": id === chosen ? "true" : "false", dataset: { card: id },
      onclick: () => ctx.select(id === chosen ? undefined : id) }, card ? cardFace(envelope, card) : cardName(envelope, id));
  }))];
  if (chosen === null) {
    out.push(h("p", { class: "prompt" }, t("Tap a card, then one stone to flip it or two neighbours to swap them.")));
    return out;
  }
  if (picked.cell === null) {
    out.push(h("p", { class: "prompt" }, t("Now tap a stone to flip it, or two neighbours to swap them.")));
    return out;
  }
  const faces = (view(envelope).grid || {}).faces || [];
  const face = faces[picked.cell];
  const flip = legal.find((a) => a.action === "flip_stone" && a.card === chosen && a.cell === picked.cell);
  out.push(h("p", { class: "prompt" }, t("Tap a neighbour of the {cell} stone to swap them, or flip it.", { cell: cellName(envelope, picked.cell) })));
  if (flip) {
    out.push(h("button", { type: "button", class: "act primary flip", onclick: () => ctx.submit(flip) },
      t("Flip the {cell} stone: {before} → {after}", {
        cell: cellName(envelope, picked.cell), before: picName("stone", face), after: picName("stone", OTHER_FACE[face] || face),
      })));
  }
  return out;
}

function scorePanel(group, ctx) {
  return [h("h3", {}, t("Score a card")), h("div", { class: "cards", dir: "ltr" }, group.actions.map((a) => {
    const card = cardData(ctx.envelope, a.card);
    return h("button", { type: "button", class: "card ready", dataset: { card: a.card }, onclick: () => ctx.submit(a),
      "aria-label": t("Score {card}", { card: cardName(ctx.envelope, a.card) }) },
    card ? cardFace(ctx.envelope, card) : cardName(ctx.envelope, a.card));
  }))];
}

function endTurnPanel(group, ctx) {
  const envelope = ctx.envelope;
  const action = group.actions[0];
  const scorable = (envelope.legal || []).filter((a) => a.action === "score_card").map((a) => a.card);
  const key = `${envelope.state_id}`;
  if (!scorable.length) {
    return h("button", { type: "button", class: "act end-turn", onclick: () => ctx.submit(action) }, t("End your turn"));
  }
  if (confirmEnd !== key) {
    return h("button", { type: "button", class: "act end-turn", onclick: () => {
      confirmEnd = key;
      redraw(ctx);
    } }, t("End your turn"));
  }
  return h("div", { class: "confirm-end", role: "alertdialog", "aria-label": t("End your turn?") },
    h("p", { class: "warn" }, tn("{count} card could still score: {cards}. End your turn anyway?", scorable.length,
      { cards: scorable.map((c) => cardName(envelope, c)).join("; ") })),
    h("button", { type: "button", class: "act primary", onclick: () => {
      confirmEnd = null;
      redraw(ctx);
    } }, t("Keep playing")),
    h("button", { type: "button", class: "act", onclick: () => {
      confirmEnd = null;
      ctx.submit(action);
    } }, t("End the turn anyway")));
}

function describeStep(envelope, action) {
  if (action.action === "score_card") return t("score it");
  if (action.action === "flip_stone") return t("spend it to flip the {cell} stone", { cell: cellName(envelope, action.cell) });
  if (action.action === "shift_stones") {
    return t("spend it to swap the {a} and {b} stones", { a: cellName(envelope, action.a), b: cellName(envelope, action.b) });
  }
  return t("the next move");
}

function stepWithCard(envelope, action) {
  const card = action.card ? cardData(envelope, action.card) : null;
  return h("span", { class: "step" }, card ? pattern(envelope, card, "1.1rem") : null, " ", describeStep(envelope, action));
}

function hints(data, ctx) {
  const envelope = ctx.envelope;
  const out = [];
  const best = data.best_turn;
  if (best && (best.actions || []).length) {
    const next = best.actions[0];
    const isLegal = (envelope.legal || []).some((a) => JSON.stringify(a) === JSON.stringify(next));
    out.push(h("p", {}, tn("This turn you can score {count} point", best.points), ":"),
      h("ol", { class: "steps" }, best.actions.map((a) => h("li", {}, stepWithCard(envelope, a)))));
    if (isLegal) {
      out.push(h("button", { type: "button", class: "act next-step", onclick: () => ctx.submit(next) },
        t("Do the next step:"), " ", stepWithCard(envelope, next)));
    }
  }
  for (const card of data.cards || []) {
    if (card.fewest_actions === null || card.fewest_actions === undefined) continue;
    out.push(h("p", { class: "muted" }, cardName(envelope, card.card), ": ",
      card.fewest_actions === 0 ? t("scores now") : tn("{count} move away", card.fewest_actions)));
  }
  return out.length ? out : null;
}

/** Log arguments in words: a card id as its points and stones, a face as its name. */
function argWords(key, value, envelope) {
  if (key === "card" && typeof value === "string") return cardName(envelope, value);
  if (key === "cards" && Array.isArray(value)) return value.map((c) => cardName(envelope, String(c))).join("; ");
  if (["before", "after", "first_face", "second_face", "face"].includes(key) && typeof value === "string" && OTHER_FACE[value]) {
    return picName("stone", value);
  }
  return undefined;
}

export default {
  cardFields: ["card"],
  label,
  card: (value, ctx) => {
    const card = cardData(ctx.envelope, value);
    return card ? cardFace(ctx.envelope, card) : null;
  },
  render,
  hints,
  argWords,
  composers: {
    shift_stones: movesPanel,
    flip_stone: movesPanel,
    score_card: scorePanel,
    end_turn: endTurnPanel,
  },
};

// Any page that draws this game (the phone, the host page) words its log the same way.
setArgWords(argWords);
