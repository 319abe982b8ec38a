// Parts of the host page behind its tabs: join codes and Wi-Fi, the history with undo to here, corrections chosen
// from lists, Power Grid's regions on a small map, the end-of-game summary with charts and the rematch.

import { api, clear, formatNumber, h, logText, playerName, reasonText, sayWords, t, tn, words } from "./common.js";
import { lineChart, scoreBars } from "./charts.js";

const svgImage = (svg, alt) => h("img", { src: "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg), alt });

function seatOptions(envelope, selected) {
  return (envelope.players || []).map((p) => h("option", { value: p.seat, selected: p.seat === selected }, p.name));
}

// -- join ------------------------------------------------------------------------------------------------
export function joinPanel(s) {
  const box = h("div", { class: "join-box" }, h("p", { class: "muted" }, t("Loading…")));
  const fill = () => {
    const codes = s.session.codes || [];
    const net = s.session.network || {};
    const phones = new Set(s.data.connected || []);
    const wifi = net.wifi && net.wifi.qr_svg ? h("div", { class: "qr wifi", dataset: { qr: "wifi" } },
      svgImage(net.wifi.qr_svg, t("Wi-Fi code")),
      h("div", {}, h("strong", {}, t("1. Join the table's Wi-Fi")), h("p", {}, h("bdi", {}, net.wifi.ssid || "")),
        h("small", { class: "muted" }, t("Phones on mobile data cannot reach the table.")))) : null;
    const address = net.mdns_url || net.url;
    clear(box,
      wifi,
      h("p", {}, h("strong", {}, wifi ? t("2. Scan your own code") : t("Scan your own code"))),
      h("div", { class: "codes" }, codes.map((code) => h("div", { class: "qr", dataset: { qr: String(code.seat) } },
        svgImage(code.qr_svg, t("Join code for {name}", { name: code.name })),
        h("div", {}, h("p", { class: "who" }, discOf(s.envelope, code.seat), h("bdi", {}, code.name)),
          s.data.connected ? h("small", { class: phones.has(code.seat) ? "phone on" : "phone off" },
            phones.has(code.seat) ? t("phone connected") : t("no phone")) : null,
          h("a", { href: code.url, target: "_blank", rel: "noreferrer" }, t("Join link")))))),
      address ? h("p", { class: "muted" }, t("The table's address: {url}", { url: address })) : null);
  };
  if (s.session.codes && s.session.network) fill();
  else {
    Promise.all([
      api("GET", `/api/sessions/${s.sid}/join-codes?${s.q()}`),
      api("GET", `/api/host/sessions/${s.sid}/network?${s.q()}`),
    ]).then(([codes, net]) => {
      s.session.codes = codes.ok ? codes.data : [];
      s.session.network = net.ok ? net.data : {};
      fill();
    });
  }
  return s.panel(t("Join"), box);
}

export function discOf(envelope, seat) {
  const player = (envelope.players || []).find((p) => p.seat === seat) || {};
  return h("span", { class: "disc", style: { "--c": player.colour || "#888" }, "aria-hidden": "true" }, formatNumber(Number(seat) + 1));
}

// -- history --------------------------------------------------------------------------------------------
function entryText(envelope, entry) {
  if (entry.template) return logText(envelope, { template: entry.template, args: entry.params || entry.args || {} });
  return entry.text ? t(entry.text) : words(entry.action && entry.action.action ? entry.action.action : "?");
}

export function historyPanel(s) {
  const box = h("div", { class: "history" }, h("p", { class: "muted" }, t("Loading…")));
  const fill = (entries) => {
    const newest = entries.slice().reverse();
    clear(box, newest.length ? h("ol", { class: "history-list", reversed: true }, newest.map((entry) => h("li", {
      dataset: { seq: String(entry.seq) },
    }, h("span", { class: "what" }, Number.isInteger(entry.seat) ? discOf(s.envelope, entry.seat) : null,
      h("span", {}, entryText(s.envelope, entry))),
    h("button", { type: "button", class: "undo-here", onclick: () => preview(s, entry) }, t("Undo to here")))))
      : h("p", { class: "muted" }, t("Nothing has happened yet.")));
  };
  // The list is kept per state, so redrawing the page does not fetch (or flash) it again.
  const cached = s.session.history;
  if (cached && cached.state === s.envelope.state_id) fill(cached.entries);
  else {
    const state = s.envelope.state_id;
    api("GET", `/api/host/sessions/${s.sid}/history?${s.q()}`).then((result) => {
      if (!result.ok) {
        clear(box, h("p", {}, reasonText(s.envelope, result.data)));
        return;
      }
      s.session.history = { state, entries: result.data.entries || [] };
      fill(s.session.history.entries);
    });
  }
  return s.panel(t("History"), h("p", { class: "muted" }, t("Every action of this game, newest first. Undo to here takes back that action and everything after it.")), box);
}

async function preview(s, entry) {
  const result = await api("GET", `/api/host/sessions/${s.sid}/history/${entry.seq}/undo?${s.q()}`);
  if (!result.ok) return s.toast(reasonText(s.envelope, result.data), "error");
  const undone = result.data.undone || result.data.entries || [];
  const dialog = h("dialog", { class: "confirm-undo" });
  const close = () => {
    dialog.close();
    dialog.remove();
  };
  const confirm = async () => {
    const done = await api("POST", `/api/host/sessions/${s.sid}/undo-to`,
      { token: s.token, state_id: s.envelope.state_id, seq: entry.seq });
    close();
    if (!done.ok) s.toast(reasonText(s.envelope, done.data), "error");
    else s.toast(tn("{count} actions undone", undone.length), "ok");
  };
  dialog.append(h("h2", {}, tn("Undo {count} actions?", undone.length)),
    h("ol", { class: "undone-list" }, undone.map((e) => h("li", {}, entryText(s.envelope, e)))),
    h("div", { class: "row-buttons" },
      h("button", { type: "button", onclick: close }, t("Keep them")),
      h("button", { type: "button", class: "danger confirm", onclick: confirm }, t("Undo them"))));
  document.body.append(dialog);
  dialog.showModal();
}

// -- corrections ------------------------------------------------------------------------------------------
// A correction's fields as the host page shows them: each a list to choose from (never free text). The server
// describes a kind as {title, fields: [{name, label, choices: [{value, label}]} | {name, label, min, max} |
// {name, label, grid: [faces]}]}; a bare JSON schema (enums, integer ranges) is read the same way. A label is a
// word or {template, params} worded like a log line (players, cities and beans by name); a field named "" is one
// choice whose value sets several fields at once.
function fieldsOf(spec, envelope) {
  if (Array.isArray(spec.fields)) return spec.fields;
  const out = [];
  for (const [name, prop] of Object.entries(spec.properties || {})) {
    if (name === "seat" || name === "action") continue;
    if (/^(player|target)$/.test(name) && prop.type === "integer") {
      out.push({ name, label: "Player", choices: (envelope.players || []).map((p) => ({ value: p.seat, label: p.name, seat: p.seat })) });
    } else if (prop.enum) out.push({ name, label: name, choices: prop.enum.map((v) => ({ value: v, label: words(String(v)) })) });
    // "delta" is the schema's name for how much a correction adds or takes away.
    else if (prop.type === "integer") out.push({ name, label: name, text: name === "delta" ? t("Change by") : null, min: prop.minimum ?? -50, max: prop.maximum ?? 50 });
    else if (prop.type === "array" && name === "faces") out.push({ name, label: name, grid: [] });
  }
  return out;
}

/** A correction the page can offer as lists: every field it needs has choices (a setup choice like the regions
 * is made on the console instead). */
function listable(spec, envelope) {
  if (Array.isArray(spec.fields)) return true;
  const needed = (spec.required || []).filter((f) => f !== "seat" && f !== "action");
  const have = new Set(fieldsOf(spec, envelope).map((f) => f.name));
  return needed.every((f) => have.has(f));
}

function labelOf(text, envelope) {
  return typeof text === "object" && text ? logText(envelope || {}, { template: text.template, args: text.params || {} }) : t(words(String(text)));
}

export function correctionsPanel(s) {
  const kinds = Object.entries(s.data.corrections || {});
  if (!kinds.length) return s.panel(t("Corrections"), h("p", { class: "muted" }, t("This game has nothing to correct.")));
  return s.panel(t("Corrections"), h("p", { class: "muted" }, t("When the companion and the real table disagree, make the companion match the table.")),
    h("div", { class: "correction-forms" },
      kinds.filter(([, spec]) => listable(spec, s.envelope)).map(([kind, spec]) => correctionForm(s, kind, spec))));
}

function correctionForm(s, kind, spec) {
  const fields = fieldsOf(spec, s.envelope);
  const readers = {};
  const rows = fields.map((f) => {
    if (f.grid) return gridPicker(s, f, readers);
    if (f.choices) {
      const select = h("select", { name: f.name, "aria-label": labelOf(f.label) }, f.choices.map((c, i) =>
        h("option", { value: i }, c.seat !== undefined ? playerName(s.envelope, c.seat) : labelOf(c.label ?? c.value, s.envelope))));
      readers[f.name] = () => f.choices[Number(select.value)].value;
      return h("label", { class: "field" }, labelOf(f.label), select);
    }
    const lo = Number(f.min ?? -50);
    const hi = Number(f.max ?? 50);
    const start = Math.max(lo, Math.min(hi, Number(f.default ?? 0)));
    const values = [];
    for (let v = lo; v <= hi; v += 1) values.push(v);
    const label = f.text || labelOf(f.label, s.envelope);
    const select = h("select", { name: f.name, "aria-label": label }, values.map((v) =>
      h("option", { value: v, selected: v === start }, v > 0 && f.signed !== false && lo < 0 ? `+${formatNumber(v)}` : formatNumber(v))));
    readers[f.name] = () => Number(select.value);
    return h("label", { class: "field" }, label, select);
  });
  const form = h("form", { class: "schema-form correction", dataset: { kind } },
    h("h3", {}, spec.title ? labelOf(spec.title) : spec.description ? t(spec.description) : words(kind)), rows,
    h("button", { class: "act", type: "submit" }, t("Apply")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const action = { seat: "host", action: kind };
    // A field without a name is one choice that sets several ("Ann, field 2" sets the player and the field).
    for (const [field, read] of Object.entries(readers)) {
      if (field) action[field] = read();
      else Object.assign(action, read());
    }
    s.act(action);
  });
  return form;
}

const FACES = ["sun", "moon", "fish", "bird", "horse", "boat", "seed", "tree"];
const FACE_COLOURS = { sun: "#f4b400", moon: "#5c6bc0", fish: "#29b6f6", bird: "#ef5350", horse: "#8d6e63", boat: "#26a69a", seed: "#9ccc65", tree: "#2e7d32" };

/** The Shifting Stones grid as nine buttons: tap a stone, then the face it shows on the table. */
function gridPicker(s, field, readers) {
  const current = ((s.envelope.view || {}).grid || {}).faces || [];
  const faces = current.length === 9 ? current.slice() : Array(9).fill("sun");
  const names = (s.envelope.view || {}).cell_names || [];
  let chosen = 0;
  const box = h("div", { class: "grid-picker" });
  const drawPicker = () => clear(box,
    h("div", { class: "ss-grid" }, faces.map((f, i) => h("button", {
      type: "button", class: "cell" + (i === chosen ? " marked" : ""), dataset: { cell: String(i) },
      "aria-label": `${names[i] ? t(names[i]) : formatNumber(i + 1)}: ${words(f)}`,
      onclick: () => { chosen = i; drawPicker(); },
    }, h("span", { class: "stone", style: { "--c": FACE_COLOURS[f] || "#999" } }, h("span", { class: "face" }, words(f)))))),
    h("div", { class: "face-choices", role: "group", "aria-label": t("Face") }, FACES.map((f) => h("button", {
      type: "button", class: "chip" + (faces[chosen] === f ? " on" : ""), style: { "--c": FACE_COLOURS[f] }, dataset: { face: f },
      onclick: () => { faces[chosen] = f; chosen = (chosen + 1) % 9; drawPicker(); },
    }, words(f)))));
  drawPicker();
  readers[field.name] = () => faces.slice();
  return h("div", { class: "field" }, h("span", {}, t("Tap a stone, then the face it shows")), box);
}

// -- regions (Power Grid) -----------------------------------------------------------------------------------
/** The region choice as coloured regions on a small map, the companion's proposal marked and chosen first. */
export function regionsComposer(s, group, ctx) {
  const box = h("div", { class: "regions" }, h("p", { class: "muted" }, t("Loading…")));
  const legal = group.actions;
  const want = legal.length ? legal[0].regions.length : 0;
  api("GET", `/api/host/sessions/${s.sid}/regions?${s.q()}`).then((result) => {
    const info = result.ok ? result.data : { regions: [], proposal: legal.length ? legal[0].regions : [] };
    const regions = info.regions && info.regions.length ? info.regions
      : [...new Set(legal.flatMap((a) => a.regions))].map((id) => ({ id, name: words(id), colour: "#888" }));
    const proposal = new Set(info.proposal || []);
    const picked = new Set(proposal.size === want ? proposal : []);
    const byId = new Map(regions.map((r) => [r.id, r]));
    const go = h("button", { type: "button", class: "act primary" });
    const drawRegions = () => {
      const match = legal.find((a) => a.regions.length === picked.size && a.regions.every((r) => picked.has(r)));
      go.disabled = !match;
      go.textContent = match ? t("Play in {regions}", { regions: [...picked].map((r) => (byId.get(r) || {}).name || words(r)).join(", ") })
        : tn("Pick {count} regions that touch", want);
      go.onclick = () => match && ctx.submit(match);
      const toggle = (id) => { if (picked.has(id)) picked.delete(id); else picked.add(id); drawRegions(); };
      clear(box,
        info.cities && info.cities.length ? regionMap(info, picked, proposal, toggle) : null,
        h("div", { class: "chips region-chips" }, regions.map((r) => h("button", {
          type: "button", class: "chip" + (picked.has(r.id) ? " on" : ""), style: { "--c": r.colour }, dataset: { region: r.id },
          "aria-pressed": picked.has(r.id) ? "true" : "false",
          onclick: () => toggle(r.id),
        }, t(r.name), proposal.has(r.id) ? h("small", { class: "proposed" }, " ★") : null))),
        proposal.size ? h("p", { class: "muted" }, t("★ the companion's proposal")) : null,
        go);
    };
    drawRegions();
  });
  return [h("h3", {}, t("Choose the regions")), box];
}

/** The small map: every city a dot in its region's colour (the chosen regions bright, the others faint), the
 * connections, and each region's name at its middle, ★ on the companion's proposal; tapping a region toggles it. */
function regionMap(info, picked, proposal, toggle) {
  const NS = "http://www.w3.org/2000/svg";
  const el = (name, attrs, ...children) => {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    node.append(...children);
    return node;
  };
  const tall = Math.max(0.4, Math.min(1.6, info.aspect || 1));
  const W = 100, H = 100 * tall;
  const svg = el("svg", { viewBox: `-6 -6 ${W + 12} ${H + 12}`, class: "region-map", role: "group", "aria-label": t("The map") });
  const colours = new Map((info.regions || []).map((r) => [r.id, r.colour]));
  const at = new Map(info.cities.map((c) => [c.id, [c.x * W, c.y * H]]));
  const regionOf = new Map(info.cities.map((c) => [c.id, c.region]));
  for (const [a, b] of info.connections || []) {
    const [p, q] = [at.get(a), at.get(b)];
    if (!p || !q) continue;
    const on = picked.has(regionOf.get(a)) && picked.has(regionOf.get(b));
    svg.append(el("line", { x1: p[0], y1: p[1], x2: q[0], y2: q[1], class: on ? "link on" : "link" }));
  }
  for (const r of info.regions || []) {
    const cities = info.cities.filter((c) => c.region === r.id);
    if (!cities.length) continue;
    const on = picked.has(r.id);
    const group = el("g", { class: "region" + (on ? " on" : "") + (proposal.has(r.id) ? " proposal" : ""), role: "button", tabindex: "0",
      "aria-pressed": on ? "true" : "false", "data-region": r.id, "aria-label": t(r.name) });
    for (const c of cities) {
      const [x, y] = at.get(c.id);
      // A wider ring nobody sees makes the whole region easy to tap on a phone.
      group.append(el("circle", { cx: x, cy: y, r: 6, class: "hit" }),
        el("circle", { cx: x, cy: y, r: on ? 2.6 : 2, fill: colours.get(r.id) || "#888" }, el("title", {}, c.name)));
    }
    const cx = cities.reduce((sum, c) => sum + at.get(c.id)[0], 0) / cities.length;
    const cy = cities.reduce((sum, c) => sum + at.get(c.id)[1], 0) / cities.length;
    group.append(el("text", { x: cx, y: cy, class: "region-name", "text-anchor": "middle", "dominant-baseline": "middle" },
      (proposal.has(r.id) ? "★ " : "") + t(r.colour_name || r.name)));
    group.addEventListener("click", () => toggle(r.id));
    group.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); toggle(r.id); } });
    svg.append(group);
  }
  return svg;
}

