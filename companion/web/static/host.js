// The host page: the lobby (new game, resume) with the server token; a session's page with its host token.

import { buildControls, groupLegal, schemaForm } from "./actions.js";
import { Live, api, clear, h, reasonText, socketUrl, t, takeToken, words } from "./common.js";
import { renderGeneric, scoresSection, tickerList } from "./render.js";

const page = document.body;
const sid = page.dataset.session;
const main = document.getElementById("main");
const toastBox = document.getElementById("toast");
let toastTimer = null;
let renderer = null;

function toast(text, kind) {
  clearTimeout(toastTimer);
  clear(toastBox, text ? h("div", { class: `toast ${kind || ""}`, onclick: () => clear(toastBox) }, text) : null);
  if (text) toastTimer = setTimeout(() => clear(toastBox), kind === "error" ? 8000 : 2500);
}

/** The envelope of the session shown (for the players' names in a refusal), if any. */
function shownEnvelope() {
  return (session.data && session.data.envelope) || {};
}

function refused(result) {
  toast(reasonText(shownEnvelope(), result.data), "error");
}

function panel(title, ...children) {
  return h("section", { class: "panel" }, h("h2", {}, title), children);
}

// -- the lobby -------------------------------------------------------------------------------------
async function lobby() {
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
  clear(main, newGamePanel(token, games.data || []), sessionsPanel(sessions.data || []));
}

function sessionsPanel(list) {
  return panel(t("Resume a game"), list.length ? h("ul", { class: "sessions" }, list.map((s) => h("li", {},
    h("span", {}, `${s.id} · ${t(s.title)} · ${s.players.join(", ")} · `, h("small", {}, t(words(s.status)))),
    h("a", { href: s.host_url }, t("Open"))))) : h("p", { class: "muted" }, t("No games yet.")));
}

function newGamePanel(token, games) {
  const form = h("form", { class: "new-game" });
  const gameSelect = h("select", { name: "game" }, games.map((g) => h("option", { value: g.name }, t(g.title))));
  const players = h("input", { type: "number", min: 1, max: 12, value: 3, inputmode: "numeric" });
  const mode = h("select", {}, h("option", { value: "digital" }, t("Digital: the companion shuffles and deals")),
    h("option", { value: "physical" }, t("Physical: the real cards are revealed by taps")));
  const seed = h("input", { type: "number", min: 0, inputmode: "numeric", placeholder: t("random") });
  const optionsBox = h("fieldset", {});
  const namesBox = h("fieldset", {});
  const palette = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2"];
  const readers = { options: {}, chance: {}, names: [], colours: [] };

  const drawGame = () => {
    const game = games.find((g) => g.name === gameSelect.value);
    if (!game) return;
    players.min = game.players[0];
    players.max = game.players[1];
    const n = Math.max(game.players[0], Math.min(game.players[1], Number(players.value) || game.players[0]));
    players.value = n;
    readers.options = {};
    readers.chance = {};
    const optionRows = game.options.map((o) => {
      let input;
      if (o.choices) {
        input = h("select", {}, o.choices.map((c, i) => h("option", { value: i, selected: c === o.default }, String(c))));
        readers.options[o.name] = () => o.choices[Number(input.value)];
      } else if (o.type === "bool") {
        input = h("input", { type: "checkbox", checked: Boolean(o.default) });
        readers.options[o.name] = () => input.checked;
      } else if (o.type === "int") {
        input = h("input", { type: "number", value: o.default, inputmode: "numeric" });
        readers.options[o.name] = () => Number(input.value);
      } else {
        input = h("input", { type: "text", value: o.default });
        readers.options[o.name] = () => input.value;
      }
      return h("label", { class: "field" }, `${o.name}: ${t(o.help)}`, input);
    });
    const chanceRows = game.chance_events.map((e) => {
      const input = h("select", {}, h("option", { value: "" }, t("as the mode says")),
        h("option", { value: "digital" }, t("digital")), h("option", { value: "physical" }, t("physical")));
      readers.chance[e.name] = () => input.value;
      return h("label", { class: "field" }, `${e.name}: ${t(e.help)}`, input);
    });
    clear(optionsBox, h("legend", {}, t("Options")), optionRows.length ? optionRows : h("p", { class: "muted" }, t("none")), chanceRows);
    drawNames(n);
  };
  const seatRows = [];
  // Rows are added or removed, never rebuilt, so names being typed survive a change of the player count.
  const drawNames = (n) => {
    while (seatRows.length < n) {
      const i = seatRows.length;
      const name = h("input", { type: "text", maxlength: 40, value: "", placeholder: t("Player {n}", { n: i + 1 }) });
      const colour = h("input", { type: "color", value: palette[i % palette.length], "aria-label": t("Colour") });
      seatRows.push({ row: h("div", { class: "seat-row" }, h("div", { class: "line" }, colour, name)), name, colour, i });
    }
    seatRows.length = Math.min(seatRows.length, n);
    readers.names = seatRows.map((r) => () => r.name.value.trim() || t("Player {n}", { n: r.i + 1 }));
    readers.colours = seatRows.map((r) => () => r.colour.value);
    clear(namesBox, h("legend", {}, t("Players")), seatRows.map((r) => r.row));
  };
  gameSelect.addEventListener("change", drawGame);
  players.addEventListener("change", () => {
    players.value = Math.max(Number(players.min), Math.min(Number(players.max), Number(players.value) || 0));
    drawNames(Number(players.value));
  });
  form.append(
    h("label", { class: "field" }, t("Game"), gameSelect),
    h("label", { class: "field" }, t("Players"), players),
    h("label", { class: "field" }, t("Mode"), mode),
    optionsBox, namesBox,
    h("label", { class: "field" }, t("Seed (optional)"), seed),
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
    };
    if (seed.value !== "") body.seed = Number(seed.value);
    const result = await api("POST", "/api/host/sessions", body);
    if (!result.ok) return refused(result);
    location.href = result.data.host_url;
  });
  drawGame();
  return panel(t("New game"), games.length ? form : h("p", {}, t("No games are installed.")));
}

