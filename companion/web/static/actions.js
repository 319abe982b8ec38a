// Controls built from the legal actions (grouped by kind) and, for the host's corrections, from action schemas.

import { formatNumber, h, playerName, t, words } from "./common.js";

const CARD_FIELD = /card/;
const SEAT_FIELD = /^(player|seat|target|who|partner|other)$/;

/** Legal actions grouped by kind, in the order the game listed them, with the fields that tell them apart. */
export function groupLegal(legal) {
  const groups = new Map();
  for (const action of legal || []) {
    if (!groups.has(action.action)) groups.set(action.action, []);
    groups.get(action.action).push(action);
  }
  return [...groups].map(([kind, actions]) => {
    const fields = [...new Set(actions.flatMap((a) => Object.keys(a)))].filter((k) => k !== "seat" && k !== "action");
    const varying = fields.filter((f) => new Set(actions.map((a) => JSON.stringify(a[f]))).size > 1);
    return { kind, actions, fields, varying };
  });
}

/** Which control a group becomes: a button, a number, tappable cards, a few choices, or selects. */
export function controlType(group, cardFields) {
  if (group.actions.length === 1 || group.varying.length === 0) return "button";
  if (group.varying.some((f) => isCardField(f, cardFields))) return "cards";
  const ints = group.varying.every((f) => group.actions.every((a) => Number.isInteger(a[f])));
  // A handful of options read best as buttons; a long run of numbers (a bid) as a number with − and +.
  if (ints && group.varying.length <= 4 && group.actions.length > 6) return "number";
  if (group.actions.length <= 8) return "choices";
  return "select";
}

export function isCardField(field, cardFields) {
  return cardFields ? cardFields.includes(field) : CARD_FIELD.test(field);
}

/** A value for people: a seat becomes the player's name, numbers are localised, names become words. */
export function valueLabel(ctx, field, value) {
  const custom = ctx.renderer && ctx.renderer.label ? ctx.renderer.label(field, value, ctx.envelope) : undefined;
  if (custom !== undefined && custom !== null) return custom;
  if (SEAT_FIELD.test(field) && Number.isInteger(value)) return playerName(ctx.envelope, value);
  if (typeof value === "number") return formatNumber(value);
  if (typeof value === "boolean") return value ? t("yes") : t("no");
  if (typeof value === "string") return words(value);
  if (Array.isArray(value)) return value.length ? value.map((v) => valueLabel(ctx, field, v)).join(", ") : t("none");
  if (value && typeof value === "object") {
    return Object.entries(value).map(([k, v]) => `${words(k)} ${valueLabel(ctx, k, v)}`).join(", ");
  }
  return String(value);
}

export function kindLabel(ctx, kind) {
  const custom = ctx.renderer && ctx.renderer.kindLabel ? ctx.renderer.kindLabel(kind) : undefined;
  return custom || words(kind);
}

/** The kind with the fields every action of the group shares ("Plant bean · Coffee"). */
function groupTitle(ctx, group) {
  const shared = group.fields.filter((f) => !group.varying.includes(f) && group.actions[0][f] !== undefined);
  const detail = shared.map((f) => valueLabel(ctx, f, group.actions[0][f])).filter((text) => text !== "").join(" · ");
  return detail ? `${kindLabel(ctx, group.kind)} · ${detail}` : kindLabel(ctx, group.kind);
}

function actionLabel(ctx, group, action) {
  const parts = group.varying.length ? group.varying : group.fields;
  const detail = parts.map((f) => valueLabel(ctx, f, action[f])).join(" · ");
  return detail ? `${kindLabel(ctx, group.kind)} · ${detail}` : kindLabel(ctx, group.kind);
}

/**
 * The controls for a seat's legal actions. `ctx` holds the envelope, the game's renderer, `submit(action)`,
 * the selected card (`selection`) and `select(value)`; a renderer may take over a kind with `composers[kind]`.
 */
export function buildControls(groups, ctx) {
  const cardFields = ctx.renderer && ctx.renderer.cardFields;
  const sections = groups.map((group) => {
    const composer = ctx.renderer && ctx.renderer.composers && ctx.renderer.composers[group.kind];
    if (composer) {
      // A composer may draw several kinds at once (an offer's accept, refuse and counter) and return null for
      // the others.
      const body = composer(group, ctx);
      return body ? h("section", { class: "group composed", dataset: { kind: group.kind } }, body) : null;
    }
    const type = controlType(group, cardFields);
    const body = CONTROLS[type](group, ctx, cardFields);
    return h("section", { class: `group ${type}`, dataset: { kind: group.kind, control: type } }, body);
  });
  return sections.filter(Boolean);
}

