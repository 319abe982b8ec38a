// The generic view: the players' table, the hand as cards, and every other fact of the game's view.

import { cardButton, isCardField, valueLabel } from "./actions.js";
import { formatNumber, h, logText, t, tn, words } from "./common.js";

// Keys the envelope or the page already shows elsewhere.
const SHOWN_ELSEWHERE = new Set(["hand", "players", "current_seats", "over", "phase", "turn"]);

/** Values a seat may tap as cards now: card-field values of its legal actions. */
export function tappableCards(envelope, cardFields) {
  const out = new Map();
  for (const action of envelope.legal || []) {
    for (const [field, value] of Object.entries(action)) {
      if (field === "seat" || field === "action" || !isCardField(field, cardFields)) continue;
      out.set(JSON.stringify(value), value);
    }
  }
  return out;
}

/** The hand as cards; the ones an action can use are tappable, the selected one raised. */
export function handSection(envelope, ctx, hand) {
  const cardFields = ctx.renderer && ctx.renderer.cardFields;
  const usable = tappableCards(envelope, cardFields);
  const cards = (hand || []).map((value) => {
    const key = JSON.stringify(value);
    if (usable.has(key)) return cardButton(ctx, "card", value, key === JSON.stringify(ctx.selection));
    const face = ctx.renderer && ctx.renderer.card ? ctx.renderer.card(value, ctx) : null;
    return h("div", { class: "card idle", dataset: { card: key } }, face || valueLabel(ctx, "card", value));
  });
  return h("section", { class: "hand", "aria-label": t("Your hand") },
    h("h2", {}, t("Your hand"), " ", h("small", {}, tn("{count} card", cards.length))),
    cards.length ? h("div", { class: "cards" }, cards) : h("p", { class: "muted" }, t("No cards")));
}

/** Per-seat facts as one table: lists as long as the players, and the view's own per-player records. */
export function playersTable(envelope, ctx) {
  const view = envelope.view || {};
  const players = envelope.players || [];
  const columns = [];
  for (const [key, value] of Object.entries(view)) {
    if (SHOWN_ELSEWHERE.has(key)) continue;
    if (Array.isArray(value) && value.length === players.length && players.length > 1 &&
        value.every((v) => v === null || ["number", "string", "boolean"].includes(typeof v))) {
      columns.push([key, (seat) => value[seat]]);
    }
  }
  if (Array.isArray(view.players)) {
    const keys = new Set();
    for (const record of view.players) {
      if (record && typeof record === "object") {
        for (const [k, v] of Object.entries(record)) {
          if (k !== "seat" && k !== "name" && k !== "colour" && (v === null || typeof v !== "object")) keys.add(k);
        }
      }
    }
    for (const key of keys) {
      columns.push([key, (seat) => {
        const record = view.players.find((r, i) => (r && r.seat !== undefined ? r.seat === seat : i === seat));
        return record ? record[key] : undefined;
      }]);
    }
  }
  const current = new Set(envelope.current_seats || []);
  const head = h("tr", {}, h("th", { scope: "col" }, t("Player")), columns.map(([k]) => h("th", { scope: "col" }, words(k))));
  const rows = players.map((p) => h("tr", { class: (current.has(p.seat) ? "current" : "") + (p.seat === envelope.seat ? " me" : "") },
    h("th", { scope: "row" }, h("span", { class: "dot", style: { "--c": p.colour } }), h("bdi", {}, p.name),
      p.seat === envelope.seat ? h("small", {}, " ", t("(you)")) : null),
    columns.map(([key, get]) => h("td", {}, display(ctx, key, get(p.seat))))));
  return { table: h("table", { class: "players" }, h("thead", {}, head), h("tbody", {}, rows)), used: new Set(columns.map(([k]) => k)) };
}

function display(ctx, key, value) {
  if (value === undefined || value === null) return "–";
  return valueLabel(ctx, key, value);
}

