// Bohnanza on a phone: your fields and your hand in order (the front card and what planting it does), the face-up
// cards, offers drawn as cards with Accept / Refuse / Counter, a trade composer (tap the cards you give and the beans
// you want), harvests that say what they pay, and "End trading" at the bottom, confirmed while offers are open.

import { clear, formatNumber, h, playerName, setArgWords, t, tn } from "../common.js";
import { look, pic, picName, picShort } from "../look.js";

/** Draw the page again (the phone page's redraw; the host page redraws when a selection is set). */
function redraw(ctx) {
  if (ctx.redraw) ctx.redraw();
  else if (ctx.select) ctx.select(ctx.selection);
}

const OFFER_KINDS = ["accept_offer", "refuse_offer", "counter_offer", "withdraw_offer"];

// What the trade composer holds while the state stays the same (redraws must not lose a half-built offer).
let draft = null;
// Which offer is being countered (its composer open), and whether "End trading" asks first.
let countering = null;
let confirmEnd = null;

function beanOf(card) {
  return String(card).replace(/-\d+$/, "");
}

function beanName(bean) {
  return picName("bean", bean);
}

function me(envelope) {
  return (envelope.view && envelope.view.me) || {};
}

function isMe(envelope, seat) {
  return seat === envelope.seat;
}

/** A bean as its pictogram and name, with an optional note ("×3", "face-up"). */
function bean(beanId, note, extra) {
  return h("span", { class: `bean ${extra || ""}`.trim() }, pic("bean", beanId), note ? h("small", {}, " ", note) : null);
}

/** A bean card: the pictogram on the bean's colour band, its name and a note. */
function cardFace(card, note) {
  const id = beanOf(card);
  return h("span", { class: "bean-card" }, pic("bean", id, { label: false }), h("b", {}, beanName(id)),
    note ? h("small", {}, note) : null);
}

/** The beans of one side of an offer, each card once: hand cards, then the face-up ones marked as such. */
function sideCards(all, faceUp) {
  const rest = [...(all || [])];
  for (const card of faceUp || []) {
    const i = rest.indexOf(beanOf(card));
    if (i >= 0) rest.splice(i, 1);
  }
  return [...rest.map((b) => ({ bean: b, faceUp: false })), ...(faceUp || []).map((c) => ({ bean: beanOf(c), faceUp: true }))];
}

function sideList(items) {
  if (!items.length) return h("p", { class: "muted" }, t("nothing"));
  return h("ul", { class: "side" }, items.map((item) => h("li", {},
    bean(item.bean, item.faceUp ? `↑ ${t("face-up")}` : null, item.faceUp ? "face-up" : ""))));
}

function offerWords(envelope, offer) {
  const gives = sideCards(offer.give, offer.give_face_up).map((x) => beanName(x.bean));
  const wants = sideCards(offer.want, offer.want_face_up).map((x) => beanName(x.bean));
  return t("{gives} for {wants}", {
    gives: gives.length ? gives.join(", ") : t("nothing"), wants: wants.length ? wants.join(", ") : t("nothing"),
  });
}

/** An offer drawn as a card: who gives what to whom; face-up cards marked and explained. */
function offerCard(envelope, offer, buttons) {
  const from = playerName(envelope, offer.from);
  const to = playerName(envelope, offer.to);
  const title = isMe(envelope, offer.from) ? t("Your offer to {name}", { name: to })
    : isMe(envelope, offer.to) ? t("{name} offers you", { name: from }) : t("{from} offers {to}", { from, to });
  const faceUp = (offer.give_face_up || []).length || (offer.want_face_up || []).length;
  return h("article", { class: "offer-card", dataset: { offer: String(offer.id) }, "aria-label": title },
    h("h4", {}, title, offer.gift ? h("small", {}, " · ", t("a gift")) : null),
    h("div", { class: "sides" },
      h("div", { class: "gives" }, h("h5", {}, isMe(envelope, offer.from) ? t("You give") : t("{name} gives", { name: from })),
        sideList(sideCards(offer.give, offer.give_face_up))),
      h("div", { class: "gets" }, h("h5", {}, isMe(envelope, offer.to) ? t("You give") : t("{name} gives", { name: to })),
        sideList(sideCards(offer.want, offer.want_face_up)))),
    faceUp ? h("p", { class: "muted explain" }, t("↑ face-up: a card turned up on the table this turn, not from a hand.")) : null,
    buttons || null);
}

