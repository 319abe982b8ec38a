// Shared by the phone and host pages: the message catalog, DOM building, the JSON API and the live socket.

const catalogData = JSON.parse(document.getElementById("catalog").textContent);
export const lang = catalogData.lang || "en";
export const languages = catalogData.languages || [];

// The digits players of the language expect (a CLDR numbering system: latn, beng, arabext), unless this phone
// asked for 0-9 (kept in localStorage; ?digits=latn or ?digits=native sets it).
const DIGITS = {
  latn: "0123456789", beng: "০১২৩৪৫৬৭৮৯", arabext: "۰۱۲۳۴۵۶۷۸۹", arab: "٠١٢٣٤٥٦٧٨٩", sinh: "෦෧෨෩෪෫෬෭෮෯",
};
const ANY_DIGIT = new Map(Object.values(DIGITS).flatMap((set) => [...set].map((d, i) => [d, i])));

function storedDigits() {
  const asked = new URLSearchParams(location.search).get("digits");
  try {
    if (asked === "latn") localStorage.setItem("companion-digits", "latn");
    else if (asked === "native") localStorage.removeItem("companion-digits");
    return localStorage.getItem("companion-digits") === "latn";
  } catch (e) {
    return asked === "latn";
  }
}

export const nativeDigits = catalogData.digits && DIGITS[catalogData.digits] ? catalogData.digits : "latn";
export let westernDigits = storedDigits();
let shownDigits = westernDigits ? "latn" : nativeDigits;

/** Use 0-9 (true) or the language's own digits (false) from now on, on this phone. */
export function setWesternDigits(western) {
  westernDigits = Boolean(western);
  shownDigits = westernDigits ? "latn" : nativeDigits;
  try {
    if (westernDigits) localStorage.setItem("companion-digits", "latn");
    else localStorage.removeItem("companion-digits");
  } catch (e) {
    // Without storage the choice lasts as long as the page.
  }
  numbers = makeNumbers();
}

/** `text` with every digit written in the digits shown on this page. */
export function localDigits(text) {
  const target = DIGITS[shownDigits];
  return String(text).replace(/[0-9০-৯۰-۹٠-٩෦-෯]/g, (d) => (ANY_DIGIT.has(d) ? target[ANY_DIGIT.get(d)] : d));
}

function makeNumbers() {
  if (typeof Intl === "undefined" || !Intl.NumberFormat) return null;
  try {
    return new Intl.NumberFormat(`${lang}-u-nu-${shownDigits}`);
  } catch (e) {
    return new Intl.NumberFormat(lang);
  }
}

const pluralRules = typeof Intl !== "undefined" && Intl.PluralRules ? new Intl.PluralRules(lang) : null;
let numbers = makeNumbers();

// Every message id this page looked up: the languages check reads it in the browser tests.
const seen = new Set();
window.companionI18n = { seen, lang };

// Fallback plural rules by the catalog's rule name, for browsers without Intl.PluralRules.
const RULES = {
  one_is_1: (n) => (n === 1 ? "one" : "other"),
  one_is_0_or_1: (n) => (n === 0 || n === 1 ? "one" : "other"),
  one_ends_in_1_not_11: (n) => (n % 10 === 1 && n % 100 !== 11 ? "one" : "other"),
  other_only: () => "other",
};

export function formatNumber(n) {
  return numbers && Number.isFinite(n) ? numbers.format(n) : localDigits(String(n));
}

function fill(text, args) {
  if (!args) return text;
  return text.replace(/\{(\w+)\}/g, (whole, key) => {
    if (!(key in args)) return whole;
    const value = args[key];
    return typeof value === "number" ? formatNumber(value) : String(value);
  });
}

function pluralForm(entry, n) {
  const rule = pluralRules ? pluralRules.select(n) : (RULES[catalogData.plural] || RULES.one_is_1)(Math.abs(n));
  return entry[rule] || entry.other;
}

/** The translation of an English source string, with {placeholders} filled; a numeric {count} picks the plural. */
export function t(msgid, args) {
  seen.add(msgid);
  let text = catalogData.messages[msgid];
  if (text && typeof text === "object") {
    text = args && typeof args.count === "number" ? pluralForm(text, args.count) : text.other;
  }
  // Digits written in the message itself ("Step 3", "plants 3-6") follow the page's digits too.
  return fill(localDigits(typeof text === "string" ? text : msgid), args);
}

