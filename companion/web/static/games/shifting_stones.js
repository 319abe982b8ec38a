// Shifting Stones on a phone: the 3×3 grid, your pattern cards drawn as patterns, and moves made by tapping a card
// and then one stone (flip) or two neighbouring stones (shift); the shortest way to score is one tap away.

import { formatNumber, h, playerName, t, tn, words } from "../common.js";

const FACE_COLOURS = {
  sun: "#f4b400", moon: "#5c6bc0", fish: "#29b6f6", bird: "#ef5350",
  horse: "#8d6e63", boat: "#26a69a", seed: "#9ccc65", tree: "#2e7d32",
};
const MOVE_KINDS = ["shift_stones", "flip_stone"];

// The first stone tapped for a shift, kept while the state stays the same.
let picked = null;

function face(name, attrs, extra) {
  if (name === "*" || name === null) return h("span", { class: "stone any", ...(attrs || {}) }, extra || "");
  return h("span", { class: "stone", style: { "--c": FACE_COLOURS[name] || "#999" }, ...(attrs || {}) },
    h("span", { class: "face" }, words(name)), extra || "");
}

function pattern(card) {
  const rows = card.rows || [];
  const width = Math.max(...rows.map((r) => r.length), 1);
  return h("span", { class: "pattern", style: { "--w": String(width) } }, rows.flat().map((f) => face(f)));
}

function handCard(card) {
  return h("span", { class: "ss-card" }, pattern(card),
    h("small", {}, tn("{count} point", card.points), card.scores_now ? h("b", {}, " ✓") : null));
}

function hand(envelope) {
  return (envelope.view && envelope.view.hand) || [];
}

function cardData(envelope, id) {
  return hand(envelope).find((c) => c.card === id) || null;
}

function cellName(envelope, cell) {
  const names = (envelope.view && envelope.view.cell_names) || [];
  return names[cell] ? t(names[cell]) : String(cell + 1);
}

function grid(envelope, onCell, marks) {
  const faces = ((envelope.view && envelope.view.grid) || {}).faces || [];
  const last = new Set((envelope.view && envelope.view.last_move) || []);
  return h("div", { class: "ss-grid", role: onCell ? "group" : null, "aria-label": t("The stones") }, faces.map((f, i) => {
    const classes = ["cell"];
    if (last.has(i)) classes.push("last");
    if (marks && marks.has(i)) classes.push("marked");
    const attrs = { class: classes.join(" "), dataset: { cell: String(i) }, "aria-label": `${cellName(envelope, i)}: ${words(f)}` };
    if (onCell) return h("button", { type: "button", ...attrs, onclick: () => onCell(i) }, face(f));
    return h("div", attrs, face(f));
  }));
}

// -- the table part ------------------------------------------------------------------------------------
function render(envelope, ctx) {
  const view = envelope.view;
  const parts = [h("section", { class: "ss-board" }, grid(envelope, null, null))];
  if (envelope.seat !== null && envelope.seat !== undefined) {
    const cards = hand(envelope);
    parts.push(h("section", { class: "hand" }, h("h2", {}, t("Your hand"), " ", h("small", {}, tn("{count} card", cards.length))),
      h("div", { class: "cards" }, cards.map((c) => h("div", { class: "card idle" + (c.scores_now ? " ready" : "") }, handCard(c))))));
  }
  parts.push(h("section", {}, h("table", { class: "players" },
    h("thead", {}, h("tr", {}, h("th", {}, t("Player")), h("th", {}, t("Scored")), h("th", {}, t("Score")), h("th", {}, t("Hand")))),
    h("tbody", {}, (view.players || []).map((p) => h("tr", {
      class: ((envelope.current_seats || []).includes(p.seat) ? "current" : "") + (p.seat === envelope.seat ? " me" : ""),
    }, h("th", { scope: "row" }, h("span", { class: "dot", style: { "--c": (envelope.players[p.seat] || {}).colour } }), playerName(envelope, p.seat)),
    h("td", {}, formatNumber(p.scored_count)), h("td", {}, formatNumber(p.score)), h("td", {}, formatNumber(p.hand_size))))))));
  const facts = [t("Deck: {count}", { count: view.deck_size }), t("Discards: {count}", { count: view.discard_size })];
  if (view.final_round) facts.push(t("Final round!"));
  parts.push(h("p", { class: "muted" }, facts.join(" · ")));
  return parts;
}

// -- actions ---------------------------------------------------------------------------------------------
function label(field, value, envelope) {
  if (field === "card") {
    const card = cardData(envelope, value);
    return card ? tn("{count} point", card.points) + ` (${card.rows.flat().filter((f) => f !== "*").map(words).join(", ")})` : String(value);
  }
  if (field === "a" || field === "b" || field === "cell") return cellName(envelope, value);
  return undefined;
}