/** Everything else in the view, as labelled facts (nested records become nested lists). */
export function factsList(ctx, view, skip, depth = 0) {
  const items = [];
  for (const [key, value] of Object.entries(view || {})) {
    if (skip.has(key)) continue;
    if (value && typeof value === "object" && !Array.isArray(value)) {
      if (depth < 2) items.push(h("div", { class: "fact nested" }, h("dt", {}, words(key)), h("dd", {}, factsList(ctx, value, new Set(), depth + 1))));
      continue;
    }
    if (Array.isArray(value) && value.some((v) => v && typeof v === "object")) {
      if (depth < 2) {
        items.push(h("div", { class: "fact nested" }, h("dt", {}, words(key)), h("dd", {},
          value.map((v) => (v && typeof v === "object" ? factsList(ctx, v, new Set(), depth + 1) : display(ctx, key, v))))));
      }
      continue;
    }
    items.push(h("div", { class: "fact" }, h("dt", {}, words(key)), h("dd", {}, display(ctx, key, value))));
  }
  return h("dl", { class: "facts" }, items);
}

/** The whole generic view of a seat (or of the public table when envelope.seat is null). */
export function renderGeneric(envelope, ctx) {
  const view = envelope.view || {};
  const parts = [];
  if (Array.isArray(view.hand)) parts.push(handSection(envelope, ctx, view.hand));
  const { table, used } = playersTable(envelope, ctx);
  parts.push(h("section", { class: "table-part" }, table));
  const skip = new Set([...SHOWN_ELSEWHERE, ...used, "scores"]);
  parts.push(h("section", { class: "facts-part" }, factsList(ctx, view, skip)));
  return parts;
}

/** The last few ticker lines, newest first. */
export function tickerList(envelope, count) {
  const entries = (envelope.log || []).slice(-count).reverse();
  return h("ol", { class: "ticker", "aria-label": t("What happened") }, entries.map((e) => h("li", {}, logText(envelope, e))));
}

/**
 * The players in rank order: winners first, then by score, then by the game's own tie-breaks (the other per-player
 * lists of the scores, in the order the game gives them: Power Grid's money and cities, Bohnanza's hand sizes).
 */
export function ranking(envelope) {
  const scores = envelope.scores || {};
  const winners = new Set(scores.winners || []);
  const list = Array.isArray(scores.scores) ? scores.scores : [];
  const players = envelope.players || [];
  const breaks = Object.entries(scores).filter(([k, v]) => k !== "scores" && k !== "winners" && Array.isArray(v) &&
    v.length === players.length && v.every((x) => typeof x === "number")).map(([, v]) => v);
  const key = (seat) => [winners.has(seat) ? 1 : 0, list[seat] ?? -Infinity, ...breaks.map((b) => b[seat])];
  const order = [...players].sort((a, b) => {
    const ka = key(a.seat);
    const kb = key(b.seat);
    for (let i = 0; i < ka.length; i += 1) if (ka[i] !== kb[i]) return kb[i] - ka[i];
    return a.seat - b.seat;
  });
  let rank = 0;
  let previous = null;
  return order.map((p, i) => {
    const k = JSON.stringify(key(p.seat));
    if (k !== previous) rank = i + 1;
    previous = k;
    return { player: p, rank, score: list[p.seat], winner: winners.has(p.seat) };
  });
}

/** Final scores in rank order with names, when the game is over. */
export function scoresSection(envelope) {
  return h("section", { class: "scores" }, h("h2", {}, t("Final scores")),
    h("ol", { class: "ranking" }, ranking(envelope).map((r) => h("li", { class: r.winner ? "winner" : "", dataset: { seat: String(r.player.seat) } },
      h("span", { class: "rank" }, formatNumber(r.rank), "."), " ",
      h("span", { class: "dot", style: { "--c": r.player.colour } }), h("bdi", {}, r.player.name), ": ",
      r.score !== undefined ? display({ envelope }, "score", r.score) : "–",
      r.winner ? h("strong", {}, " ", t("wins")) : null))));
}
