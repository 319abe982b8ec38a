// The host's lobby: start a new game with every option worded for people, or resume a stored one.

import { api, clear, h, reasonText, t, tn, words } from "./common.js";

const PALETTE = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2"];

function panel(title, ...children) {
  return h("section", { class: "panel" }, h("h2", {}, title), children);
}

// Who plays a seat: a person (with a phone), or a bot of a level (the lobby and the host's players tab).
const LEVELS = { easy: () => t("easy"), normal: () => t("normal"), strong: () => t("strong") };
export function botSelect(level) {
  return h("select", { class: "bot-level", "aria-label": t("Played by") },
    h("option", { value: "", selected: !level }, t("a person")),
    Object.entries(LEVELS).map(([l, word]) => h("option", { value: l, selected: level === l }, t("bot: {level}", { level: word() }))));
}

/** What an option is called for people: the server's label, else its help sentence, never the machine name. */
export function optionLabel(option) {
  if (option.label) return t(option.label);
  const help = option.help ? t(option.help) : words(option.name);
  return help.charAt(0).toUpperCase() + help.slice(1);
}

/** A choice of an option as words ("Germany"), from the server's labels when it gives them. */
function choiceLabel(option, value, i) {
  const given = option.choice_labels || option.labels;
  if (Array.isArray(given) && given[i]) return t(given[i]);
  if (given && typeof given === "object" && given[value]) return t(given[value]);
  return typeof value === "string" ? words(value) : String(value);
}

export async function lobby(main, toast) {
  const { takeToken } = await import("./common.js");
  const token = takeToken("companion-server");
  if (!token) {
    clear(main, panel(t("Host"), h("p", {}, t("Open the host link that `companion serve` printed."))));
    return;
  }
  const [games, sessions] = await Promise.all([api("GET", "/api/games"), api("GET", `/api/host/sessions?token=${encodeURIComponent(token)}`)]);
  if (!sessions.ok) {
    clear(main, panel(t("Host"), h("p", {}, reasonText({}, sessions.data))));
    return;
  }
  clear(main, newGamePanel(token, games.data || [], toast), sessionsPanel(sessions.data || []));
}

function sessionsPanel(list) {
  return panel(t("Resume a game"), list.length ? h("ul", { class: "sessions" }, list.map((s) => h("li", {},
    h("span", {}, t(s.title), " · ", ...s.players.flatMap((name, i) => [i ? ", " : "", h("bdi", {}, name)]), " · ", h("small", {}, t(words(s.status)))),
    h("a", { href: s.host_url }, t("Open"))))) : h("p", { class: "muted" }, t("No games yet.")));
}

