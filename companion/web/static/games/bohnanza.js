// Bohnanza on a phone: your fields and hand in order, the face-up cards, offers to answer, and a trade composer
// where you tap the cards you give and the beans you want.

import { h, playerName, t, tn, words } from "../common.js";

const COLOURS = {
  coffee: "#6f4e37", wax: "#e9d98b", blue: "#4a78c2", chili: "#d64541", stink: "#8a9a3b", green: "#5cb85c",
  soy: "#e0c068", black_eyed: "#efe8da", red: "#b03a48", garden: "#9ccf6a", cocoa: "#7b4b2a",
};
const OFFER_KINDS = ["accept_offer", "refuse_offer", "counter_offer", "withdraw_offer"];

// What the trade composer holds while the state stays the same (redraws must not lose a half-built offer).
let draft = null;

function beanOf(card) {
  return String(card).replace(/-\d+$/, "");
}

function beanName(bean) {
  return words(bean);
}

function me(envelope) {
  return (envelope.view && envelope.view.me) || {};
}

function bean(beanId, extra, attrs) {
  return h("span", { class: "bean", style: { "--c": COLOURS[beanId] || "#999" }, ...(attrs || {}) }, beanName(beanId),
    extra ? h("small", {}, " ", extra) : null);
}

function cardFace(card, note) {
  const id = beanOf(card);
  return h("span", { class: "bean-card", style: { "--c": COLOURS[id] || "#999" } }, h("b", {}, beanName(id)),
    note ? h("small", {}, note) : null);
}

function fieldText(field) {
  if (!field || !field.bean) return t("empty");
  return `${beanName(field.bean)} ×${field.count}`;
}

function handBeans(envelope, positions) {
  const hand = me(envelope).hand || [];
  return (positions || []).map((p) => (hand[p] ? beanName(hand[p].bean) : `#${p + 1}`));
}

function offerText(envelope, offer) {
  const gives = [...(offer.give || []).map(beanName), ...(offer.give_face_up || []).map((c) => beanName(beanOf(c)))];
  const wants = [...(offer.want || []).map(beanName), ...(offer.want_face_up || []).map((c) => beanName(beanOf(c)))];
  return t("{from} → {to}: gives {gives}; wants {wants}", {
    from: playerName(envelope, offer.from), to: playerName(envelope, offer.to),
    gives: gives.length ? gives.join(", ") : t("nothing"), wants: wants.length ? wants.join(", ") : t("nothing"),
  });
}

function findOffer(envelope, id) {
  return ((envelope.view && envelope.view.offers) || []).find((o) => o.id === id);
}

// -- the table part ---------------------------------------------------------------------------------
function render(envelope, ctx) {
  const view = envelope.view;
  const mine = me(envelope);
  const parts = [];
  if (envelope.seat !== null && envelope.seat !== undefined) {
    const plantable = new Set((envelope.legal || []).filter((a) => a.action === "plant_bean").map((a) => a.card));
    parts.push(h("section", { class: "bn-fields" }, h("h2", {}, t("Your fields")),
      h("div", { class: "fields" }, (mine.fields || []).map((field, i) => h("div", { class: "field-box" + (field.bean ? "" : " empty") },
        h("small", {}, t("Field {n}", { n: i + 1 })),
        field.bean ? bean(field.bean, `×${field.count}`) : h("span", { class: "muted" }, t("empty")),
        field.bean ? h("small", {}, t("pays {coins} now", { coins: field.pays_now || 0 })) : null,
        field.next ? h("small", {}, t("{beans} for {coins}", { beans: field.next.beans, coins: field.next.coins })) : null)))));
    const hand = mine.hand || [];
    parts.push(h("section", { class: "hand" },
      h("h2", {}, t("Your hand"), " ", h("small", {}, tn("{count} card", hand.length))),
      h("p", { class: "muted" }, t("Front first: the front card is planted first.")),
      hand.length ? h("div", { class: "cards" }, hand.map((card) => {
        const usable = plantable.has(card.card);
        const selected = usable && ctx.selection === card.card;
        return h(usable ? "button" : "div", {
          class: "card" + (usable ? "" : " idle") + (selected ? " selected" : "") + (card.front ? " front" : ""),
          type: usable ? "button" : null, dataset: { card: JSON.stringify(card.card) },
          onclick: usable ? () => ctx.select(selected ? undefined : card.card) : null,
        }, cardFace(card.card, card.front ? t("front") : null));
      })) : h("p", { class: "muted" }, t("No cards"))));
  }
  if (view.face_up && view.face_up.length) {
    parts.push(h("section", {}, h("h2", {}, t("Face up")), h("div", { class: "cards" },
      view.face_up.map((c) => h("div", { class: "card idle" }, cardFace(c.card))))));
  }
  if ((view.offers || []).length) {
    parts.push(h("section", {}, h("h2", {}, t("Offers")), h("ul", { class: "offers" },
      view.offers.map((o) => h("li", {}, offerText(envelope, o), o.gift ? h("small", {}, " ", t("(a gift)")) : null)))));
  }
  parts.push(h("section", {}, h("h2", {}, t("The table")), h("table", { class: "players" },
    h("thead", {}, h("tr", {}, h("th", {}, t("Player")), h("th", {}, t("Coins")), h("th", {}, t("Hand")), h("th", {}, t("Fields")))),
    h("tbody", {}, (view.players || []).map((p) => h("tr", { class: (p.active ? "current" : "") + (p.seat === envelope.seat ? " me" : "") },
      h("th", { scope: "row" }, h("span", { class: "dot", style: { "--c": (envelope.players[p.seat] || {}).colour } }), playerName(envelope, p.seat)),
      h("td", {}, String(p.coins)), h("td", {}, String(p.hand_size)),
      h("td", {}, (p.fields || []).map(fieldText).join(" · "))))))));
  const facts = [
    t("Deck: {count}", { count: view.deck_size }),
    t("Discards: {count}", { count: view.discard_size }),
    t("Deck run out {done} of {limit} times", { done: view.exhaustions, limit: view.exhaustions_to_end }),
  ];
  if (view.last_turn) facts.push(t("Last turn!"));
  parts.push(h("p", { class: "muted" }, facts.join(" · ")));
  return parts;
}

