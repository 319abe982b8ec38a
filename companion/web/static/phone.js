// The phone page of one seat: its private view, live; actions built from its legal actions; hints; undo.

import { buildControls, groupLegal } from "./actions.js";
import { Live, clear, h, lang, languages, logText, nativeDigits, playerName, reasonText, setArgWords, setWesternDigits, socketUrl,
  t, takeToken, westernDigits } from "./common.js";
import { loadLook, look } from "./look.js";
import { factsList, renderGeneric, scoresSection, tappableCards, tickerList } from "./render.js";

const page = document.body;
const sid = page.dataset.session;
const token = takeToken(`companion-seat-${sid}`);
const top = document.getElementById("top");
const main = document.getElementById("main");
const actions = document.getElementById("actions");
const toastBox = document.getElementById("toast");

const state = {
  envelope: null, selection: undefined, busy: false, status: "connecting", drawn: null, renderer: null, refusal: "",
};
let busyTimer = null;
let toastTimer = null;
const baseTitle = document.title;
// Whether it was this seat's turn at the last view (null before the first): a change to true calls the player.
let wasMine = null;
const announcer = h("p", { class: "sr-only", role: "status", "aria-live": "polite" });
document.body.append(announcer);
let live = null;
// A time limit the server keeps (Bohnanza's trading): when it ends, by this phone's clock.
const clock = { what: null, ends: 0, timer: null };

// Feedback sits under the header (never over it): a refusal stays until tapped or 8 s, a confirmation while it is read.
function toast(text, kind) {
  clearTimeout(toastTimer);
  const role = kind === "error" ? "alert" : "status";
  clear(toastBox, text ? h("div", { class: `toast ${kind || ""}`, role, onclick: () => clear(toastBox) }, text) : null);
  // A confirming sentence stays long enough to be read (about 25 characters a second), a refusal longer.
  if (text) toastTimer = setTimeout(() => clear(toastBox), kind === "error" ? 8000 : Math.min(5000, 1200 + 40 * text.length));
}

// -- calling the player when it becomes their turn ------------------------------------------------------------
function soundOn() {
  try {
    return localStorage.getItem("companion-sound") !== "off";
  } catch (e) {
    return true;
  }
}

let audio = null;
// Browsers start sound only after a tap: the first tap anywhere prepares it.
document.addEventListener("pointerdown", () => {
  if (audio || typeof AudioContext === "undefined") return;
  try {
    audio = new AudioContext();
  } catch (e) {
    audio = null;
  }
}, { once: true });

function chime() {
  if (!audio || !soundOn()) return;
  try {
    const now = audio.currentTime;
    for (const [i, freq] of [660, 880].entries()) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.16);
      gain.gain.exponentialRampToValueAtTime(0.25, now + i * 0.16 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.16 + 0.15);
      tone.connect(gain).connect(audio.destination);
      tone.start(now + i * 0.16);
      tone.stop(now + i * 0.16 + 0.16);
    }
  } catch (e) {
    // No sound on this phone: the vibration and the title still call.
  }
}

function isMine(envelope) {
  return !envelope.over && envelope.status !== "ended" && (envelope.current_seats || []).includes(envelope.seat);
}

function callPlayer(envelope) {
  const mine = isMine(envelope);
  document.title = mine ? `● ${t("Your turn")} · ${baseTitle}` : baseTitle;
  if (mine && wasMine === false) {
    page.dataset.called = String(Number(page.dataset.called || 0) + 1);
    if (navigator.vibrate) {
      try {
        navigator.vibrate([180, 80, 180]);
      } catch (e) {
        // Vibration refused (no tap yet, or not allowed here).
      }
    }
    chime();
    announcer.textContent = t("Your turn");
  } else if (!mine) {
    announcer.textContent = "";
  }
  wasMine = mine;
}

function setBusy(busy) {
  state.busy = busy;
  clearTimeout(busyTimer);
  actions.classList.toggle("busy", busy);
  actions.setAttribute("aria-busy", busy ? "true" : "false");
  if (busy) busyTimer = setTimeout(() => setBusy(false), 8000);
}

function submit(action) {
  if (!state.envelope || state.busy) return;
  if (!live.send({ type: "action", state_id: state.envelope.state_id, action })) {
    toast(t("Not connected; reconnecting…"), "error");
    return;
  }
  setBusy(true);
}

function undo() {
  if (!state.envelope || state.busy) return;
  if (live.send({ type: "undo", state_id: state.envelope.state_id })) setBusy(true);
}

function select(value) {
  state.selection = value;
  draw(true);
}

