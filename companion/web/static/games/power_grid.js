// Power Grid on a phone: your money, plants and stock; the market; bids with − and +; resources per plant with
// their price; cities with the price of each; the firing the companion proposes.

import { stepper } from "../actions.js";
import { formatNumber, h, logText, playerName, t, tn, words } from "../common.js";

const RESOURCE_COLOURS = { coal: "#7a5230", oil: "#222222", garbage: "#d9b310", uranium: "#d62728" };

function you(envelope) {
  return (envelope.view && envelope.view.you) || {};
}

function myRecord(envelope) {
  return ((envelope.view && envelope.view.players) || []).find((p) => p.seat === envelope.seat) || null;
}

function allPlants(view) {
  const market = view.market || {};
  const out = [...(market.current || []), ...(market.future || [])];
  for (const p of view.players || []) out.push(...(p.plants || []));
  if (view.auction && view.auction.plant) out.push(view.auction.plant);
  return out;
}

function plantInfo(view, number) {
  return allPlants(view).find((p) => p.plant === number) || null;
}

function resourceName(r) {
  return words(r);
}

function plantCard(plant, extra) {
  if (!plant) return null;
  const burns = plant.burns && plant.burns.length ? plant.burns.map(resourceName).join("/") : t("green energy");
  const stock = plant.stock ? Object.entries(plant.stock).filter(([, n]) => n).map(([r, n]) => `${n} ${resourceName(r)}`).join(", ") : "";
  return h("span", { class: `plant kind-${plant.kind}` },
    h("b", {}, formatNumber(plant.plant)),
    h("small", {}, plant.input ? `${formatNumber(plant.input)} ${burns}` : burns, " → ", tn("{count} city", plant.cities)),
    stock ? h("small", { class: "stock" }, stock) : null,
    extra ? h("small", {}, extra) : null);
}

/** The price of the n cheapest tokens of a resource (the market fills from its most expensive space down). */
export function resourceCost(view, resource, n) {
  const market = (view.resources || {})[resource];
  if (!market || !market.spaces) return null;
  const slots = [];
  for (const [price, room] of market.spaces) for (let i = 0; i < room; i += 1) slots.push(price);
  slots.sort((a, b) => a - b);
  const available = slots.slice(slots.length - market.on_market);
  if (n > available.length) return null;
  return available.slice(0, n).reduce((a, b) => a + b, 0);
}

// -- the table part --------------------------------------------------------------------------------
function render(envelope, ctx) {
  const view = envelope.view;
  const parts = [];
  const mine = myRecord(envelope);
  if (mine) {
    const money = you(envelope).money;
    parts.push(h("section", { class: "pg-me" },
      h("h2", {}, t("You"), " ", h("small", {}, money !== undefined ? t("{money} Elektro", { money }) : "")),
      h("p", {}, [tn("{count} city", mine.cities), t("powers {n}", { n: mine.capacity }),
        tn("{count} house left", mine.houses_left)].join(" · ")),
      h("div", { class: "cards" }, (mine.plants || []).map((p) => h("div", { class: "card idle" }, plantCard(p))))));
  }
  parts.push(h("p", { class: "phase" }, t("Round {round} · step {step} · {phase}", {
    round: view.round, step: view.step, phase: words(view.phase || ""),
  })));
  if (view.auction && view.auction.plant) {
    const a = view.auction;
    parts.push(h("section", { class: "pg-auction" }, h("h2", {}, t("Auction")), h("div", { class: "card idle" }, plantCard(a.plant)),
      h("p", {}, t("{price} Elektro, bid by {leader}", { price: a.price, leader: playerName(envelope, a.leader) })),
      h("p", { class: "muted" }, t("Still bidding: {names}", { names: (a.active || []).map((s) => playerName(envelope, s)).join(", ") }))));
  }
  const market = view.market || {};
  parts.push(h("section", { class: "pg-market" }, h("h2", {}, t("Power plant market")),
    h("div", { class: "cards" }, (market.current || []).map((p) => h("div", { class: "card idle" }, plantCard(p)))),
    (market.future || []).length
      ? h("div", { class: "cards future" }, (market.future || []).map((p) => h("div", { class: "card idle" }, plantCard(p)))) : null,
    h("p", { class: "muted" }, t("Deck: {count}", { count: (view.deck || {}).size })),
  ));
  const resources = view.resources || {};
  parts.push(h("section", { class: "pg-resources" }, h("h2", {}, t("Resources")), h("div", { class: "chips" },
    Object.entries(resources).map(([r, m]) => h("span", { class: "chip", style: { "--c": RESOURCE_COLOURS[r] || "#888" } },
      `${resourceName(r)}: ${formatNumber(m.on_market)}`, m.cheapest ? h("small", {}, " ", t("from {price}", { price: m.cheapest })) : null)))));
  parts.push(h("section", {}, h("h2", {}, t("Players")), h("table", { class: "players" },
    h("thead", {}, h("tr", {}, h("th", {}, t("Player")), h("th", {}, t("Cities")), h("th", {}, t("Plants")), h("th", {}, t("Powers")))),
    h("tbody", {}, [...(view.players || [])].sort((a, b) => a.turn_position - b.turn_position).map((p) => h("tr", {
      class: ((envelope.current_seats || []).includes(p.seat) ? "current" : "") + (p.seat === envelope.seat ? " me" : ""),
    }, h("th", { scope: "row" }, h("span", { class: "dot", style: { "--c": (envelope.players[p.seat] || {}).colour } }), playerName(envelope, p.seat),
      p.money !== undefined ? h("small", {}, ` ${formatNumber(p.money)}`) : null),
    h("td", {}, formatNumber(p.cities)), h("td", {}, (p.plants || []).map((x) => x.plant).join(", ")), h("td", {}, formatNumber(p.capacity))))))));
  if ((view.instructions || []).length) {
    parts.push(h("section", {}, h("h2", {}, t("At the table")), h("ul", {}, view.instructions.map((i) => h("li", {}, typeof i === "string" ? t(i) : logText(envelope, i))))));
  }
  return parts;
}

