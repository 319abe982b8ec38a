// Power Grid on a phone: your money, plants and stock; the map (tap a city: its price, then build); the cheapest
// plans as one-confirm builds; the auction with the bid, whose turn and the most you can pay while still fuelling
// your plants; resources per plant with the price of each next unit; the firing the companion proposes.

import { stepper } from "../actions.js";
import { formatNumber, h, logText, playerName, setArgWords, t, tn, words } from "../common.js";
import { look, pic, picName } from "../look.js";

/** Draw the page again (the phone page's redraw; the host page redraws when a selection is set). */
function redraw(ctx) {
  if (ctx.redraw) ctx.redraw();
  else if (ctx.select) ctx.select(ctx.selection);
}

const SVG = "http://www.w3.org/2000/svg";
// The printed regions' colours, light enough for dark names and houses on them.
const REGION_FILL = {
  green: "#8fd18f", brown: "#d2a679", red: "#f08a8a", yellow: "#f2dc6b", blue: "#8fb4ef", purple: "#c9a3e6",
  cyan: "#86d6e3", orange: "#f5b06b",
};

// The city tapped on the map, and a build plan being carried out one city after another.
let chosenCity = null;
let plan = null;
let planAsk = null;
// Why the last plan stopped, where the page has no feedback line of its own (the host page).
let planNote = null;

const PHASES = {
  regions: () => t("Choosing regions"), auction: () => t("Auction"), auction_close: () => t("Auction"),
  resources: () => t("Buying resources"), building: () => t("Building"), bureaucracy: () => t("Bureaucracy"),
  round_end: () => t("Bureaucracy"), over: () => t("Game over"),
};

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
  return picName("resource", r);
}

function mapOf(envelope) {
  const view = envelope.view || {};
  return ((look().maps || {})[view.map]) || null;
}

/** A city's name as printed on the board ("Köln", "Frankfurt-M"), never its id. */
function cityName(envelope, id) {
  const board = mapOf(envelope);
  const city = board ? board.cities.find((c) => c.id === id) : null;
  return city ? city.name : words(id);
}

function regionName(envelope, id) {
  const board = mapOf(envelope);
  const region = board ? board.regions.find((r) => r.id === id) : null;
  return region ? t(region.name) : words(id);
}

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined && v !== false) el.setAttribute(k, String(v));
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