function context() {
  return {
    envelope: state.envelope, renderer: state.renderer, submit, select, selection: state.selection, t, look: look(),
    redraw: () => draw(true), notify: toast,
  };
}

function turnLine(envelope) {
  if (envelope.status === "ended") return h("p", { class: "turn ended" }, t("This game has ended."));
  if (envelope.over) return h("p", { class: "turn over" }, t("The game is over."));
  const current = envelope.current_seats || [];
  if (current.includes(envelope.seat)) return h("p", { class: "turn mine" }, t("Your turn"));
  if (current.includes("table")) return h("p", { class: "turn" }, t("Waiting for a card to be revealed"));
  if (current.includes("host")) return h("p", { class: "turn" }, t("Waiting for the host"));
  const names = current.filter((s) => Number.isInteger(s)).map((s) => playerName(envelope, s));
  return h("p", { class: "turn" }, names.length ? t("Waiting for {names}", { names: names.join(", ") }) : t("Waiting"));
}

function drawTop() {
  const envelope = state.envelope;
  const me = envelope ? (envelope.players || []).find((p) => p.seat === envelope.seat) : null;
  clear(top,
    h("div", { class: "who" },
      me ? h("span", { class: "dot", style: { "--c": me.colour } }) : null,
      h("strong", {}, me ? h("bdi", {}, me.name) : t("Table companion")),
      envelope ? h("span", { class: "game" }, t(envelope.title)) : null,
      h("span", { class: `conn ${state.status}`, role: "status" }, statusText(state.status))),
    envelope ? turnLine(envelope) : null,
    clock.what ? h("p", { class: "clock", role: "timer" }, clockText()) : null);
}

function clockText() {
  const seconds = Math.max(0, Math.ceil((clock.ends - Date.now()) / 1000));
  return clock.what === "trading" ? t("Trading ends in {seconds} s", { seconds }) : t("Time left: {seconds} s", { seconds });
}

function setClock(message) {
  clearInterval(clock.timer);
  clock.what = message.seconds === null || message.seconds === undefined ? null : message.what;
  clock.ends = Date.now() + (message.seconds || 0) * 1000;
  if (clock.what) clock.timer = setInterval(drawTop, 1000);
  drawTop();
}

function statusText(status) {
  if (status === "online") return t("connected");
  if (status === "offline") return t("offline");
  if (status === "refused") return t("not joined");
  return t("connecting");
}

function drawMain() {
  const envelope = state.envelope;
  const ctx = context();
  const parts = [];
  if (envelope.over && envelope.scores) parts.push(scoresSection(envelope));
  let custom = null;
  try {
    custom = state.renderer && state.renderer.render ? state.renderer.render(envelope, ctx) : null;
  } catch (e) {
    // A view the game's renderer does not expect still shows, generically.
    console.warn("renderer failed; showing the generic view", e);
    custom = null;
  }
  parts.push(custom || renderGeneric(envelope, ctx));
  const hints = envelope.hints || {};
  // A game that words its hints decides what is worth showing: nothing, when a search cut short by its time
  // budget found nothing to say (never the raw hint fields). Only a game without its own wording gets the list.
  const ownHints = Boolean(state.renderer && state.renderer.hints);
  const shown = ownHints && Object.keys(hints).length ? state.renderer.hints(hints, ctx) : null;
  if (shown || (!ownHints && Object.keys(hints).length)) {
    parts.push(h("section", { class: "hints" }, h("h2", {}, t("Hints")), shown || factsList(ctx, hints, new Set())));
  }
  parts.push(h("section", { class: "log" }, h("h2", {}, t("What happened")), tickerList(envelope, 6)));
  parts.push(settings());
  clear(main, parts);
}

/** This phone's language (the page reloads in it) and, for languages with their own digits, 0-9 instead. */
function settings() {
  const choose = h("select", { "aria-label": t("Language") }, languages.map((l) =>
    h("option", { value: l.lang, selected: l.lang === lang, lang: l.lang }, l.name)));
  choose.addEventListener("change", () => {
    const params = new URLSearchParams(location.search);
    params.set("lang", choose.value);
    location.search = params.toString();
  });
  const parts = [h("label", { class: "field" }, t("Language"), choose)];
  const sound = h("input", { type: "checkbox", checked: soundOn() });
  sound.addEventListener("change", () => {
    try {
      localStorage.setItem("companion-sound", sound.checked ? "on" : "off");
    } catch (e) {
      // Without storage the choice lasts as long as the page.
    }
  });
  parts.push(h("label", { class: "check" }, sound, " ", t("A sound when it is your turn")));
  if (nativeDigits !== "latn") {
    const box = h("input", { type: "checkbox", class: "digits", checked: westernDigits });
    box.addEventListener("change", () => {
      setWesternDigits(box.checked);
      draw(true);
    });
    parts.push(h("label", { class: "check" }, box, " ", t("Western digits (0–9)")));
  }
  return h("section", { class: "settings" }, parts);
}