function findOffer(envelope, id) {
  return ((envelope.view && envelope.view.offers) || []).find((o) => o.id === id) ||
    (me(envelope).offers || []).find((o) => o.id === id);
}

/** Where the front card goes and what it does (the field it joins or starts, or that a harvest must come first). */
function plantingNote(envelope, beanId) {
  const fields = me(envelope).fields || [];
  const same = fields.findIndex((f) => f.bean === beanId);
  if (same >= 0) return t("joins field {n} (×{before} → ×{after})", { n: same + 1, before: fields[same].count, after: fields[same].count + 1 });
  const empty = fields.findIndex((f) => !f.bean);
  if (empty >= 0) return t("starts field {n}", { n: empty + 1 });
  return t("no field fits: harvest one first");
}

// -- the table part ---------------------------------------------------------------------------------
function render(envelope, ctx) {
  const view = envelope.view;
  const mine = me(envelope);
  const parts = [];
  if (envelope.seat !== null && envelope.seat !== undefined) {
    parts.push(h("section", { class: "bn-fields" }, h("h2", {}, t("Your fields")),
      h("div", { class: "fields" }, (mine.fields || []).map((field, i) => h("div", { class: "field-box" + (field.bean ? "" : " empty") },
        h("small", {}, t("Field {n}", { n: i + 1 })),
        field.bean ? bean(field.bean, `×${formatNumber(field.count)}`) : h("span", { class: "muted" }, t("empty")),
        field.bean ? h("small", {}, tn("pays {count} coin now", field.pays_now || 0)) : null,
        field.next ? h("small", {}, tn("{beans} for {count} coin", field.next.coins, { beans: field.next.beans })) : null)))));
    const hand = mine.hand || [];
    parts.push(h("section", { class: "hand bn-hand" },
      h("h2", {}, t("Your hand"), " ", h("small", {}, tn("{count} card", hand.length))),
      hand.length ? h("ol", { class: "hand-row" }, hand.map((card, i) => h("li", { class: "card idle" + (card.front ? " front" : ""), dataset: { card: card.card } },
        h("small", { class: "pos" }, i === 0 ? t("front") : formatNumber(i + 1)), cardFace(card.card)))) : h("p", { class: "muted" }, t("No cards")),
      hand.length ? h("p", { class: "front-note" }, t("Front card: {bean}, planted next; it {what}.", {
        bean: beanName(hand[0].bean), what: plantingNote(envelope, hand[0].bean) })) : null));
  }
  if (view.face_up && view.face_up.length) {
    parts.push(h("section", { class: "bn-face-up" }, h("h2", {}, t("Face up")),
      h("p", { class: "muted" }, t("Turned up this turn: the active player trades them or plants them.")),
      h("div", { class: "cards" }, view.face_up.map((c) => h("div", { class: "card idle" }, cardFace(c.card))))));
  }
  const offers = (view.offers || []).filter((o) => !(isMe(envelope, o.from) || isMe(envelope, o.to)));
  if (offers.length) {
    parts.push(h("section", { class: "bn-offers" }, h("h2", {}, t("Other offers")), offers.map((o) => offerCard(envelope, o))));
  }
  parts.push(h("section", {}, h("h2", {}, t("The table")), h("table", { class: "players" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Player")), h("th", { scope: "col" }, t("Coins")),
      h("th", { scope: "col" }, t("Hand")), h("th", { scope: "col" }, t("Fields")))),
    h("tbody", {}, (view.players || []).map((p) => h("tr", { class: (p.active ? "current" : "") + (p.seat === envelope.seat ? " me" : "") },
      h("th", { scope: "row" }, h("span", { class: "dot", style: { "--c": (envelope.players[p.seat] || {}).colour } }), playerName(envelope, p.seat)),
      h("td", {}, formatNumber(p.coins)), h("td", {}, formatNumber(p.hand_size)),
      h("td", { class: "field-beans" }, (p.fields || []).map((f) => (f.bean ? bean(f.bean, `×${formatNumber(f.count)}`) : h("span", { class: "muted" }, "–"))))))))));
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
function fieldText(field) {
  if (!field || !field.bean) return t("empty");
  return `${beanName(field.bean)} ×${formatNumber(field.count)}`;
}