// -- summary and rematch ---------------------------------------------------------------------------------------
export function summaryPanel(s) {
  const box = h("div", { class: "summary" }, h("p", { class: "muted" }, t("Loading…")));
  api("GET", `/api/sessions/${s.sid}/summary?token=${encodeURIComponent(s.token)}`).then((result) => {
    if (!result.ok) {
      clear(box, h("p", {}, reasonText(s.envelope, result.data)));
      return;
    }
    clear(box, summaryBody(s.envelope, result.data));
  });
  const rematch = h("button", { type: "button", class: "act primary rematch", onclick: async () => {
    rematch.disabled = true;
    const result = await api("POST", `/api/host/sessions/${s.sid}/rematch`, { token: s.token });
    if (!result.ok) {
      rematch.disabled = false;
      return s.toast(reasonText(s.envelope, result.data), "error");
    }
    location.href = result.data.host_url;
  } }, t("Rematch: same players, same options"));
  return s.panel(t("Summary"), box, rematch);
}

/** The summary as people read it: scores best first with the tie-break, then one chart per series. */
export function summaryBody(envelope, summary) {
  const players = envelope.players || [];
  const rows = (summary.ranking || summary.scores || []).map((r) => {
    const player = players.find((p) => p.seat === r.seat) || {};
    const tie = r.tie_break && typeof r.tie_break === "object" ? logText(envelope, { template: r.tie_break.template, args: r.tie_break.params || {} })
      : r.tie_break ? t(r.tie_break) : "";
    return { seat: r.seat, number: r.seat + 1, name: player.name || playerName(envelope, r.seat), colour: player.colour || "#888",
      score: r.score, winner: Boolean(r.winner), tie_break: tie };
  });
  const charts = Object.entries(summary.series || {}).map(([name, data]) => {
    const perSeat = Array.isArray(data) ? data : data.values || [];
    const title = data && data.title ? labelOf(data.title) : words(name);
    return lineChart(title, players, perSeat);
  });
  const tieWords = summary.tie_break && typeof summary.tie_break === "object"
    ? logText(envelope, { template: summary.tie_break.template, args: summary.tie_break.params || {} }) : summary.tie_break ? t(summary.tie_break) : null;
  return [scoreBars(rows), tieWords ? h("p", { class: "tie-words" }, tieWords) : null, h("div", { class: "charts" }, charts)];
}