function newGamePanel(token, games, toast) {
  const form = h("form", { class: "new-game" });
  const gameSelect = h("select", { name: "game" }, games.map((g) => h("option", { value: g.name }, t(g.title))));
  const players = h("select", { name: "players" });
  const mode = h("select", { name: "mode" }, h("option", { value: "digital" }, t("Digital: the companion shuffles and deals")),
    h("option", { value: "physical" }, t("Physical: the real cards are revealed by taps")));
  const seed = h("input", { type: "number", min: 0, inputmode: "numeric", placeholder: t("random") });
  const optionsBox = h("fieldset", {});
  const namesBox = h("fieldset", {});
  const readers = { options: {}, chance: {}, names: [], colours: [], bots: [] };

  const drawGame = () => {
    const game = games.find((g) => g.name === gameSelect.value);
    if (!game) return;
    const was = Number(players.value) || 3;
    const counts = [];
    for (let n = game.players[0]; n <= game.players[1]; n += 1) counts.push(n);
    const n = Math.max(game.players[0], Math.min(game.players[1], was));
    clear(players, counts.map((c) => h("option", { value: c, selected: c === n }, tn("{count} player", c))));
    readers.options = {};
    readers.chance = {};
    const optionRows = game.options.map((o) => {
      let input;
      if (o.choices) {
        input = h("select", { name: o.name }, o.choices.map((c, i) => h("option", { value: i, selected: c === o.default }, choiceLabel(o, c, i))));
        readers.options[o.name] = () => o.choices[Number(input.value)];
      } else if (o.type === "bool") {
        input = h("input", { type: "checkbox", name: o.name, checked: Boolean(o.default) });
        readers.options[o.name] = () => input.checked;
        return h("label", { class: "check" }, input, optionLabel(o));
      } else if (o.type === "int") {
        input = h("input", { type: "number", name: o.name, value: o.default, min: 0, inputmode: "numeric" });
        readers.options[o.name] = () => Number(input.value);
      } else {
        input = h("input", { type: "text", name: o.name, value: o.default });
        readers.options[o.name] = () => input.value;
      }
      return h("label", { class: "field" }, optionLabel(o), input);
    });
    const chanceRows = game.chance_events.map((e) => {
      const input = h("select", { name: `chance-${e.name}` }, h("option", { value: "" }, t("As the mode says")),
        h("option", { value: "digital" }, t("The companion decides")), h("option", { value: "physical" }, t("From the real game")));
      readers.chance[e.name] = () => input.value;
      return h("label", { class: "field" }, optionLabel(e), input);
    });
    clear(optionsBox, h("legend", {}, t("Options")), optionRows.length ? optionRows : h("p", { class: "muted" }, t("none")), chanceRows);
    drawNames(n);
  };
  const seatRows = [];
  // Rows are added or removed, never rebuilt, so names being typed survive a change of the player count.
  const drawNames = (n) => {
    while (seatRows.length < n) {
      const i = seatRows.length;
      const name = h("input", { type: "text", maxlength: 40, value: "", placeholder: t("Player {n}", { n: i + 1 }), "aria-label": t("Name") });
      const colour = h("input", { type: "color", value: PALETTE[i % PALETTE.length], "aria-label": t("Colour") });
      const bot = botSelect(null);
      seatRows.push({ row: h("div", { class: "seat-row" }, h("div", { class: "line" }, colour, name, bot)), name, colour, bot, i });
    }
    seatRows.length = Math.min(seatRows.length, n);
    readers.names = seatRows.map((r) => () => r.name.value.trim() || t("Player {n}", { n: r.i + 1 }));
    readers.colours = seatRows.map((r) => () => r.colour.value);
    readers.bots = seatRows.map((r) => () => r.bot.value || null);
    clear(namesBox, h("legend", {}, t("Players")), seatRows.map((r) => r.row));
  };
  gameSelect.addEventListener("change", drawGame);
  players.addEventListener("change", () => drawNames(Number(players.value)));
  form.append(
    h("label", { class: "field" }, t("Game"), gameSelect),
    h("label", { class: "field" }, t("Players"), players),
    h("label", { class: "field" }, t("Cards and tiles"), mode),
    optionsBox, namesBox,
    h("details", {}, h("summary", {}, t("More")), h("label", { class: "field" }, t("Seed (optional)"), seed)),
    h("button", { class: "act primary", type: "submit" }, t("Start the game")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const chance = {};
    for (const [k, read] of Object.entries(readers.chance)) if (read()) chance[k] = read();
    const options = {};
    for (const [k, read] of Object.entries(readers.options)) options[k] = read();
    const body = {
      token, game: gameSelect.value, players: Number(players.value), mode: mode.value, options, chance,
      names: readers.names.map((r) => r()), colours: readers.colours.map((r) => r()),
      bots: readers.bots.map((r) => r()),
    };
    if (seed.value !== "") body.seed = Number(seed.value);
    const result = await api("POST", "/api/host/sessions", body);
    if (!result.ok) return toast(reasonText({}, result.data), "error");
    location.href = result.data.host_url;
  });
  drawGame();
  return panel(t("New game"), games.length ? form : h("p", {}, t("No games are installed.")));
}