// -- one session -------------------------------------------------------------------------------------
const session = {
  token: null, data: null, codes: null, tags: null, loading: false, again: false, selection: undefined, selectionState: null,
};

async function load() {
  if (session.loading) {
    session.again = true;
    return;
  }
  session.loading = true;
  const result = await api("GET", `/api/host/sessions/${sid}?token=${encodeURIComponent(session.token)}`);
  session.loading = false;
  if (!result.ok) {
    clear(main, panel(t("Host"), h("p", {}, reasonText({}, result.data))));
    return;
  }
  session.data = result.data;
  if (!session.codes) {
    const codes = await api("GET", `/api/sessions/${sid}/join-codes?token=${encodeURIComponent(session.token)}`);
    session.codes = codes.ok ? codes.data : [];
  }
  draw();
  if (session.again) {
    session.again = false;
    load();
  }
}

async function hostAction(action) {
  const result = await api("POST", `/api/host/sessions/${sid}/actions`,
    { token: session.token, state_id: session.data.envelope.state_id, action });
  if (!result.ok) refused(result);
}

function draw() {
  const data = session.data;
  const envelope = data.envelope;
  if (session.selectionState !== envelope.state_id) {
    session.selection = undefined;
    session.selectionState = envelope.state_id;
  }
  const select = (value) => {
    session.selection = value;
    draw();
  };
  const ctx = { envelope, renderer, submit: hostAction, select, selection: session.selection, t };
  const statusText = envelope.status === "ended" ? t("This game has ended.") : envelope.over ? t("The game is over.") : t("In play");
  const parts = [
    panel(`${t(envelope.title)} · ${t("game {id}", { id: envelope.session })}`,
      h("p", { class: "big-status" }, statusText),
      h("p", { class: "muted" }, t("State {id}", { id: envelope.state_id }), " · ", t(words(envelope.mode))),
      envelope.over && envelope.scores ? scoresSection(envelope) : null,
      tickerList(envelope, 8),
      h("div", { class: "row-buttons" },
        h("button", { type: "button", onclick: undo }, t("Undo the last action")),
        h("button", { type: "button", class: "danger", onclick: endGame, disabled: envelope.status === "ended" }, t("End the game")))),
    playersPanel(data),
  ];
  if (data.host_legal.length) {
    parts.push(panel(t("Your move as the host"), buildControls(groupLegal(data.host_legal), ctx)));
  }
  if (data.table_legal.length) {
    parts.push(panel(t("Reveal for the table"), buildControls(groupLegal(data.table_legal), ctx)));
  }
  const corrections = Object.entries(data.corrections);
  if (corrections.length) {
    parts.push(panel(t("Corrections"), corrections.map(([kind, schema]) => schemaForm(kind, schema, envelope, hostAction, renderer))));
  }
  if (data.has_cards) parts.push(tagsPanel());
  parts.push(panel(t("The table"), (renderer && renderer.render ? renderer.render(envelope, ctx) : null) || renderGeneric(envelope, ctx)));
  clear(main, parts);
}

