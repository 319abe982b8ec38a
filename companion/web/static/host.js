// The host page: the lobby with the server token; a session's console with its host token (what to do now, the
// board jobs, moves for anyone, join codes, the history with undo to here, corrections, the summary).

import { buildControls, groupLegal } from "./actions.js";
import { Live, api, clear, formatNumber, h, logText, playerName, reasonText, socketUrl, t, takeToken, tn, words } from "./common.js";
import { botSelect, lobby } from "./hostlobby.js";
import { correctionsPanel, enrolPanel, historyPanel, joinPanel, regionsComposer, summaryPanel, tagsPanel } from "./hostparts.js";
import { renderGeneric, tickerList } from "./render.js";

const page = document.body;
const sid = page.dataset.session;
const main = document.getElementById("main");
const tabsBox = document.getElementById("tabs");
const toastBox = document.getElementById("toast");
let toastTimer = null;
let renderer = null;

export function toast(text, kind) {
  clearTimeout(toastTimer);
  clear(toastBox, text ? h("div", { class: `toast ${kind || ""}`, onclick: () => clear(toastBox) }, text) : null);
  if (text) toastTimer = setTimeout(() => clear(toastBox), kind === "error" ? 8000 : 2500);
}

function panel(title, ...children) {
  return h("section", { class: "panel" }, h("h2", {}, title), children);
}

// -- one session -------------------------------------------------------------------------------------
const session = {
  token: null, data: null, codes: null, network: null, loading: false, again: false,
  selection: undefined, selectionState: null, actingFor: "host", seatEnvelope: null, tab: "now",
};

// Each tab's label is a t() call of its own, so the catalogs' extraction finds every one.
const TABS = [
  ["now", () => t("Now")], ["join", () => t("Join")], ["history", () => t("History")], ["fix", () => t("Corrections")],
  ["players", () => t("Players")], ["table", () => t("Table")],
];

const q = () => `token=${encodeURIComponent(session.token)}`;

/** The public view's board jobs and what-to-do sentence, wherever the server puts them. */
export function boardJobs(envelope) {
  const jobs = envelope.board_jobs || (envelope.view && envelope.view.board_jobs);
  return Array.isArray(jobs) ? jobs : [];
}

export function nowOf(envelope) {
  const now = envelope.now || (envelope.view && envelope.view.now);
  return now && typeof now === "object" ? now : null;
}

/** A sentence the server sends as {text, template, params}, in the page's language with players named. */
export function sentence(envelope, item) {
  if (!item) return "";
  if (item.template) return logText(envelope, { template: item.template, args: item.params || {} });
  return item.text ? t(item.text) : "";
}

async function load() {
  if (session.loading) {
    session.again = true;
    return;
  }
  session.loading = true;
  const [result, phones] = await Promise.all([api("GET", `/api/host/sessions/${sid}?${q()}`), api("GET", `/api/host/sessions/${sid}/phones?${q()}`)]);
  if (result.ok && phones.ok) result.data.connected = phones.data.connected;
  if (!result.ok) {
    session.loading = false;
    clear(main, panel(t("Host"), h("p", {}, reasonText({}, result.data))));
    return;
  }
  // Nothing new (a tab opened, a phone that did not change): keep the page as it is, half-filled forms included.
  const seen = JSON.stringify([result.data.envelope.state_id, result.data.connected || [], result.data.seats]);
  const changed = seen !== session.seen;
  session.seen = seen;
  session.data = result.data;
  if (changed && typeof session.actingFor === "number") await loadSeat();
  session.loading = false;
  page.dataset.stateId = String(result.data.envelope.state_id);
  if (result.data.envelope.over && !session.sawOver) {
    // The game just ended (or the page opened on an ended one): the summary comes first.
    session.sawOver = true;
    session.tab = "summary";
  }
  if (changed) draw();
  if (session.again) {
    session.again = false;
    load();
  }
}

async function loadSeat() {
  const seat = session.actingFor;
  const result = await api("GET", `/api/host/sessions/${sid}/seats/${seat}/view?${q()}`);
  session.seatEnvelope = result.ok ? result.data : null;
  if (!result.ok) toast(reasonText(shownEnvelope(), result.data), "error");
}