/** A thing's name sent as {template, params} (a card as "plant {n}"), in the page's language: a param that is
 * such an object is said first, a list word by word ("seed fish / tree *"), a string through the catalog. */
export function sayWords(item) {
  if (!item || typeof item !== "object") return item === undefined || item === null ? "" : String(item);
  const args = {};
  for (const [key, value] of Object.entries(item.params || {})) {
    if (Array.isArray(value)) args[key] = value.map((v) => t(String(v))).join(" ");
    else if (value && typeof value === "object") args[key] = sayWords(value);
    else args[key] = typeof value === "string" ? t(value) : value;
  }
  return t(item.template, args);
}

/** The plural form of an English source string for n (also given as {count}). */
export function tn(msgid, n, args) {
  seen.add(msgid);
  const entry = catalogData.messages[msgid];
  const all = { count: n, ...(args || {}) };
  let text = msgid;
  if (entry && typeof entry === "object") {
    text = pluralForm(entry, n) || msgid;
  } else if (typeof entry === "string") {
    text = entry;
  }
  return fill(localDigits(text), all);
}

/** A name from the rules vocabulary ("play_card", "chili") as words, translated when the catalog has it. */
export function words(name) {
  const text = String(name).replace(/_/g, " ");
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return t(capital);
}

/** Build an element: h("button", {class: "big", onclick: f}, t("Undo"), child). Text is never parsed as HTML. */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) el.style.setProperty(prop, v);
    } else if (key === "dataset") Object.assign(el.dataset, value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el, ...children) {
  el.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

/** The token from the link (then kept for this tab only and removed from the address bar). */
export function takeToken(key) {
  const params = new URLSearchParams(location.search);
  let token = params.get("t");
  if (token) {
    try {
      sessionStorage.setItem(key, token);
    } catch (e) {
      // Private modes may refuse storage; the token then lives in this page only.
    }
    params.delete("t");
    const rest = params.toString();
    history.replaceState(null, "", location.pathname + (rest ? "?" + rest : "") + location.hash);
  } else {
    try {
      token = sessionStorage.getItem(key);
    } catch (e) {
      token = null;
    }
  }
  return token;
}

/** A JSON request; resolves to {ok, status, data} and never throws for a refusal. */
export async function api(method, path, body) {
  try {
    const response = await fetch(path, {
      method,
      headers: body ? { "Content-Type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
      cache: "no-store",
    });
    let data = null;
    try {
      data = await response.json();
    } catch (e) {
      data = null;
    }
    return { ok: response.ok, status: response.status, data };
  } catch (e) {
    return { ok: false, status: 0, data: { ok: false, code: "offline", error: t("The companion cannot be reached.") } };
  }
}

/**
 * A WebSocket that stays connected: a full view arrives on every (re)connect; it reconnects with backoff,
 * when the page becomes visible again or comes back from the back-forward cache, and when it goes silent.
 */
export class Live {
  constructor(url, handlers) {
    this.url = url;
    this.handlers = handlers;
    this.socket = null;
    this.backoff = 500;
    this.stopped = false;
    this.lastHeard = 0;
    this.retryTimer = null;
    this.watchdog = setInterval(() => this.check(), 5000);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.wake();
    });
    window.addEventListener("pageshow", (event) => {
      if (event.persisted) this.reconnect();
    });
    window.addEventListener("online", () => this.wake());
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    const socket = new WebSocket(this.url);
    this.socket = socket;
    this.handlers.status("connecting");
    socket.onopen = () => {
      if (socket !== this.socket) return;
      this.backoff = 500;
      this.lastHeard = Date.now();
      this.handlers.status("online");
    };
    socket.onmessage = (event) => {
      if (socket !== this.socket) return;
      this.lastHeard = Date.now();
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (e) {
        return;
      }
      if (message.type === "ping") {
        this.send({ type: "pong" });
        return;
      }
      this.handlers.message(message);
    };
    socket.onclose = (event) => {
      if (socket !== this.socket) return;
      this.socket = null;
      if (event.code >= 4400 && event.code < 4500) {
        this.stopped = true;
        this.handlers.status("refused");
        this.handlers.fatal(event.code, event.reason);
        return;
      }
      this.handlers.status("offline");
      this.retryTimer = setTimeout(() => this.connect(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, 5000);
    };
  }

  reconnect() {
    if (this.stopped) return;
    const old = this.socket;
    this.socket = null;
    if (old) {
      try {
        old.close();
      } catch (e) {
        // already closed
      }
    }
    this.backoff = 500;
    this.connect();
  }

  wake() {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) {
      this.reconnect();
      return;
    }
    // A socket that looks open after the phone slept may be dead: ask for a view, reconnect if none comes.
    const asked = Date.now();
    this.send({ type: "refresh" });
    setTimeout(() => {
      if (this.lastHeard < asked) this.reconnect();
    }, 3000);
  }

  check() {
    if (this.stopped || !this.socket) return;
    if (this.socket.readyState === WebSocket.OPEN && Date.now() - this.lastHeard > 25000) this.reconnect();
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }
}