function plantCard(plant, extra) {
  if (!plant) return null;
  const burns = plant.burns && plant.burns.length ? plant.burns.map(resourceName).join("/") : t("green energy");
  const stock = plant.stock ? Object.entries(plant.stock).filter(([, n]) => n).map(([r, n]) => `${formatNumber(n)} ${resourceName(r)}`).join(", ") : "";
  // Only real plants have a pictogram; the Step 3 card (kind "step3") in the market has none.
  const named = plant.kind === "fusion" ? "ecological" : plant.kind;
  const kind = ["coal", "oil", "hybrid", "garbage", "uranium", "ecological"].includes(named) ? named : null;
  return h("span", { class: `plant kind-${plant.kind}` },
    h("b", {}, formatNumber(plant.plant), kind ? [" ", pic("plant", kind, { label: false })] : null),
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

// -- the map ----------------------------------------------------------------------------------------------
function buildAction(envelope, city) {
  return (envelope.legal || []).find((a) => a.action === "build_city" && a.city === city) || null;
}

function cityPrice(envelope, city) {
  const prices = (envelope.hints && envelope.hints.city_prices) || {};
  return prices[city];
}

// On-screen room every city gets on the zoomed map: a thumb's tap target (44 CSS px) with a little to spare, so
// no two cities' targets overlap even in the crowded Ruhr.
const CITY_ROOM = 48;
// The map is zoomed (cities a thumb apart, panned with a finger) or whole (to find your way; a tap zooms there).
// Where the zoomed map was panned to is kept across redraws; `key` forgets it when another map is shown.
const mapView = { zoomed: true, left: null, top: null, centre: null, key: null };

/** How much the map must be enlarged so that the cities in play sit at least CITY_ROOM px apart. */
function zoomFor(points) {
  let nearest = Infinity;
  for (let i = 0; i < points.length; i += 1) {
    for (let j = i + 1; j < points.length; j += 1) {
      nearest = Math.min(nearest, Math.hypot(points[i][0] - points[j][0], points[i][1] - points[j][1]));
    }
  }
  return Number.isFinite(nearest) && nearest > 0 ? Math.max(1, CITY_ROOM / nearest) : 1;
}

/** The board drawn from the map data: regions, connections with their costs, cities, houses in player colours. */
function mapSection(envelope, ctx) {
  const board = mapOf(envelope);
  if (!board) return null;
  const view = envelope.view || {};
  if (mapView.key !== board.id) Object.assign(mapView, { zoomed: true, left: null, top: null, centre: null, key: board.id });
  const inPlay = new Set(view.regions || []);
  const playing = (city) => !inPlay.size || inPlay.has(city.region);
  const regionColour = Object.fromEntries(board.regions.map((r) => [r.id, REGION_FILL[r.colour] || "#cccccc"]));
  const W = 340;
  const H = Math.round(W * (board.aspect || 1));
  // Room for the names of the cities at the edges.
  const [padX, padY] = [30, 14];
  const base = (c) => [padX + c.x * (W - 2 * padX), padY + c.y * (H - 2 * padY - 8)];
  const zoom = zoomFor(board.cities.filter(playing).map(base));
  const scale = mapView.zoomed ? zoom : 1;
  const at = (c) => base(c).map((v) => v * scale);
  const byId = Object.fromEntries(board.cities.map((c) => [c.id, c]));
  const houses = view.cities || {};
  const colourOf = (seat) => ((envelope.players || [])[seat] || {}).colour || "#888";
  const mine = new Set(((view.players || []).find((p) => p.seat === envelope.seat) || {}).network || []);
  const lines = board.connections.map(([a, b, cost]) => {
    const [x1, y1] = at(byId[a]);
    const [x2, y2] = at(byId[b]);
    const live = playing(byId[a]) && playing(byId[b]);
    const near = chosenCity && (a === chosenCity || b === chosenCity);
    return svg("g", { class: "link" + (live ? "" : " off") + (near ? " near" : "") },
      svg("line", { x1, y1, x2, y2 }),
      live && cost ? svg("text", { x: (x1 + x2) / 2, y: (y1 + y2) / 2 + 3, class: "cost" }, formatNumber(cost)) : null);
  });
  const cities = board.cities.map((c) => {
    const [x, y] = at(c);
    const live = playing(c);
    const here = houses[c.id] || [];
    const buildable = Boolean(buildAction(envelope, c.id));
    return svg("g", { class: "city" + (live ? "" : " off") + (buildable ? " buildable" : "") + (c.id === chosenCity ? " chosen" : "") + (mine.has(c.id) ? " mine" : ""),
      "data-city": c.id },
    // The thumb's target: an invisible circle CITY_ROOM - 4 px across around the dot, on the zoomed map only.
    mapView.zoomed && live ? svg("circle", { cx: x, cy: y, r: (CITY_ROOM - 4) / 2, class: "hit" }) : null,
    svg("circle", { cx: x, cy: y, r: 7, fill: live ? regionColour[c.region] : "#d9d9d9", class: "dot" }),
    here.map((seat, k) => svg("rect", { x: x - 9 + k * 6, y: y - 3, width: 6, height: 6, fill: colourOf(seat), class: "house" })),
    live ? svg("text", { x, y: y + 16, class: "name" }, c.name) : null);
  });
  const [w, hgt] = [Math.round(W * scale), Math.round(H * scale)];
  const drawing = svg("svg", { viewBox: `0 0 ${w} ${hgt}`, class: "pg-map-svg" + (mapView.zoomed ? " zoomed" : ""), role: "img",
    width: mapView.zoomed ? w : null, height: mapView.zoomed ? hgt : null,
    "aria-label": t("Map of {map}: tap a city to see its price", { map: t(board.title) }) }, lines, cities);
  // The zoomed window scrolls, so it takes the keyboard's focus too (the arrow keys pan it).
  const pan = h("div", mapView.zoomed ? { class: "pg-map-pan zoomed", tabindex: "0", role: "region", "aria-label": t("The map") }
    : { class: "pg-map-pan" }, drawing);
  if (mapView.zoomed) {
    drawing.addEventListener("click", (event) => {
      const target = event.target instanceof Element ? event.target.closest("g.city:not(.off)") : null;
      if (!target) return;
      chosenCity = target.dataset.city;
      redraw(ctx);
    });
    pan.addEventListener("scroll", () => {
      mapView.left = pan.scrollLeft;
      mapView.top = pan.scrollTop;
    }, { passive: true });
    // Once on the page: back to where the player left it, else centred on what matters to them now.
    requestAnimationFrame(() => {
      if (mapView.left === null) {
        let [cx, cy] = mapView.centre || [null, null];
        if (cx === null) {
          const focus = [chosenCity, ...mine].filter(Boolean).map((id) => byId[id]).filter(Boolean);
          const buildable = board.cities.filter((c) => buildAction(envelope, c.id));
          const pool = [focus, buildable, board.cities.filter(playing), board.cities].find((list) => list.length);
          const points = pool.map(at);
          cx = points.reduce((sum, p) => sum + p[0], 0) / points.length;
          cy = points.reduce((sum, p) => sum + p[1], 0) / points.length;
        }
        mapView.centre = null;
        mapView.left = Math.max(0, cx - pan.clientWidth / 2);
        mapView.top = Math.max(0, cy - pan.clientHeight / 2);
      }
      pan.scrollLeft = mapView.left;
      pan.scrollTop = mapView.top;
    });
  } else {
    // The whole map is for finding your way: a tap zooms in around the place tapped.
    drawing.addEventListener("click", (event) => {
      const box = drawing.getBoundingClientRect();
      const px = ((event.clientX - box.left) / box.width) * W * zoom;
      const py = ((event.clientY - box.top) / box.height) * H * zoom;
      Object.assign(mapView, { zoomed: true, left: null, top: null, centre: [px, py] });
      redraw(ctx);
    });
  }
  const toggle = zoom > 1 ? h("button", { type: "button", class: "act map-zoom", "aria-pressed": mapView.zoomed ? "true" : "false",
    onclick: () => {
      Object.assign(mapView, { zoomed: !mapView.zoomed, left: null, top: null, centre: null });
      redraw(ctx);
    } }, mapView.zoomed ? t("Show the whole map") : t("Zoom in")) : null;
  const legend = h("p", { class: "pg-legend" }, (envelope.players || []).map((p) => h("span", { class: "who" },
    h("span", { class: "house-key", style: { "--c": p.colour } }), p.name)));
  return h("section", { class: "pg-map" }, h("div", { class: "map-head" }, h("h2", {}, t("The map")), toggle),
    planNote ? h("p", { class: "warn plan-note", role: "alert" }, planNote) : null,
    mapView.zoomed ? null : h("p", { class: "muted map-hint" }, t("Tap a part of the map to zoom in there.")),
    pan, legend, cityPanel(envelope, ctx));
}

/** The tapped city: its price for you, who is there, and the button that builds it. */
function cityPanel(envelope, ctx) {
  if (!chosenCity) return null;
  const view = envelope.view || {};
  const here = (view.cities || {})[chosenCity] || [];
  const price = cityPrice(envelope, chosenCity);
  const action = buildAction(envelope, chosenCity);
  return h("div", { class: "city-panel", role: "region", "aria-label": cityName(envelope, chosenCity) },
    h("h3", {}, cityName(envelope, chosenCity)),
    h("p", {}, here.length ? t("Houses: {names}", { names: here.map((s) => playerName(envelope, s)).join(", ") }) : t("No houses yet"),
      price !== undefined ? [" · ", h("b", {}, t("{price} Elektro for you", { price }))] : null),
    action ? h("button", { type: "button", class: "act primary build-here", onclick: () => {
      chosenCity = null;
      ctx.submit(action);
    } }, t("Build in {city} for {price} Elektro", { city: cityName(envelope, chosenCity), price: price ?? "?" })) : null);
}

// -- build plans: one confirm builds the cities of a plan in their best order ----------------------------------
/** Tell the player why a plan stopped: the phone's feedback line, or a note under the map where there is none. */
function planStopped(ctx, text) {
  plan = null;
  planAsk = null;
  if (ctx.notify) ctx.notify(text, "error");
  else planNote = text;
  redraw(ctx);
}

function myMoney(envelope) {
  const m = you(envelope).money;
  return Number.isInteger(m) ? m : null;
}

/** Why `city` cannot be built next (a sentence naming it), or null when it can. */
function cityProblem(envelope, city) {
  const name = cityName(envelope, city);
  if (!(envelope.legal || []).some((a) => a.action === "build_city")) {
    return t("The plan stopped before {city}: it is no longer your turn to build.", { city: name });
  }
  if (buildAction(envelope, city)) return null;
  const price = cityPrice(envelope, city);
  const money = myMoney(envelope);
  if (price !== undefined && money !== null && price > money) {
    return t("The plan stopped before {city}: it costs {price} Elektro and you have {money}.", { city: name, price, money });
  }
  return t("The plan stopped before {city}: it is no longer open to you.", { city: name });
}

/** Before anything is built: a plan shown earlier must still fit the game as it is now (money, turn, cities). */
function planProblem(envelope, set) {
  const built = ((envelope.view || {}).cities) || {};
  const todo = set.cities.map((c, i) => [c, set.prices[i]]).filter(([c]) => !(built[c] || []).includes(envelope.seat));
  if (!todo.length) return null;
  const first = cityProblem(envelope, todo[0][0]);
  if (first) return first;
  const money = myMoney(envelope);
  let total = 0;
  for (const [city, shownPrice] of todo) {
    const price = cityPrice(envelope, city) ?? shownPrice;
    if (price === undefined) {
      return t("This plan can no longer be built: {city} is no longer open to you.", { city: cityName(envelope, city) });
    }
    total += price;
    if (money !== null && total > money) {
      return t("This plan can no longer be built: {city} would bring it to {total} Elektro and you have {money}.", {
        city: cityName(envelope, city), total, money });
    }
  }
  return null;
}

function carryOnPlan(envelope, ctx) {
  if (!plan || !ctx.submit) return;
  if (plan.state === envelope.state_id) return;
  const next = plan.cities.find((c) => !(((envelope.view || {}).cities || {})[c] || []).includes(envelope.seat));
  if (!next) {
    plan = null;
    return;
  }
  const problem = cityProblem(envelope, next);
  if (problem) {
    setTimeout(() => planStopped(ctx, problem), 0);
    return;
  }
  plan.state = envelope.state_id;
  plan.next = next;
  setTimeout(() => ctx.submit(buildAction(envelope, next)), 0);
}

/** A refused move: a plan being carried out stops there, and the reason names the city it stopped before. */
function refused(envelope, reason) {
  if (!plan || !plan.next) return null;
  const city = plan.next;
  plan = null;
  return t("The plan stopped before {city}: {reason}", { city: cityName(envelope, city), reason });
}

function plansSection(envelope, ctx) {
  // Plans of two to four cities (one city is a tap on the map); the first city of each must be buildable now.
  // The plan being confirmed stays as it was shown, even if the game moves on meanwhile: its check says what changed.
  const fresh = ((envelope.hints || {}).build_sets || []).filter((set) => set.k >= 2 && set.k <= 4 && buildAction(envelope, set.cities[0]));
  const asked = planAsk && !fresh.some((set) => set.cities.join(",") === planAsk.cities.join(",")) ? [planAsk] : [];
  const sets = [...asked, ...fresh];
  if (!sets.length || !(envelope.legal || []).some((a) => a.action === "build_city")) return null;
  return h("div", { class: "plans" }, h("h3", {}, t("Cheapest plans")), sets.map((set) => {
    const key = set.cities.join(",");
    if (planAsk && planAsk.cities.join(",") === key) {
      return h("div", { class: "confirm plan-confirm" },
        h("p", {}, tn("Build {count} city for {total} Elektro: {cities}?", set.k, {
          total: set.total, cities: set.cities.map((c, i) => `${cityName(envelope, c)} (${formatNumber(set.prices[i])})`).join(", "),
        })),
        h("button", { type: "button", class: "act primary plan-go", onclick: () => {
          const problem = planProblem(ctx.envelope, planAsk);
          if (problem) {
            planStopped(ctx, problem);
            return;
          }
          plan = { cities: planAsk.cities, state: null, next: null };
          planAsk = null;
          planNote = null;
          carryOnPlan(ctx.envelope, ctx);
        } }, tn("Build these {count} cities", set.k)),
        h("button", { type: "button", class: "act", onclick: () => {
          planAsk = null;
          redraw(ctx);
        } }, t("Cancel")));
    }
    return h("button", { type: "button", class: "act plan", dataset: { cities: key }, onclick: () => {
      planAsk = set;
      planNote = null;
      redraw(ctx);
    } }, tn("Build these {count} for {total}", set.k, { total: set.total }), h("small", {}, ": ", set.cities.map((c) => cityName(envelope, c)).join(", ")));
  }));
}

/** The auction: the plant, the bid and who holds it, whose turn, and the most you can pay and still fuel. */
function auctionSection(envelope) {
  const view = envelope.view || {};
  const a = view.auction;
  if (!a || !a.plant) return null;
  const turn = (envelope.current_seats || []).filter((s) => Number.isInteger(s)).map((s) => playerName(envelope, s));
  const limit = ((envelope.hints || {}).max_bid || []).find((m) => m.plant === a.plant.plant);
  const fuel = limit ? (limit.by_cities || []).find((r) => r.cities === 0) : null;
  return h("section", { class: "pg-auction" }, h("h2", {}, t("Auction")),
    h("div", { class: "auction-row" }, h("div", { class: "card idle" }, plantCard(a.plant)),
      h("dl", { class: "facts" },
        h("div", { class: "fact" }, h("dt", {}, t("Current bid")), h("dd", {}, t("{price} Elektro, bid by {leader}", { price: a.price, leader: playerName(envelope, a.leader) }))),
        h("div", { class: "fact" }, h("dt", {}, t("Whose turn")), h("dd", {}, turn.join(", ") || "–")),
        h("div", { class: "fact" }, h("dt", {}, t("Still bidding")), h("dd", {}, (a.active || []).map((s) => playerName(envelope, s)).join(", "))),
        fuel ? h("div", { class: "fact" }, h("dt", {}, t("Most you can pay and still fuel your plants")),
          h("dd", {}, fuel.max_bid === null || fuel.max_bid === undefined ? t("not enough money") : t("{money} Elektro", { money: fuel.max_bid }))) : null)));
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
    round: view.round, step: view.step, phase: PHASES[view.phase] ? PHASES[view.phase]() : t("Playing"),
  })));
  parts.push(auctionSection(envelope));
  carryOnPlan(envelope, ctx);
  // A plan waiting for its confirm when the game moved on so far that nothing can be built: say so, not vanish.
  if (planAsk && ctx.submit && !(envelope.legal || []).some((a) => a.action === "build_city")) {
    const problem = planProblem(envelope, planAsk);
    planAsk = null;
    if (problem) setTimeout(() => planStopped(ctx, problem), 0);
  }
  parts.push(mapSection(envelope, ctx));
  const market = view.market || {};
  parts.push(h("section", { class: "pg-market" }, h("h2", {}, t("Power plant market")),
    h("div", { class: "cards" }, (market.current || []).map((p) => h("div", { class: "card idle" }, plantCard(p)))),
    (market.future || []).length
      ? h("div", { class: "cards future" }, (market.future || []).map((p) => h("div", { class: "card idle" }, plantCard(p)))) : null,
    h("p", { class: "muted" }, t("Deck: {count}", { count: (view.deck || {}).size })),
  ));
  const resources = view.resources || {};
  parts.push(h("section", { class: "pg-resources" }, h("h2", {}, t("Resources")), h("div", { class: "chips" },
    Object.entries(resources).map(([r, m]) => h("span", { class: "chip" }, pic("resource", r), `: ${formatNumber(m.on_market)}`, m.cheapest ? h("small", {}, " ", t("from {price}", { price: m.cheapest })) : null)))));
  parts.push(h("section", {}, h("h2", {}, t("Players")), h("table", { class: "players" },
    h("thead", {}, h("tr", {}, h("th", {}, t("Player")), h("th", {}, t("Cities")), h("th", {}, t("Plants")), h("th", {}, t("Powers")))),
    h("tbody", {}, [...(view.players || [])].sort((a, b) => a.turn_position - b.turn_position).map((p) => h("tr", {
      class: ((envelope.current_seats || []).includes(p.seat) ? "current" : "") + (p.seat === envelope.seat ? " me" : ""),
    }, h("th", { scope: "row" }, h("span", { class: "dot", style: { "--c": (envelope.players[p.seat] || {}).colour } }), playerName(envelope, p.seat),
      p.money !== undefined ? h("small", {}, ` ${formatNumber(p.money)}`) : null),
    h("td", {}, formatNumber(p.cities)), h("td", {}, (p.plants || []).map((x) => formatNumber(x.plant)).join(", ")), h("td", {}, formatNumber(p.capacity))))))));
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
    return price !== undefined ? `${cityName(envelope, value)} · ${formatNumber(price)}` : cityName(envelope, value);
  }
  if (field === "regions") return value.map((r) => regionName(envelope, r)).join(", ");
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
  const auction = (ctx.envelope.view || {}).auction || {};
  const limit = ((ctx.envelope.hints || {}).max_bid || []).find((m) => auction.plant && m.plant === auction.plant.plant);
  const fuel = limit ? (limit.by_cities || []).find((r) => r.cities === 0) : null;
  return [h("h3", {}, t("Bid")),
    auction.price !== undefined ? h("p", { class: "bid-now" }, t("{price} Elektro, bid by {leader}", { price: auction.price, leader: playerName(ctx.envelope, auction.leader) })) : null,
    fuel && fuel.max_bid !== null && fuel.max_bid !== undefined ? h("p", { class: "bid-limit" }, t("Most you can pay and still fuel your plants"), ": ", h("b", {}, formatNumber(fuel.max_bid))) : null,
    stepper({ label: t("Elektro"), min, max, value: amount, onChange: (v) => {
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
    const market = (view.resources || {})[row.resource] || {};
    const units = [];
    for (let n = 1; n <= Math.min(row.max, market.on_market || 0); n += 1) {
      const total = resourceCost(view, row.resource, n);
      const before = n > 1 ? resourceCost(view, row.resource, n - 1) : 0;
      if (total !== null && before !== null) units.push(total - before);
    }
    const box = h("div", { class: "buy-row", dataset: { plant: String(row.plant), resource: row.resource } },
      h("div", { class: "buy-head" }, plantCard(plantInfo(view, row.plant)), pic("resource", row.resource)),
      units.length ? h("p", { class: "unit-prices" }, t("Price of each next unit:"), " ",
        units.map((price, i) => h("span", { class: "unit" + (i < count ? " chosen" : "") }, formatNumber(price)))) : null,
      stepper({ label: resourceName(row.resource), min: 1, max: row.max, value: 1, onChange: (v) => {
        count = v;
        refresh();
        box.querySelectorAll(".unit").forEach((el, i) => el.classList.toggle("chosen", i < count));
      } }), go);
    return box;
  })];
}

