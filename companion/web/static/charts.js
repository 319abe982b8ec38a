// Small SVG charts for the end-of-game summary: a line per player by round, bars for the final scores.

import { formatNumber, h, t } from "./common.js";

const SVG = "http://www.w3.org/2000/svg";
// Each player's line also has its own dash pattern, so the chart reads without telling colours apart.
const DASHES = ["", "8 4", "2 4", "10 3 2 3", "6 6", "1 3", "12 2"];

function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value !== null && value !== undefined && value !== false) el.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/**
 * One series by round as a line chart: `values[i]` is player i's list by round; `players` give names and colours.
 * A table of the same numbers follows for screen readers and for reading exact values.
 */
export function lineChart(title, players, values) {
  const rounds = Math.max(0, ...values.map((v) => v.length));
  // An even top keeps the middle grid line on a whole number (no "0, 1, 1" axis for small counts).
  const top = 2 * Math.ceil(Math.max(1, ...values.flat().filter(Number.isFinite)) / 2);
  const W = 320;
  const H = 170;
  const left = 34;
  const bottom = 22;
  const x = (i) => left + (rounds <= 1 ? 0 : (i * (W - left - 8)) / (rounds - 1));
  const y = (v) => 8 + (H - bottom - 8) * (1 - v / top);
  const grid = [0, top / 2, top].map((v) => [
    s("line", { x1: left, x2: W - 4, y1: y(v), y2: y(v), class: "grid" }),
    s("text", { x: left - 4, y: y(v) + 4, "text-anchor": "end", class: "tick" }, formatNumber(Math.round(v))),
  ]);
  const ticks = [];
  for (let i = 0; i < rounds; i += Math.max(1, Math.ceil(rounds / 8))) {
    ticks.push(s("text", { x: x(i), y: H - 6, "text-anchor": "middle", class: "tick" }, formatNumber(i + 1)));
  }
  const lines = values.map((series, i) => s("polyline", {
    points: series.map((v, k) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(" "),
    fill: "none", stroke: players[i] ? players[i].colour : "#888", "stroke-width": 3,
    "stroke-dasharray": DASHES[i % DASHES.length] || null, "stroke-linejoin": "round",
  }));
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": title, class: "chart" }, grid, ticks, lines);
  const legend = h("ul", { class: "legend" }, players.map((p, i) => h("li", {},
    h("span", { class: "swatch", dataset: { dash: String(i % DASHES.length) }, style: { "--c": p.colour } }), h("bdi", {}, p.name))));
  const table = h("table", { class: "chart-table" },
    h("thead", {}, h("tr", {}, h("th", {}, t("Round")), players.map((p) => h("th", {}, h("bdi", {}, p.name))))),
    h("tbody", {}, Array.from({ length: rounds }, (_, r) => h("tr", {}, h("th", {}, formatNumber(r + 1)),
      values.map((series) => h("td", {}, series[r] === undefined ? "–" : formatNumber(series[r])))))));
  return h("figure", { class: "chart-box" }, h("figcaption", {}, title), svg, legend,
    h("details", {}, h("summary", {}, t("Numbers")), table));
}

/** Final scores as horizontal bars, best first, each with the tie-break words beside it. */
export function scoreBars(rows) {
  const top = Math.max(1, ...rows.map((r) => Number(r.score) || 0));
  return h("ol", { class: "score-bars" }, rows.map((r) => h("li", { class: r.winner ? "winner" : "" },
    h("span", { class: "who" }, h("span", { class: "disc", style: { "--c": r.colour } }, formatNumber(r.number)), h("bdi", {}, r.name),
      r.winner ? h("strong", { class: "wins" }, t("wins")) : null),
    h("span", { class: "bar", style: { "--w": `${Math.max(2, (100 * (Number(r.score) || 0)) / top)}%`, "--c": r.colour } }),
    h("span", { class: "score" }, formatNumber(r.score)),
    r.tie_break ? h("small", { class: "tie" }, r.tie_break) : null)));
}