// -- actions -------------------------------------------------------------------------------------------
function label(field, value, envelope) {
  if (field === "plant" || field === "from_plant" || field === "to_plant") return t("plant {n}", { n: value });
  if (field === "plants") return value.length ? value.map((n) => formatNumber(n)).join(" + ") : t("none");
  if (field === "city") {
    const price = (envelope.hints && envelope.hints.city_prices || {})[value];
    return price !== undefined ? `${words(value)} · ${formatNumber(price)}` : words(value);
  }
  if (field === "regions") return value.map((r) => words(r)).join(", ");
  if (field === "resource") return resourceName(value);
  return undefined;
}

function money(envelope) {
  const m = you(envelope).money;
  return Number.isInteger(m) ? m : 9999;
}

function bidComposer(group, ctx) {
  const amounts = group.actions.map((a) => a.amount);
  const min = Math.min(...amounts);
  const max = Math.max(min, money(ctx.envelope));
  let amount = min;
  const go = h("button", { type: "button", class: "act primary" });
  const refresh = () => {
    go.textContent = t("Bid {amount}", { amount: formatNumber(amount) });
  };
  go.addEventListener("click", () => ctx.submit({ seat: ctx.envelope.seat, action: "bid", amount }));
  refresh();
  return [h("h3", {}, t("Bid")), stepper({ label: t("Elektro"), min, max, value: amount, onChange: (v) => {
    amount = v;
    refresh();
  } }), go];
}

function openComposer(group, ctx) {
  const plants = [...new Set(group.actions.map((a) => a.plant))];
  const view = ctx.envelope.view;
  const chosen = plants.includes(ctx.selection) ? ctx.selection : null;
  const out = [h("h3", {}, t("Open an auction: choose a plant")), h("div", { class: "cards" }, plants.map((n) =>
    h("button", { type: "button", class: "card" + (n === chosen ? " selected" : ""), "aria-pressed": n === chosen ? "true" : "false",
      onclick: () => ctx.select(n === chosen ? undefined : n) }, plantCard(plantInfo(view, n)))))];
  if (chosen !== null) {
    const min = Math.min(...group.actions.filter((a) => a.plant === chosen).map((a) => a.bid));
    let bid = min;
    const go = h("button", { type: "button", class: "act primary" });
    const refresh = () => {
      go.textContent = t("Open plant {plant} at {bid}", { plant: chosen, bid: formatNumber(bid) });
    };
    go.addEventListener("click", () => ctx.submit({ seat: ctx.envelope.seat, action: "open_auction", plant: chosen, bid }));
    refresh();
    out.push(stepper({ label: t("Opening bid"), min, max: Math.max(min, money(ctx.envelope)), value: bid, onChange: (v) => {
      bid = v;
      refresh();
    } }), go);
  }
  return out;
}