function label(field, value, envelope) {
  if (field === "card") return beanName(beanOf(value));
  if (field === "bean") return beanName(value);
  if (field === "field") {
    const fields = me(envelope).fields || [];
    return `${t("Field {n}", { n: value + 1 })} (${fieldText(fields[value])})`;
  }
  if (field === "to") return playerName(envelope, value);
  if (field === "give") {
    const hand = me(envelope).hand || [];
    return (value || []).map((p) => (hand[p] ? beanName(hand[p].bean) : formatNumber(p + 1))).join(", ") || t("nothing");
  }
  if (field === "want") return value.length ? value.map(beanName).join(", ") : t("nothing");
  if (field === "give_face_up" || field === "want_face_up") return value.length ? value.map((c) => beanName(beanOf(c))).join(", ") : t("nothing");
  if (field === "offer") {
    const offer = findOffer(envelope, value);
    return offer ? offerWords(envelope, offer) : t("an offer");
  }
  return undefined;
}

function chip(content, on, onclick, attrs) {
  return h("button", { type: "button", class: "chip" + (on ? " on" : ""), "aria-pressed": on ? "true" : "false", onclick, ...(attrs || {}) }, content);
}

function handPositionsFor(envelope, beans) {
  const hand = me(envelope).hand || [];
  const used = new Set();
  const out = [];
  for (const b of beans) {
    const found = hand.find((c) => c.bean === b && !used.has(c.position));
    if (found) {
      used.add(found.position);
      out.push(found.position);
    }
  }
  return out;
}