function drawActions() {
  const envelope = state.envelope;
  const groups = envelope.status === "ended" ? [] : groupLegal(envelope.legal || []);
  const controls = buildControls(groups, context());
  const undoButton = h("button", { class: "undo", type: "button", onclick: undo }, t("Undo"));
  if (!controls.length) {
    clear(actions, h("p", { class: "muted" }, envelope.over || envelope.status === "ended" ? t("Nothing more to do.") : t("Nothing to do right now.")), undoButton);
  } else {
    clear(actions, h("h2", { class: "sr-only" }, t("Your actions")), controls, undoButton);
  }
}

function draw(force) {
  drawTop();
  if (!state.envelope) return;
  // Rebuild the game and the controls only when something changed, so a half-typed number survives a refresh.
  const envelope = state.envelope;
  const signature = `${envelope.state_id}|${envelope.status}|${JSON.stringify(envelope.players)}`;
  if (force || state.drawn !== signature) {
    state.drawn = signature;
    page.dataset.stateId = String(state.envelope.state_id);
    drawMain();
    drawActions();
  }
}

function onMessage(message) {
  if (message.type === "view") {
    const changed = !state.envelope || state.envelope.state_id !== message.view.state_id;
    // Hints come on their own once they are ready; the same state sent again (a name changed) keeps them.
    if (!changed && state.envelope.hints && !message.view.hints) message.view.hints = state.envelope.hints;
    state.envelope = message.view;
    callPlayer(state.envelope);
    if (changed) {
      const usable = tappableCards(state.envelope, state.renderer && state.renderer.cardFields);
      if (!usable.has(JSON.stringify(state.selection))) state.selection = undefined;
      setBusy(false);
    }
    draw(false);
  } else if (message.type === "hints") {
    if (state.envelope && state.envelope.state_id === message.state_id) {
      // They arrive moments after the view (before anyone types): the game and the controls use them.
      state.envelope = { ...state.envelope, hints: message.hints };
      drawMain();
      drawActions();
    }
  } else if (message.type === "feedback") {
    setBusy(false);
    if (message.ok) {
      // The sentence the display and the host page show, in this phone's language ("You bought plant 13…").
      const said = (message.lines || []).map((line) => logText(state.envelope, { template: line.template, args: line.params || {} }))
        .filter(Boolean);
      toast(`✓ ${said.length ? said.join(" ") : t("Done")}`, "ok");
    } else {
      const reason = reasonText(state.envelope, message);
      // A game may say what the refusal interrupted (a build plan names the city it stopped before).
      const own = state.renderer && state.renderer.refused ? state.renderer.refused(state.envelope, reason) : null;
      toast(own || reason, "error");
      if (message.code === "stale") live.send({ type: "refresh" });
    }
  } else if (message.type === "clock") {
    setClock(message);
  } else if (message.type === "error") {
    state.refusal = message.text ? reasonText(state.envelope, message) : "";
    fatal(state.refusal);
  }
}

function fatal(text) {
  clear(actions);
  clear(main, h("section", { class: "fatal" }, h("h2", {}, t("You are not joined")),
    h("p", {}, text || t("This link is not valid for this game.")),
    h("p", {}, t("Scan your code on the host's screen again."))));
}

async function start() {
  const src = page.dataset.renderer;
  const looking = loadLook(page.dataset.game);
  if (src) {
    try {
      const module = await import(src);
      state.renderer = module.default || null;
    } catch (e) {
      state.renderer = null;
    }
  }
  await looking;
  if (state.renderer && state.renderer.argWords) setArgWords(state.renderer.argWords);
  drawTop();
  if (!token) {
    state.status = "refused";
    drawTop();
    fatal(null);
    return;
  }
  live = new Live(socketUrl(`/ws/sessions/${sid}/seat?token=${encodeURIComponent(token)}`), {
    status: (status) => {
      state.status = status;
      drawTop();
    },
    message: onMessage,
    // The close reason is English; the "error" message before it said the same in the page's language.
    fatal: (code, reason) => fatal(state.refusal || (reason ? t(reason) : "")),
  });
  live.connect();
}

start();