// -- actions -----------------------------------------------------------------------------------------
function label(field, value, envelope) {
  if (field === "card") return beanName(beanOf(value));
  if (field === "field") {
    const fields = me(envelope).fields || [];
    return `${t("Field {n}", { n: value + 1 })} (${fieldText(fields[value])})`;
  }
  if (field === "to") return playerName(envelope, value);
  if (field === "give") return handBeans(envelope, value).join(", ") || t("nothing");
  if (field === "want") return value.length ? value.map(beanName).join(", ") : t("nothing");
  if (field === "give_face_up" || field === "want_face_up") return value.length ? value.map((c) => beanName(beanOf(c))).join(", ") : t("nothing");
  if (field === "offer") {
    const offer = findOffer(envelope, value);
    return offer ? offerText(envelope, offer) : String(value);
  }
  return undefined;
}

function chipToggle(text, on, onclick, colour) {
  return h("button", { type: "button", class: "chip" + (on ? " on" : ""), "aria-pressed": on ? "true" : "false",
    style: colour ? { "--c": colour } : null, onclick }, text);
}

function composer(envelope, ctx, mode, offer) {
  const legal = envelope.legal || [];
  const mine = me(envelope);
  const key = `${envelope.state_id}:${mode}:${offer ? offer.id : ""}`;
  if (!draft || draft.key !== key) {
    draft = { key, to: null, give: [], giveFaceUp: [], want: {}, wantFaceUp: [] };
  }
  const partners = mode === "counter" ? [offer.from]
    : [...new Set(legal.filter((a) => a.action === "offer_trade").map((a) => a.to))];
  if (draft.to === null || !partners.includes(draft.to)) draft.to = partners[0];
  const iAmActive = envelope.view.active === envelope.seat;
  const partnerActive = envelope.view.active === draft.to;
  // The beans in this game are the ones the rules let you ask for; every bean when no example says.
  const offered = [...new Set(legal.flatMap((a) => a.want || []))];
  const beans = offered.length ? offered : Object.keys(COLOURS);
  const box = h("div", { class: "composer" });
  const redraw = () => box.replaceChildren(...body());
  const toggle = (list, value) => {
    const i = list.indexOf(value);
    if (i >= 0) list.splice(i, 1);
    else list.push(value);
    redraw();
  };
  const body = () => {
    const wantList = Object.entries(draft.want).flatMap(([b, n]) => Array(n).fill(b));
    const action = {
      seat: envelope.seat, action: mode === "counter" ? "counter_offer" : "offer_trade",
      ...(mode === "counter" ? { offer: offer.id } : { to: draft.to }),
      give: [...draft.give].sort((a, b) => a - b), give_face_up: draft.giveFaceUp, want: wantList, want_face_up: draft.wantFaceUp,
    };
    const empty = !action.give.length && !action.give_face_up.length && !action.want.length && !action.want_face_up.length;
    return [
      h("h3", {}, mode === "counter" ? t("Counter the offer of {name}", { name: playerName(envelope, offer.from) }) : t("Offer a trade")),
      mode === "counter" ? null : h("div", { class: "chips" }, partners.map((p) => chipToggle(playerName(envelope, p), p === draft.to, () => {
        draft.to = p;
        draft.wantFaceUp = [];
        redraw();
      }))),
      h("p", { class: "muted" }, t("Tap what you give:")),
      h("div", { class: "chips" }, (mine.hand || []).map((c) => chipToggle(beanName(c.bean), draft.give.includes(c.position),
        () => toggle(draft.give, c.position), COLOURS[c.bean])),
      iAmActive ? (envelope.view.face_up || []).map((c) => chipToggle(`${beanName(c.bean)} ↑`, draft.giveFaceUp.includes(c.card),
        () => toggle(draft.giveFaceUp, c.card), COLOURS[c.bean])) : null),
      h("p", { class: "muted" }, t("Tap what you want (tap again for more):")),
      h("div", { class: "chips" }, beans.map((b) => chipToggle(draft.want[b] ? `${beanName(b)} ×${draft.want[b]}` : beanName(b), Boolean(draft.want[b]), () => {
        draft.want[b] = ((draft.want[b] || 0) + 1) % 4;
        if (!draft.want[b]) delete draft.want[b];
        redraw();
      }, COLOURS[b])),
      partnerActive ? (envelope.view.face_up || []).map((c) => chipToggle(`${beanName(c.bean)} ↑`, draft.wantFaceUp.includes(c.card),
        () => toggle(draft.wantFaceUp, c.card), COLOURS[c.bean])) : null),
      h("button", { type: "button", class: "act primary", disabled: empty, onclick: () => ctx.submit(action) },
        mode === "counter" ? t("Send the counter-offer") : t("Offer to {name}", { name: playerName(envelope, draft.to) })),
    ];
  };
  redraw();
  return box;
}