function shownEnvelope() {
  return (session.data && session.data.envelope) || {};
}

async function hostAction(action) {
  const result = await api("POST", `/api/host/sessions/${sid}/actions`,
    { token: session.token, state_id: session.data.envelope.state_id, action });
  if (!result.ok) toast(reasonText(shownEnvelope(), result.data), "error");
  else toast(t("Done"), "ok");
  return result;
}

function setTab(tab) {
  session.tab = tab;
  if (location.hash !== `#${tab}`) history.replaceState(null, "", `${location.pathname}${location.search}#${tab}`);
  draw();
  // Which phones are connected changes without a move: a tab opened anew asks again.
  load();
}

function drawTabs() {
  const envelope = shownEnvelope();
  const tabs = envelope.over ? [["summary", () => t("Summary")], ...TABS] : TABS;
  clear(tabsBox, tabs.map(([key, label]) => h("button", {
    type: "button", role: "tab", class: "tab" + (session.tab === key ? " on" : ""), "aria-selected": session.tab === key ? "true" : "false",
    dataset: { tab: key }, onclick: () => setTab(key),
  }, label())));
}

function draw() {
  const data = session.data;
  if (!data) return;
  const envelope = data.envelope;
  if (session.selectionState !== envelope.state_id) {
    session.selection = undefined;
    session.selectionState = envelope.state_id;
  }
  document.getElementById("title").textContent = `${t(envelope.title)} · ${t("Host")}`;
  drawTabs();
  const views = {
    now: consoleTab, join: () => joinPanel(sessionApi()), history: () => historyPanel(sessionApi()),
    fix: () => correctionsPanel(sessionApi()), players: playersTab, table: tableTab, summary: () => summaryPanel(sessionApi()),
  };
  clear(main, (views[session.tab] || consoleTab)());
  page.dataset.tab = session.tab;
}

/** What the parts in hostparts.js may use. */
function sessionApi() {
  return {
    sid, token: session.token, data: session.data, envelope: session.data.envelope, renderer, toast, panel,
    act: hostAction, reload: load, q, session,
  };
}

// -- the console -----------------------------------------------------------------------------------
function disc(envelope, seat, extra) {
  const player = (envelope.players || []).find((p) => p.seat === seat) || {};
  return h("span", { class: "disc" + (extra ? ` ${extra}` : ""), style: { "--c": player.colour || "#888" }, "aria-hidden": "true" },
    formatNumber(Number(seat) + 1));
}

function turnOrder(envelope) {
  const view = envelope.view || {};
  const seats = Array.isArray(view.order) && view.order.length ? view.order : (envelope.players || []).map((p) => p.seat);
  const current = new Set(envelope.current_seats || []);
  const active = Number.isInteger(view.active) ? view.active : null;
  return h("ol", { class: "turn-order", "aria-label": t("Turn order") }, seats.map((seat) => h("li", {
    class: (current.has(seat) ? "current" : "") + (seat === active ? " active" : ""), dataset: { seat: String(seat) },
  }, disc(envelope, seat), h("bdi", {}, playerName(envelope, seat)))));
}

function statusLine(envelope) {
  const view = envelope.view || {};
  const parts = [];
  if (envelope.status === "ended") parts.push(t("This game has ended."));
  else if (envelope.over) parts.push(t("The game is over."));
  if (Number.isInteger(view.round)) parts.push(t("Round {n}", { n: view.round }));
  if (Number.isInteger(view.step)) parts.push(t("Step {n}", { n: view.step }));
  if (typeof view.phase === "string") parts.push(words(view.phase));
  return parts.join(" · ");
}

function consoleTab() {
  const data = session.data;
  const envelope = data.envelope;
  const now = nowOf(envelope);
  const nowText = sentence(envelope, now) || (envelope.over ? t("The game is over.") : "");
  return [
    h("section", { class: "panel now-panel" },
      h("p", { class: "status-line" }, statusLine(envelope)),
      turnOrder(envelope),
      h("p", { class: "now", id: "now" }, nowText),
      envelope.over ? h("button", { type: "button", class: "act primary", onclick: () => setTab("summary") }, t("See the summary")) : null),
    jobsPanel(envelope),
    movesPanel(data),
    panel(t("What happened"), tickerList(envelope, 6),
      h("div", { class: "row-buttons" },
        h("button", { type: "button", onclick: undoLast }, t("Undo the last action")),
        h("button", { type: "button", onclick: () => setTab("history") }, t("History")))),
  ];
}