function buildComposer(group, ctx) {
  const envelope = ctx.envelope;
  const prices = (envelope.hints && envelope.hints.city_prices) || {};
  const cities = group.actions.map((a) => a.city).sort((a, b) => (prices[a] ?? 999) - (prices[b] ?? 999) || cityName(envelope, a).localeCompare(cityName(envelope, b)));
  return [
    h("h3", {}, t("Build: tap a city on the map, or a plan")),
    chosenCity && buildAction(envelope, chosenCity) ? cityPanel(envelope, ctx) : null,
    plansSection(envelope, ctx),
    h("details", { class: "all-cities" }, h("summary", {}, t("Every city you can build in, cheapest first")),
      h("div", { class: "choices" }, cities.map((city) => h("button", { type: "button", class: "act", dataset: { city },
        onclick: () => ctx.submit({ seat: envelope.seat, action: "build_city", city }) },
      cityName(envelope, city), prices[city] !== undefined ? h("small", {}, ` ${formatNumber(prices[city])}`) : null)))),
  ];
}

function fireComposer(group, ctx) {
  const proposal = ctx.envelope.hints && ctx.envelope.hints.firing;
  const sameAs = (a) => proposal && JSON.stringify(a.plants) === JSON.stringify(proposal.plants) && a.hybrid_coal === proposal.hybrid_coal;
  const sorted = [...group.actions].sort((a, b) => (sameAs(b) ? 1 : 0) - (sameAs(a) ? 1 : 0));
  return [h("h3", {}, t("Fire your plants")), sorted.map((a) => h("button", {
    type: "button", class: "act" + (sameAs(a) ? " primary" : ""), onclick: () => ctx.submit(a),
  }, a.plants.length ? t("Fire {plants}", { plants: a.plants.map((n) => formatNumber(n)).join(" + ") }) : t("Fire nothing"),
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
  // While you may build, a plan in the hints is a button too: it opens the same confirm as the plans below.
  const building = ctx.submit && (ctx.envelope.legal || []).some((a) => a.action === "build_city");
  for (const set of data.build_sets || []) {
    const words = tn("{count} city for {total}: {cities}", set.k, { total: set.total, cities: set.cities.map((c) => cityName(ctx.envelope, c)).join(", ") });
    const open = building && set.k >= 2 && set.k <= 4 && buildAction(ctx.envelope, set.cities[0]);
    out.push(open ? h("p", {}, h("button", { type: "button", class: "act plan-hint", dataset: { cities: set.cities.join(",") }, onclick: () => {
      planAsk = set;
      planNote = null;
      redraw(ctx);
    } }, words)) : h("p", {}, words));
  }
  if (data.firing) {
    const f = data.firing;
    out.push(h("p", {}, t("Best firing: {plants}, powers {n}, earns {income}", {
      plants: (f.plants || []).map((n) => formatNumber(n)).join(" + ") || t("none"), n: f.powered, income: f.income,
    })));
  }
  return out.length ? out : null;
}

/** Log arguments in words: cities as printed on the board, regions and resources by their names. */
function argWords(key, value, envelope) {
  if ((key === "city" || key === "cities") && look().maps) {
    if (typeof value === "string") return cityName(envelope, value);
    if (Array.isArray(value)) return value.map((c) => cityName(envelope, String(c))).join(", ");
  }
  if (key === "regions" && Array.isArray(value)) return value.map((r) => regionName(envelope, String(r))).join(", ");
  if (key === "region" && typeof value === "string") return regionName(envelope, value);
  if (key === "resource" && typeof value === "string" && ["coal", "oil", "garbage", "uranium"].includes(value)) return resourceName(value);
  return undefined;
}

export default {
  argWords,
  cardFields: ["plant"],
  label,
  card: (value, ctx) => plantCard(plantInfo(ctx.envelope.view, value)) || null,
  render,
  hints,
  refused,
  composers: {
    bid: bidComposer,
    open_auction: openComposer,
    buy_resources: buyComposer,
    build_city: buildComposer,
    fire: fireComposer,
  },
};

// Any page that draws this game (the phone, the host page) words its log the same way.
setArgWords(argWords);