// -- NFC tags ------------------------------------------------------------------------------------------------
export function tagsPanel(s) {
  const box = h("div", { class: "tags-list" }, h("p", { class: "muted" }, t("Loading…")));
  const uid = h("input", { type: "text", maxlength: 40, placeholder: "04A1B2C3D4", "aria-label": t("Tag UID") });
  const card = h("select", { "aria-label": t("Card") });
  const drawTags = () => {
    const list = s.session.tags || [];
    clear(card, list.map((c) => h("option", { value: c.card }, sayWords(c.words) || c.label)));
    const enrolled = list.filter((c) => c.uid).length;
    clear(box, h("p", {}, t("{enrolled} of {total} cards have a tag.", { enrolled, total: list.length })),
      h("ul", {}, list.filter((c) => c.uid).map((c) => h("li", {}, `${sayWords(c.words) || c.label}: ${c.uid}`))));
  };
  const fetchTags = async () => {
    const result = await api("GET", `/api/host/sessions/${s.sid}/tags?${s.q()}`);
    if (result.ok) {
      s.session.tags = result.data.cards;
      drawTags();
    }
  };
  const form = h("form", { class: "schema-form" }, h("label", { class: "field" }, t("Card"), card),
    h("label", { class: "field" }, t("Tag UID"), uid), h("button", { class: "act", type: "submit" }, t("Enroll")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const result = await api("POST", `/api/host/sessions/${s.sid}/tags`, { token: s.token, uid: uid.value.trim(), card: card.value });
    if (!result.ok) return s.toast(reasonText(s.envelope, result.data), "error");
    uid.value = "";
    s.toast(t("Enrolled"), "ok");
    fetchTags();
  });
  s.session.refreshTags = fetchTags;
  if (s.session.tags) drawTags();
  else fetchTags();
  return s.panel(t("NFC tags"), form, box);
}