const CONTROLS = {
  button(group, ctx) {
    const action = group.actions[0];
    return h("button", { class: "act", type: "button", onclick: () => ctx.submit(action) },
      actionLabel(ctx, { ...group, varying: group.fields.filter((f) => action[f] !== undefined) }, action));
  },

  choices(group, ctx) {
    return [
      h("h3", {}, groupTitle(ctx, group)),
      h("div", { class: "choices" }, group.actions.map((action) =>
        h("button", { class: "act", type: "button", onclick: () => ctx.submit(action) },
          group.varying.map((f) => valueLabel(ctx, f, action[f])).join(" · ")))),
    ];
  },

  number(group, ctx) {
    const fields = group.varying;
    const base = { ...group.actions[0] };
    const values = Object.fromEntries(fields.map((f) => [f, group.actions.map((a) => a[f])]));
    const chosen = Object.fromEntries(fields.map((f) => [f, Math.min(...values[f])]));
    const go = h("button", { class: "act primary", type: "button" });
    const refresh = () => {
      const detail = fields.map((f) => (fields.length > 1 ? `${words(f)} ${formatNumber(chosen[f])}` : formatNumber(chosen[f])));
      go.textContent = `${kindLabel(ctx, group.kind)} · ${detail.join(", ")}`;
    };
    const steppers = fields.map((f) => stepper({
      label: words(f), min: Math.min(...values[f]), max: Math.max(...values[f]), value: chosen[f],
      onChange: (v) => {
        chosen[f] = v;
        refresh();
      },
    }));
    go.addEventListener("click", () => {
      const exact = group.actions.find((a) => fields.every((f) => a[f] === chosen[f]));
      // Anything not in the legal list is still sent: the companion answers with the precise reason.
      ctx.submit(exact || { ...base, ...chosen });
    });
    refresh();
    return [h("h3", {}, groupTitle(ctx, group)), steppers, go];
  },

  cards(group, ctx, cardFields) {
    const field = group.varying.find((f) => isCardField(f, cardFields));
    const values = [...new Map(group.actions.map((a) => [JSON.stringify(a[field]), a[field]])).values()];
    const picked = values.find((v) => JSON.stringify(v) === JSON.stringify(ctx.selection));
    // Cards that read the same to people (twenty blue beans in the deck) are one button with a count.
    const alike = new Map();
    for (const value of values) {
      const text = String(valueLabel(ctx, field, value));
      if (!alike.has(text)) alike.set(text, []);
      alike.get(text).push(value);
    }
    const cards = h("div", { class: "cards" }, [...alike.values()].map((same) => {
      const shown = same.find((v) => JSON.stringify(v) === JSON.stringify(picked)) ?? same[0];
      const button = cardButton(ctx, field, shown, JSON.stringify(shown) === JSON.stringify(picked));
      if (same.length > 1) button.append(h("small", { class: "count" }, `×${same.length}`));
      return button;
    }));
    const out = [h("h3", {}, groupTitle(ctx, group)), cards];
    if (picked !== undefined) {
      const matching = group.actions.filter((a) => JSON.stringify(a[field]) === JSON.stringify(picked));
      const rest = group.varying.filter((f) => f !== field);
      out.push(h("div", { class: "confirm" }, matching.map((action) => {
        const detail = rest.map((f) => valueLabel(ctx, f, action[f])).join(" · ");
        const label = `${kindLabel(ctx, group.kind)} · ${valueLabel(ctx, field, picked)}${detail ? " · " + detail : ""}`;
        return h("button", { class: "act primary", type: "button", onclick: () => ctx.submit(action) }, label);
      })));
    }
    return out;
  },

  select(group, ctx) {
    const fields = group.varying;
    const chosen = {};
    const box = h("div", { class: "selects" });
    const go = h("button", { class: "act primary", type: "button" }, kindLabel(ctx, group.kind));
    const draw = () => {
      let candidates = group.actions;
      const rows = fields.map((f) => {
        const options = [...new Map(candidates.map((a) => [JSON.stringify(a[f]), a[f]])).values()];
        if (!options.some((v) => JSON.stringify(v) === JSON.stringify(chosen[f]))) chosen[f] = options[0];
        candidates = candidates.filter((a) => JSON.stringify(a[f]) === JSON.stringify(chosen[f]));
        const select = h("select", { "aria-label": words(f) }, options.map((v, i) =>
          h("option", { value: i, selected: JSON.stringify(v) === JSON.stringify(chosen[f]) }, valueLabel(ctx, f, v))));
        select.addEventListener("change", () => {
          chosen[f] = options[Number(select.value)];
          draw();
        });
        return h("label", { class: "field" }, words(f), select);
      });
      box.replaceChildren(...rows);
      go.onclick = () => candidates.length && ctx.submit(candidates[0]);
    };
    draw();
    return [h("h3", {}, groupTitle(ctx, group)), box, go];
  },
};