function movesPanel(group, ctx) {
  const envelope = ctx.envelope;
  const legal = envelope.legal || [];
  const first = legal.find((a) => MOVE_KINDS.includes(a.action));
  if (!first || first.action !== group.kind) return null;
  const usable = [...new Set(legal.filter((a) => MOVE_KINDS.includes(a.action)).map((a) => a.card))];
  const chosen = usable.includes(ctx.selection) ? ctx.selection : null;
  if (!picked || picked.state !== envelope.state_id || picked.card !== chosen) picked = { state: envelope.state_id, card: chosen, cell: null };
  const out = [h("h3", {}, t("Discard a card to move stones")), h("div", { class: "cards" }, usable.map((id) => {
    const card = cardData(envelope, id);
    return h("button", { type: "button", class: "card" + (id === chosen ? " selected" : ""), "aria-pressed": id === chosen ? "true" : "false",
      onclick: () => ctx.select(id === chosen ? undefined : id) }, card ? handCard(card) : String(id));
  }))];
  if (chosen === null) return out;
  const box = h("div", { class: "ss-move" });
  const draw = () => {
    const marks = new Set(picked.cell === null ? [] : [picked.cell]);
    const flip = picked.cell === null ? null : legal.find((a) => a.action === "flip_stone" && a.card === chosen && a.cell === picked.cell);
    box.replaceChildren(
      h("p", { class: "muted" }, picked.cell === null ? t("Tap a stone to flip it, or two neighbours to swap them.")
        : t("Tap a neighbour of the {cell} stone to swap them, or flip it.", { cell: cellName(envelope, picked.cell) })),
      grid(envelope, (cell) => {
        if (picked.cell === null || picked.cell === cell) {
          picked.cell = picked.cell === cell ? null : cell;
          draw();
          return;
        }
        const [a, b] = [Math.min(picked.cell, cell), Math.max(picked.cell, cell)];
        const shift = legal.find((x) => x.action === "shift_stones" && x.card === chosen && x.a === a && x.b === b);
        ctx.submit(shift || { seat: envelope.seat, action: "shift_stones", card: chosen, a, b });
      }, marks),
      flip ? h("button", { type: "button", class: "act primary", onclick: () => ctx.submit(flip) },
        t("Flip the {cell} stone", { cell: cellName(envelope, picked.cell) })) : null);
  };
  draw();
  out.push(box);
  return out;
}

function scorePanel(group, ctx) {
  return [h("h3", {}, t("Score a card")), h("div", { class: "cards" }, group.actions.map((a) => {
    const card = cardData(ctx.envelope, a.card);
    return h("button", { type: "button", class: "card ready", onclick: () => ctx.submit(a) }, card ? handCard(card) : String(a.card));
  }))];
}

function describeStep(envelope, action) {
  if (action.action === "score_card") return t("score {card}", { card: label("card", action.card, envelope) });
  if (action.action === "flip_stone") return t("discard a card and flip the {cell} stone", { cell: cellName(envelope, action.cell) });
  if (action.action === "shift_stones") {
    return t("discard a card and swap the {a} and {b} stones", { a: cellName(envelope, action.a), b: cellName(envelope, action.b) });
  }
  return words(action.action);
}

function hints(data, ctx) {
  const envelope = ctx.envelope;
  const out = [];
  const best = data.best_turn;
  if (best && (best.actions || []).length) {
    const next = best.actions[0];
    const isLegal = (envelope.legal || []).some((a) => JSON.stringify(a) === JSON.stringify(next));
    out.push(h("p", {}, tn("This turn you can score {count} point", best.points), ": ",
      best.actions.map((a) => describeStep(envelope, a)).join(" → ")));
    if (isLegal) {
      out.push(h("button", { type: "button", class: "act", onclick: () => ctx.submit(next) },
        t("Do the next step: {step}", { step: describeStep(envelope, next) })));
    }
  }
  for (const card of data.cards || []) {
    if (card.fewest_actions === null || card.fewest_actions === undefined) continue;
    out.push(h("p", { class: "muted" }, label("card", card.card, envelope), ": ",
      card.fewest_actions === 0 ? t("scores now") : tn("{count} move away", card.fewest_actions)));
  }
  return out.length ? out : null;
}

export default {
  cardFields: ["card"],
  label,
  card: (value, ctx) => {
    const card = cardData(ctx.envelope, value);
    return card ? handCard(card) : null;
  },
  render,
  hints,
  composers: {
    shift_stones: movesPanel,
    flip_stone: movesPanel,
    score_card: scorePanel,
  },
};