function playersPanel(data) {
  const codes = new Map((session.codes || []).map((c) => [c.seat, c]));
  return panel(t("Players"), data.seats.map((seat) => {
    const name = h("input", { type: "text", maxlength: 40, value: seat.name, "aria-label": t("Name") });
    const colour = h("input", { type: "color", value: seat.colour, "aria-label": t("Colour") });
    const language = h("select", { "aria-label": t("Language") }, data.languages.map((l) =>
      h("option", { value: l.lang, selected: l.lang === seat.lang }, l.name)));
    const save = h("button", { type: "button", onclick: async () => {
      const result = await api("PATCH", `/api/host/sessions/${sid}/seats/${seat.seat}`,
        { token: session.token, name: name.value.trim() || seat.name, colour: colour.value, lang: language.value });
      if (!result.ok) refused(result);
      else {
        session.codes = null;
        toast(t("Saved"), "ok");
        load();
      }
    } }, t("Save"));
    const code = codes.get(seat.seat);
    return h("div", { class: "seat-row", dataset: { seat: seat.seat } },
      h("div", { class: "line" }, colour, name, language, save),
      code ? h("div", { class: "qr" },
        h("img", { src: "data:image/svg+xml;charset=utf-8," + encodeURIComponent(code.qr_svg), alt: t("Join code for {name}", { name: seat.name }) }),
        h("a", { href: code.url, target: "_blank", rel: "noreferrer" }, t("Join link"))) : null);
  }));
}

function tagsPanel() {
  const box = h("div", { class: "tags-list" }, h("p", { class: "muted" }, t("Loading…")));
  const uid = h("input", { type: "text", maxlength: 40, placeholder: "04A1B2C3D4", "aria-label": t("Tag UID") });
  const card = h("select", { "aria-label": t("Card") });
  const drawTags = () => {
    const list = session.tags || [];
    clear(card, list.map((c) => h("option", { value: c.card }, c.label)));
    const enrolled = list.filter((c) => c.uid).length;
    clear(box, h("p", {}, t("{enrolled} of {total} cards have a tag.", { enrolled, total: list.length })),
      h("ul", {}, list.filter((c) => c.uid).map((c) => h("li", {}, `${c.label}: ${c.uid}`))));
  };
  const fetchTags = async () => {
    const result = await api("GET", `/api/host/sessions/${sid}/tags?token=${encodeURIComponent(session.token)}`);
    if (result.ok) {
      session.tags = result.data.cards;
      drawTags();
    }
  };
  const form = h("form", { class: "schema-form" }, h("label", { class: "field" }, t("Card"), card),
    h("label", { class: "field" }, t("Tag UID"), uid), h("button", { class: "act", type: "submit" }, t("Enroll")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const result = await api("POST", `/api/host/sessions/${sid}/tags`, { token: session.token, uid: uid.value.trim(), card: card.value });
    if (!result.ok) return refused(result);
    uid.value = "";
    toast(t("Enrolled"), "ok");
    fetchTags();
  });
  if (session.tags) drawTags();
  else fetchTags();
  return panel(t("NFC tags"), form, box);
}

async function undo() {
  const result = await api("POST", `/api/host/sessions/${sid}/undo`, { token: session.token, state_id: session.data.envelope.state_id });
  if (!result.ok) refused(result);
}

async function endGame() {
  if (!window.confirm(t("End this game for everyone? It cannot be resumed."))) return;
  const result = await api("POST", `/api/host/sessions/${sid}/end`, { token: session.token });
  if (!result.ok) refused(result);
}

async function hostPage() {
  session.token = takeToken(`companion-host-${sid}`);
  if (!session.token) {
    clear(main, panel(t("Host"), h("p", {}, t("Open the host link that `companion serve` printed."))));
    return;
  }
  const src = page.dataset.renderer;
  if (src) {
    try {
      renderer = (await import(src)).default || null;
    } catch (e) {
      renderer = null;
    }
  }
  await load();
  const live = new Live(socketUrl(`/ws/sessions/${sid}/public`), {
    status: () => {},
    message: (message) => {
      if (message.type === "view") load();
      else if (message.type === "feedback" && !message.ok && message.source !== "phone" && message.source !== "host") toast(reasonText(shownEnvelope(), message), "error");
    },
    fatal: () => {},
  });
  live.connect();
}

if (sid) hostPage();
else lobby();