/** A whole number with − and + buttons big enough for a thumb; `onChange(value)` on every change. */
export function stepper({ label, min, max, value, onChange }) {
  let current = value;
  const input = h("input", { type: "number", inputmode: "numeric", min, max, step: 1, value, "aria-label": label });
  const set = (v) => {
    current = Math.max(min, Math.min(max, v));
    input.value = current;
    onChange(current);
  };
  input.addEventListener("input", () => {
    const v = parseInt(input.value, 10);
    if (Number.isInteger(v)) {
      current = v;
      onChange(v);
    }
  });
  return h("div", { class: "stepper" },
    h("label", {}, label, h("small", {}, ` ${formatNumber(min)}–${formatNumber(max)}`)),
    h("div", { class: "row" },
      h("button", { class: "step", type: "button", "aria-label": t("less"), onclick: () => set(current - 1) }, "−"),
      input,
      h("button", { class: "step", type: "button", "aria-label": t("more"), onclick: () => set(current + 1) }, "+")));
}

export function cardButton(ctx, field, value, selected) {
  const face = ctx.renderer && ctx.renderer.card ? ctx.renderer.card(value, ctx) : null;
  return h("button", {
    class: "card" + (selected ? " selected" : ""), type: "button", "aria-pressed": selected ? "true" : "false",
    dataset: { card: JSON.stringify(value) },
    onclick: () => ctx.select(selected ? undefined : value),
  }, face || valueLabel(ctx, field, value));
}

/** A form for an action kind from its JSON schema (the host's corrections). */
export function schemaForm(kind, schema, envelope, submit, renderer) {
  const ctx = { envelope, renderer };
  const inputs = {};
  const rows = [];
  for (const [field, spec] of Object.entries(schema.properties || {})) {
    if (field === "seat" || field === "action") continue;
    let input;
    if (SEAT_FIELD.test(field) && spec.type === "integer") {
      input = h("select", {}, (envelope.players || []).map((p) => h("option", { value: p.seat }, p.name)));
      inputs[field] = () => Number(input.value);
    } else if (spec.enum) {
      input = h("select", {}, spec.enum.map((v, i) => h("option", { value: i }, valueLabel(ctx, field, v))));
      inputs[field] = () => spec.enum[Number(input.value)];
    } else if (spec.type === "integer" || spec.type === "number") {
      input = h("input", { type: "number", inputmode: "numeric", value: 0, step: spec.type === "integer" ? 1 : "any" });
      inputs[field] = () => Number(input.value);
    } else if (spec.type === "boolean") {
      input = h("input", { type: "checkbox" });
      inputs[field] = () => input.checked;
    } else if (spec.type === "array") {
      input = h("input", { type: "text", placeholder: t("comma-separated") });
      const numeric = spec.items && spec.items.type === "integer";
      inputs[field] = () => input.value.split(",").map((s) => s.trim()).filter(Boolean).map((s) => (numeric ? Number(s) : s));
    } else {
      input = h("input", { type: "text" });
      inputs[field] = () => input.value;
    }
    rows.push(h("label", { class: "field" }, words(field), input));
  }
  const form = h("form", { class: "schema-form", dataset: { kind } },
    h("h3", {}, schema.description ? t(schema.description) : words(kind)), rows,
    h("button", { class: "act", type: "submit" }, t("Apply")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const action = { seat: "host", action: kind };
    for (const [field, read] of Object.entries(inputs)) action[field] = read();
    submit(action);
  });
  return form;
}