function offersPanel(group, ctx) {
  const envelope = ctx.envelope;
  const legal = envelope.legal || [];
  // One panel for every kind of answer; it is drawn for the first such kind in the list only.
  const first = legal.find((a) => OFFER_KINDS.includes(a.action));
  if (!first || first.action !== group.kind) return null;
  const ids = [...new Set(legal.filter((a) => OFFER_KINDS.includes(a.action)).map((a) => a.offer))];
  return [h("h3", {}, t("Offers")), ids.map((id) => {
    const offer = findOffer(envelope, id);
    const mineFor = (kind) => legal.filter((a) => a.action === kind && a.offer === id);
    const buttons = [
      ...mineFor("accept_offer").map((a) => h("button", { type: "button", class: "act primary", onclick: () => ctx.submit(a) },
        a.give && a.give.length ? t("Accept, giving {cards}", { cards: handBeans(envelope, a.give).join(", ") }) : t("Accept"))),
      ...mineFor("refuse_offer").map((a) => h("button", { type: "button", class: "act", onclick: () => ctx.submit(a) }, t("Refuse"))),
      ...mineFor("withdraw_offer").map((a) => h("button", { type: "button", class: "act", onclick: () => ctx.submit(a) }, t("Take back"))),
    ];
    const counter = mineFor("counter_offer").length && offer ? h("details", { class: "counter" },
      h("summary", {}, t("Counter…")), composer(envelope, ctx, "counter", offer)) : null;
    return h("div", { class: "offer" }, h("p", {}, offer ? offerText(envelope, offer) : `#${id}`), buttons, counter);
  })];
}

function hints(hintData, ctx) {
  const lines = [];
  if (hintData.must_harvest) lines.push(h("p", { class: "warn" }, t("You must harvest a field before you can plant.")));
  if ((hintData.collecting || []).length) lines.push(h("p", {}, t("You are collecting: {beans}", { beans: hintData.collecting.map(beanName).join(", ") })));
  if ((hintData.wanted_face_up || []).length) {
    lines.push(h("p", {}, t("Face-up cards that fit your fields: {beans}", { beans: hintData.wanted_face_up.map((c) => beanName(beanOf(c))).join(", ") })));
  }
  if ((hintData.spare_positions || []).length) {
    lines.push(h("p", {}, t("Cards you could trade away: {beans}", { beans: handBeans(ctx.envelope, hintData.spare_positions).join(", ") })));
  }
  if (hintData.best_harvest !== null && hintData.best_harvest !== undefined) {
    lines.push(h("p", {}, t("Best field to harvest: {n}", { n: hintData.best_harvest + 1 })));
  }
  return lines.length ? lines : null;
}

export default {
  cardFields: ["card"],
  label,
  card: (value) => cardFace(value),
  render,
  hints,
  composers: {
    offer_trade: (group, ctx) => composer(ctx.envelope, ctx, "offer", null),
    accept_offer: offersPanel,
    refuse_offer: offersPanel,
    counter_offer: offersPanel,
    withdraw_offer: offersPanel,
  },
};