function jobsPanel(envelope) {
  const jobs = boardJobs(envelope);
  const open = jobs.filter((j) => !j.done);
  const title = open.length ? tn("On the board: {count} left", open.length) : t("On the board");
  return h("section", { class: "panel jobs-panel" }, h("h2", {}, title),
    jobs.length ? h("ul", { class: "jobs" }, jobs.map((job) => {
      const box = h("input", { type: "checkbox", checked: Boolean(job.done), disabled: Boolean(job.done) || envelope.status === "ended",
        "aria-label": sentence(envelope, job) });
      box.addEventListener("change", async () => {
        box.disabled = true;
        const result = await hostAction({ seat: "host", action: "job_done", job: job.id });
        if (!result.ok) {
          box.checked = false;
          box.disabled = false;
        }
      });
      return h("li", { class: job.done ? "done" : "", dataset: { job: String(job.id) } }, h("label", {}, box, h("span", {}, sentence(envelope, job))));
    })) : h("p", { class: "muted" }, t("Nothing to do on the board.")));
}

function movesPanel(data) {
  const envelope = data.envelope;
  const current = new Set(envelope.current_seats || []);
  const who = session.actingFor;
  const pick = async (seat) => {
    session.actingFor = seat;
    session.seatEnvelope = null;
    if (typeof seat === "number") await loadSeat();
    draw();
  };
  const picker = h("div", { class: "seat-picker", role: "group", "aria-label": t("Act for") },
    h("button", { type: "button", class: "chip" + (who === "host" ? " on" : ""), dataset: { actor: "host" }, onclick: () => pick("host") }, t("Host")),
    (envelope.players || []).map((p) => h("button", {
      type: "button", class: "chip" + (who === p.seat ? " on" : "") + (current.has(p.seat) ? " due" : ""), style: { "--c": p.colour },
      dataset: { actor: String(p.seat) }, onclick: () => pick(p.seat),
    }, disc(envelope, p.seat), h("bdi", {}, p.name))));
  const body = [];
  if (who === "host") {
    const ctx = controlsCtx(envelope, hostAction);
    if (data.host_legal.length) body.push(h("h3", {}, t("Your move as the host")), buildControls(groupLegal(data.host_legal), ctx));
    if (data.table_legal.length) body.push(h("h3", {}, t("Reveal for the table")), buildControls(groupLegal(data.table_legal), ctx));
    if (!data.host_legal.length && !data.table_legal.length) {
      body.push(h("p", { class: "muted" }, t("Nothing for the host to do now. Pick a player to move for them.")));
    }
  } else {
    const seatEnv = session.seatEnvelope;
    if (!seatEnv) body.push(h("p", { class: "muted" }, t("Loading…")));
    else {
      const ctx = controlsCtx(seatEnv, (action) => hostAction({ ...action, seat: who }));
      const legal = seatEnv.legal || [];
      body.push(h("p", { class: "acting-note" }, t("You are moving for {name}.", { name: playerName(envelope, who) })));
      const table = renderer && renderer.render ? renderer.render(seatEnv, ctx) : renderGeneric(seatEnv, ctx);
      body.push(h("div", { class: "seat-view" }, table));
      body.push(legal.length ? buildControls(groupLegal(legal), ctx)
        : h("p", { class: "muted" }, t("{name} has nothing to do now.", { name: playerName(envelope, who) })));
    }
  }
  return h("section", { class: "panel moves-panel" }, h("h2", {}, t("Moves")), picker,
    h("div", { class: "bot-slot", id: "bot-slot" }), h("div", { class: "moves" }, body));
}