function buyComposer(group, ctx) {
  const view = ctx.envelope.view;
  const rows = new Map();
  for (const a of group.actions) {
    const key = `${a.plant}:${a.resource}`;
    if (!rows.has(key)) rows.set(key, { plant: a.plant, resource: a.resource, max: 0 });
    rows.get(key).max = Math.max(rows.get(key).max, a.count);
  }
  return [h("h3", {}, t("Buy resources for each plant")), [...rows.values()].map((row) => {
    let count = 1;
    const go = h("button", { type: "button", class: "act primary" });
    const refresh = () => {
      const cost = resourceCost(view, row.resource, count);
      go.textContent = cost === null
        ? t("Buy {count} {resource}", { count, resource: resourceName(row.resource) })
        : t("Buy {count} {resource} for {cost}", { count, resource: resourceName(row.resource), cost: formatNumber(cost) });
    };
    go.addEventListener("click", () => ctx.submit({ seat: ctx.envelope.seat, action: "buy_resources", plant: row.plant, resource: row.resource, count }));
    refresh();
    return h("div", { class: "buy-row" }, plantCard(plantInfo(view, row.plant)),
      stepper({ label: resourceName(row.resource), min: 1, max: row.max, value: 1, onChange: (v) => {
        count = v;
        refresh();
      } }), go);
  })];
}

function buildComposer(group, ctx) {
  const prices = (ctx.envelope.hints && ctx.envelope.hints.city_prices) || {};
  const cities = group.actions.map((a) => a.city).sort((a, b) => (prices[a] ?? 999) - (prices[b] ?? 999) || a.localeCompare(b));
  return [h("h3", {}, t("Build in a city (price with connections)")), h("div", { class: "choices" }, cities.map((city) =>
    h("button", { type: "button", class: "act", onclick: () => ctx.submit({ seat: ctx.envelope.seat, action: "build_city", city }) },
      words(city), prices[city] !== undefined ? h("small", {}, ` ${formatNumber(prices[city])}`) : null)))];
}

function fireComposer(group, ctx) {
  const proposal = ctx.envelope.hints && ctx.envelope.hints.firing;
  const sameAs = (a) => proposal && JSON.stringify(a.plants) === JSON.stringify(proposal.plants) && a.hybrid_coal === proposal.hybrid_coal;
  const sorted = [...group.actions].sort((a, b) => (sameAs(b) ? 1 : 0) - (sameAs(a) ? 1 : 0));
  return [h("h3", {}, t("Fire your plants")), sorted.map((a) => h("button", {
    type: "button", class: "act" + (sameAs(a) ? " primary" : ""), onclick: () => ctx.submit(a),
  }, a.plants.length ? t("Fire {plants}", { plants: a.plants.join(" + ") }) : t("Fire nothing"),
  a.hybrid_coal ? h("small", {}, " ", t("({coal} coal in hybrids)", { coal: a.hybrid_coal })) : null,
  sameAs(a) ? h("small", {}, " ", t("powers {n}, earns {income}", { n: proposal.powered, income: proposal.income })) : null))];
}

function hints(data, ctx) {
  const out = [];
  for (const plant of data.max_bid || []) {
    const ways = (plant.by_cities || []).filter((x) => x.max_bid !== null);
    out.push(h("p", {}, t("Plant {plant}: from {min}", { plant: plant.plant, min: plant.min_bid }),
      ways.length ? h("small", {}, " · ", t("most you can bid and still build"), " ",
        ways.map((x) => `${tn("{count} city", x.cities)} → ${formatNumber(x.max_bid)}`).join(", ")) : null));
  }
  for (const set of data.build_sets || []) {
    out.push(h("p", {}, tn("{count} city for {total}: {cities}", set.k, { total: set.total, cities: set.cities.map(words).join(", ") })));
  }
  if (data.firing) {
    const f = data.firing;
    out.push(h("p", {}, t("Best firing: {plants}, powers {n}, earns {income}", {
      plants: (f.plants || []).join(" + ") || t("none"), n: f.powered, income: f.income,
    })));
  }
  return out.length ? out : null;
}

export default {
  cardFields: ["plant"],
  label,
  card: (value, ctx) => plantCard(plantInfo(ctx.envelope.view, value)) || null,
  render,
  hints,
  composers: {
    bid: bidComposer,
    open_auction: openComposer,
    buy_resources: buyComposer,
    build_city: buildComposer,
    fire: fireComposer,
  },
};