// -- enrolling a deck ----------------------------------------------------------------------------------------
/** "Enroll a deck": the card to tap now with the progress, the controller's taps coming in by themselves (or a UID
 * typed), skip, undo, re-assign a tag that is another card's, stop; it resumes where it was. */
export function enrolPanel(s) {
  const box = h("div", { class: "enrol" }, h("p", { class: "muted" }, t("Loading…")));
  // What the server says names its cards as words: each is said in the page's language.
  const say = (said) => (said ? sayWords(said) : "");
  const step = async (body) => {
    const result = await api("POST", `/api/host/sessions/${s.sid}/enrolment`, { token: s.token, ...body });
    if (!result.ok) return s.toast(reasonText(s.envelope, result.data), "error");
    s.session.enrolment = result.data;
    draw();
    if (s.session.refreshTags) s.session.refreshTags();
    if (result.data.said) s.toast(say(result.data.said), result.data.said.ok ? "ok" : "error");
  };
  const draw = () => {
    const data = s.session.enrolment || {};
    const e = data.enrolment;
    if (!e) {
      const write = h("input", { type: "checkbox", name: "write" });
      clear(box, h("p", {}, t("Tap every card of the deck in turn: the page names each card and takes the next tag laid on the reader.")),
        h("label", { class: "check" }, write, " ", t("Also write each card's id onto its tag")),
        h("div", { class: "row-buttons" }, h("button", { type: "button", class: "act primary", dataset: { do: "start" },
          onclick: () => step({ do: "start", write: write.checked }) }, t("Enroll a deck"))));
      return;
    }
    const typed = h("input", { type: "text", maxlength: 40, placeholder: "04A1B2C3D4", "aria-label": t("Tag UID") });
    const form = h("form", { class: "schema-form typed-tap" }, h("label", { class: "field" }, t("Tag UID"), typed),
      h("button", { class: "act", type: "submit" }, t("Enroll")));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (typed.value.trim()) step({ do: "tap", uid: typed.value.trim() });
    });
    const bar = h("progress", { max: e.total, value: e.asked, "aria-label": t("Progress") });
    clear(box,
      e.done ? h("p", { class: "enrol-card done" }, say(e.prompt))
        : h("p", { class: "enrol-card" }, say(e.prompt)),
      bar,
      h("p", { class: "muted" }, t("{enrolled} enrolled, {skipped} skipped", { enrolled: e.enrolled, skipped: e.skipped })),
      e.pending ? h("p", { class: "enrol-conflict" }, t("Tag {uid} is already {other}: press OK to move it to {card}, BACK to skip {card}, or tap another tag",
        { uid: e.pending.uid, other: sayWords(e.pending.words), card: sayWords(e.words) })) : null,
      h("div", { class: "row-buttons" },
        e.pending ? h("button", { type: "button", class: "act primary", dataset: { do: "reassign" }, onclick: () => step({ do: "reassign" }) }, t("Re-assign")) : null,
        e.done ? null : h("button", { type: "button", class: "act", dataset: { do: "skip" }, onclick: () => step({ do: "skip" }) }, t("Skip")),
        h("button", { type: "button", class: "act", dataset: { do: "undo" }, disabled: e.asked === 0, onclick: () => step({ do: "undo" }) }, t("Undo the last")),
        h("button", { type: "button", class: "act", dataset: { do: "stop" }, onclick: () => step({ do: "stop" }) }, e.done ? t("Close") : t("Stop"))),
      !e.done && data.controller && !data.active ? h("button", { type: "button", class: "act primary", dataset: { do: "continue" },
        onclick: () => step({ do: "start" }) }, t("Continue with the controller")) : null,
      e.done ? null : h("p", { class: "muted" }, data.controller ? t("Lay each card on the controller's reader; OK, BACK and UNDO work there too.")
        : t("No controller is attached here: type each tag's UID.")),
      e.done ? null : form);
  };
  const fetchIt = async () => {
    const result = await api("GET", `/api/host/sessions/${s.sid}/enrolment?${s.q()}`);
    if (result.ok) {
      s.session.enrolment = result.data;
      draw();
    }
  };
  s.session.refreshEnrolment = async () => {
    await fetchIt();
    if (s.session.refreshTags) s.session.refreshTags();
  };
  if (s.session.enrolment) draw();
  fetchIt();
  return s.panel(t("Enroll a deck"), box);
}