export function socketUrl(path) {
  return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path;
}

// Unicode's first-strong isolate and its pop: a name reads in its own direction inside running text, and a
// right-to-left override in it cannot turn the words after it around.
const FSI = "\u2068";
const PDI = "\u2069";

/** A player's name as it goes into text: isolated (FSI … PDI). */
export function isolate(name) {
  return FSI + String(name) + PDI;
}

/** The player's name for a seat number, from the envelope, isolated for use in running text. */
export function playerName(envelope, seat) {
  if (seat === "table") return t("the table");
  if (seat === "host") return t("the host");
  const player = (envelope.players || []).find((p) => p.seat === seat);
  return player ? isolate(player.name) : t("Seat {seat}", { seat: Number(seat) + 1 });
}

// Log (and refusal) arguments that are seats read as the player's name; lists of seats (the turn order, the
// winners, tied players) as names each. The server gives the lists with the catalog: one source for every page.
const SEAT_ARGS = new Set(catalogData.seat_args || []);
const SEAT_LIST_ARGS = new Set(catalogData.seat_list_args || []);
const SHOWN_TEMPLATES = catalogData.shown_templates || {};

// A game's own words for log arguments (a card id as the card, a bean as its name), set by its renderer.
let argWords = null;

/** Let a game name its log arguments: fn(key, value, envelope) returns the words, or undefined for the default. */
export function setArgWords(fn) {
  argWords = typeof fn === "function" ? fn : null;
}

/** One ticker entry in the page's language: the template is the message id, the arguments typed. */
export function logText(envelope, entry) {
  const args = {};
  for (const [key, value] of Object.entries(entry.args || {})) {
    const isSeat = Number.isInteger(value) || value === "host" || value === "table";
    const own = argWords ? argWords(key, value, envelope || {}) : undefined;
    if (own !== undefined && own !== null) args[key] = own;
    else if (SEAT_ARGS.has(key) && isSeat) args[key] = playerName(envelope || {}, value);
    else if (SEAT_LIST_ARGS.has(key) && Array.isArray(value)) {
      args[key] = value.map((v) => (Number.isInteger(v) || v === "host" || v === "table" ? playerName(envelope || {}, v) : t(String(v)))).join(", ");
    }
    else if (Array.isArray(value)) args[key] = value.map((v) => (typeof v === "number" ? formatNumber(v) : t(String(v)))).join(", ");
    else if (typeof value === "string") args[key] = t(value);
    else args[key] = value;
  }
  // A template naming an internal number (an offer's id) reads in words instead: the server's one list.
  return t(SHOWN_TEMPLATES[entry.template] || entry.template, args);
}

/**
 * A refusal (a feedback message, an error answer of the API) in the page's language: its template and params
 * read like a log line (seats as names, words translated, the page's digits); else its English text looked up.
 */
export function reasonText(envelope, data) {
  if (!data) return t("That was refused.");
  if (typeof data.template === "string" && data.template) {
    return logText(envelope, { template: data.template, args: data.params || {} });
  }
  const text = data.text || data.error;
  return text ? t(text) : t("That was refused.");
}