/** The composer of an offer, or of a counter-offer that starts from the offer it answers. */
function composer(envelope, ctx, mode, offer) {
  const legal = envelope.legal || [];
  const mine = me(envelope);
  const key = `${envelope.state_id}:${mode}:${offer ? offer.id : ""}`;
  if (!draft || draft.key !== key) {
    draft = { key, to: null, give: [], giveFaceUp: [], want: {}, wantFaceUp: [] };
    if (mode === "counter" && offer) {
      // The counter starts from the offer turned round: you give what they asked for, you get what they gave.
      const theyWant = sideCards(offer.want, offer.want_face_up);
      const theyGive = sideCards(offer.give, offer.give_face_up);
      draft.give = handPositionsFor(envelope, theyWant.filter((x) => !x.faceUp).map((x) => x.bean));
      draft.giveFaceUp = [...(offer.want_face_up || [])];
      for (const x of theyGive.filter((y) => !y.faceUp)) draft.want[x.bean] = (draft.want[x.bean] || 0) + 1;
      draft.wantFaceUp = [...(offer.give_face_up || [])];
    }
  }
  const partners = mode === "counter" ? [offer.from]
    : [...new Set(legal.filter((a) => a.action === "offer_trade").map((a) => a.to))];
  if (draft.to === null || !partners.includes(draft.to)) draft.to = partners[0];
  const iAmActive = envelope.view.active === envelope.seat;
  const partnerActive = envelope.view.active === draft.to;
  const beans = Object.keys(look().beans || {}).length ? Object.keys(look().beans) : [...new Set(legal.flatMap((a) => a.want || []))];
  const box = h("div", { class: "composer" });
  const redraw = () => clear(box, body());
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
      h("div", { class: "composer-head" },
        h("h3", {}, mode === "counter" ? t("Counter the offer of {name}", { name: playerName(envelope, offer.from) }) : t("Offer a trade")),
        mode === "counter" || partners.length < 2 ? null : h("div", { class: "chips partners", role: "group", "aria-label": t("Trade with") },
          partners.map((p) => chip(playerName(envelope, p), p === draft.to, () => {
            draft.to = p;
            draft.wantFaceUp = [];
            redraw();
          }, { dataset: { partner: String(p) } })))),
      h("p", { class: "muted" }, t("You give (tap your cards):")),
      h("div", { class: "chips give", role: "group", "aria-label": t("You give") },
        (mine.hand || []).map((c) => chip([pic("bean", c.bean, { short: true }), c.front ? h("small", {}, " ", t("front")) : null], draft.give.includes(c.position),
          () => toggle(draft.give, c.position), { dataset: { position: String(c.position) } })),
        iAmActive ? (envelope.view.face_up || []).map((c) => chip([pic("bean", c.bean, { short: true }), h("small", {}, " ↑ ", t("face-up"))], draft.giveFaceUp.includes(c.card),
          () => toggle(draft.giveFaceUp, c.card), { dataset: { faceUp: c.card } })) : null),
      h("p", { class: "muted" }, t("You get (tap a bean again for more):")),
      h("div", { class: "chips want", role: "group", "aria-label": t("You get") },
        beans.map((b) => chip([pic("bean", b, { short: true }), draft.want[b] ? h("b", {}, ` ×${formatNumber(draft.want[b])}`) : null], Boolean(draft.want[b]), () => {
          draft.want[b] = ((draft.want[b] || 0) + 1) % 4;
          if (!draft.want[b]) delete draft.want[b];
          redraw();
        }, { dataset: { bean: b } })),
        partnerActive ? (envelope.view.face_up || []).map((c) => chip([pic("bean", c.bean, { short: true }), h("small", {}, " ↑ ", t("face-up"))], draft.wantFaceUp.includes(c.card),
          () => toggle(draft.wantFaceUp, c.card), { dataset: { faceUp: c.card } })) : null),
      h("button", { type: "button", class: "act primary send", disabled: empty, onclick: () => ctx.submit(action) },
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
    const hand = me(envelope).hand || [];
    // Ways to accept that give the same beans read the same: one button each (the engine's first choice).
    const accepts = [...new Map(mineFor("accept_offer").map((a) => [JSON.stringify((a.give || []).map((p) => (hand[p] || {}).bean).sort()), a])).values()];
    const buttons = h("div", { class: "answers" },
      accepts.map((a) => h("button", { type: "button", class: "act primary accept", onclick: () => ctx.submit(a) },
        accepts.length > 1 && a.give && a.give.length
          ? t("Accept, giving {cards}", { cards: a.give.map((p) => beanName((hand[p] || {}).bean)).join(", ") })
          : t("Accept"))),
      mineFor("refuse_offer").map((a) => h("button", { type: "button", class: "act refuse", onclick: () => ctx.submit(a) }, t("Refuse"))),
      mineFor("counter_offer").length && offer ? h("button", { type: "button", class: "act counter", "aria-expanded": countering === id ? "true" : "false",
        onclick: () => {
          countering = countering === id ? null : id;
          redraw(ctx);
        } }, t("Counter")) : null,
      mineFor("withdraw_offer").map((a) => h("button", { type: "button", class: "act withdraw", onclick: () => ctx.submit(a) }, t("Take back"))));
    return h("div", { class: "offer" }, offer ? offerCard(envelope, offer, buttons) : buttons,
      countering === id && offer ? composer(envelope, ctx, "counter", offer) : null);
  })];
}

function endTradingPanel(group, ctx) {
  const envelope = ctx.envelope;
  const action = group.actions[0];
  const open = ((envelope.view && envelope.view.offers) || []).length;
  const key = String(envelope.state_id);
  if (!open || confirmEnd === key) {
    if (open) {
      return h("div", { class: "confirm", role: "alertdialog", "aria-label": t("End trading?") },
        h("p", { class: "warn" }, tn("{count} offer is still open. End trading anyway?", open)),
        h("button", { type: "button", class: "act primary", onclick: () => {
          confirmEnd = null;
          redraw(ctx);
        } }, t("Keep trading")),
        h("button", { type: "button", class: "act end-trading-anyway", onclick: () => {
          confirmEnd = null;
          ctx.submit(action);
        } }, t("End trading anyway")));
    }
    return h("button", { type: "button", class: "act end-trading", onclick: () => ctx.submit(action) }, t("End trading"));
  }
  return h("button", { type: "button", class: "act end-trading", onclick: () => {
    confirmEnd = key;
    redraw(ctx);
  } }, t("End trading"));
}