function controlsCtx(envelope, submit) {
  const select = (value) => {
    session.selection = value;
    draw();
  };
  const composers = { ...((renderer && renderer.composers) || {}), choose_regions: (group, ctx) => regionsComposer(sessionApi(), group, ctx) };
  const withRegions = { ...(renderer || {}), composers };
  return { envelope, renderer: withRegions, submit, select, selection: session.selection, t, redraw: draw };
}

// -- players and the table ---------------------------------------------------------------------------
function playersTab() {
  const data = session.data;
  const phones = new Set(data.connected || []);
  return [panel(t("Players"), data.seats.map((seat) => {
    const name = h("input", { type: "text", maxlength: 40, value: seat.name, "aria-label": t("Name") });
    const colour = h("input", { type: "color", value: seat.colour, "aria-label": t("Colour") });
    const language = h("select", { "aria-label": t("Language") }, data.languages.map((l) =>
      h("option", { value: l.lang, selected: l.lang === seat.lang }, l.name)));
    const save = h("button", { type: "button", onclick: async () => {
      const result = await api("PATCH", `/api/host/sessions/${sid}/seats/${seat.seat}`,
        { token: session.token, name: name.value.trim() || seat.name, colour: colour.value, lang: language.value });
      if (!result.ok) toast(reasonText(shownEnvelope(), result.data), "error");
      else {
        session.codes = null;
        toast(t("Saved"), "ok");
        load();
      }
    } }, t("Save"));
    // Handing a seat to a bot (or taking it back) applies at once: the bot plays as soon as the seat is to act.
    const bot = botSelect(seat.bot);
    bot.addEventListener("change", async () => {
      const result = await api("PUT", `/api/host/sessions/${sid}/seats/${seat.seat}/bot`,
        { token: session.token, level: bot.value || null });
      if (!result.ok) toast(reasonText(shownEnvelope(), result.data), "error");
      else load();
    });
    const phone = data.connected ? h("small", { class: phones.has(seat.seat) ? "phone on" : "phone off" },
      phones.has(seat.seat) ? t("phone connected") : t("no phone")) : null;
    return h("div", { class: "seat-row", dataset: { seat: seat.seat } },
      h("div", { class: "line" }, disc(data.envelope, seat.seat), colour, name, language, save, bot), phone);
  }), h("div", { class: "row-buttons" },
    h("button", { type: "button", class: "danger", onclick: endGame, disabled: data.envelope.status === "ended" }, t("End the game")))),
  data.has_cards ? enrolPanel(sessionApi()) : null,
  data.has_cards ? tagsPanel(sessionApi()) : null];
}

function tableTab() {
  const envelope = session.data.envelope;
  const ctx = controlsCtx(envelope, hostAction);
  return panel(t("The table"), (renderer && renderer.render ? renderer.render(envelope, ctx) : null) || renderGeneric(envelope, ctx));
}

async function undoLast() {
  const result = await api("POST", `/api/host/sessions/${sid}/undo`, { token: session.token, state_id: session.data.envelope.state_id });
  if (!result.ok) toast(reasonText(shownEnvelope(), result.data), "error");
}

async function endGame() {
  if (!window.confirm(t("End this game for everyone? It cannot be resumed."))) return;
  const result = await api("POST", `/api/host/sessions/${sid}/end`, { token: session.token });
  if (!result.ok) toast(reasonText(shownEnvelope(), result.data), "error");
}

async function hostPage() {
  session.token = takeToken(`companion-host-${sid}`);
  if (!session.token) {
    clear(main, panel(t("Host"), h("p", {}, t("Open the host link that `companion serve` printed."))));
    return;
  }
  const asked = location.hash.slice(1);
  if (asked && [...TABS.map(([k]) => k), "summary"].includes(asked)) session.tab = asked;
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
    status: (state) => {
      page.dataset.connection = state;
    },
    message: (message) => {
      if (message.type === "view" || message.type === "phones") load();  // "phones": a phone came or went
      else if (message.type === "enrolment" && session.refreshEnrolment) session.refreshEnrolment();  // a tag was laid
      else if (message.type === "feedback" && !message.ok && message.source !== "phone" && message.source !== "host") {
        toast(reasonText(shownEnvelope(), message), "error");
      }
    },
    fatal: () => {},
  });
  live.connect();
}

if (sid) hostPage();
else lobby(main, toast);