function harvestPanel(group, ctx) {
  const fields = me(ctx.envelope).fields || [];
  return [h("h3", {}, t("Harvest")), h("div", { class: "harvests" }, group.actions.map((a) => {
    const f = fields[a.field] || {};
    return h("button", { type: "button", class: "act harvest", onclick: () => ctx.submit(a) },
      t("Field {n}", { n: a.field + 1 }), ": ", f.bean ? bean(f.bean, `×${formatNumber(f.count)}`) : t("empty"), " → ",
      h("b", {}, tn("{count} coin", f.pays_now || 0)));
  }))];
}

function plantPanel(group, ctx) {
  const envelope = ctx.envelope;
  const fields = me(envelope).fields || [];
  return [h("h3", {}, t("Plant")), group.actions.map((a) => {
    const b = beanOf(a.card);
    const f = fields[a.field] || {};
    const result = f.bean ? t("field {n}: ×{before} → ×{after}", { n: a.field + 1, before: f.count, after: f.count + 1 })
      : t("field {n}: a new field", { n: a.field + 1 });
    return h("button", { type: "button", class: "act plant", onclick: () => ctx.submit(a) }, bean(b), " → ", result);
  })];
}

function hints(hintData, ctx) {
  const lines = [];
  if (hintData.must_harvest) lines.push(h("p", { class: "warn" }, t("You must harvest a field before you can plant.")));
  if ((hintData.collecting || []).length) lines.push(h("p", {}, t("You are collecting:"), " ", hintData.collecting.map((b) => bean(b))));
  if ((hintData.wanted_face_up || []).length) {
    lines.push(h("p", {}, t("Face-up cards that fit your fields:"), " ", hintData.wanted_face_up.map((c) => bean(beanOf(c)))));
  }
  if ((hintData.spare_positions || []).length) {
    const hand = me(ctx.envelope).hand || [];
    lines.push(h("p", {}, t("Cards you could trade away:"), " ", hintData.spare_positions.filter((p) => hand[p]).map((p) => bean(hand[p].bean))));
  }
  if (hintData.best_harvest !== null && hintData.best_harvest !== undefined) {
    lines.push(h("p", {}, t("Best field to harvest: {n}", { n: hintData.best_harvest + 1 })));
  }
  return lines.length ? lines : null;
}

/** Log arguments in words: beans by their names, an offer by what it traded. */
function argWords(key, value) {
  // A lone {bean} stands before the word "bean" in its templates ("planted a {bean} bean"): the short name.
  if (key === "bean" && typeof value === "string" && look().beans && look().beans[value]) return picShort("bean", value);
  if ((key === "beans" || key === "give" || key === "want" || key === "kept") && look().beans) {
    if (typeof value === "string" && look().beans[value]) return beanName(value);
    if (Array.isArray(value) && value.every((v) => typeof v === "string" && look().beans[v])) {
      return value.length ? value.map(beanName).join(", ") : t("nothing");
    }
  }
  if (key === "card" && typeof value === "string" && look().beans && look().beans[beanOf(value)]) return beanName(beanOf(value));
  return undefined;
}

export default {
  cardFields: ["card"],
  label,
  card: (value) => cardFace(value),
  render,
  hints,
  argWords,
  composers: {
    offer_trade: (group, ctx) => composer(ctx.envelope, ctx, "offer", null),
    accept_offer: offersPanel,
    refuse_offer: offersPanel,
    counter_offer: offersPanel,
    withdraw_offer: offersPanel,
    end_trading: endTradingPanel,
    harvest: harvestPanel,
    plant_bean: plantPanel,
  },
};

// Any page that draws this game (the phone, the host page) words its log the same way.
setArgWords(argWords);
