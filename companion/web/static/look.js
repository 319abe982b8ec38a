// The one look of the games' things: the shared SVG pictograms (/pictograms/…) and each game's names and boards.

import { h, t, words } from "./common.js";

let data = { pictograms: {} };

/** Load the game's look once (pictograms, and its cards, beans or maps by id); the page works without it. */
export async function loadLook(game) {
  if (!game || !/^[a-z0-9_]+$/.test(game)) return data;
  try {
    const response = await fetch(`/look/${game}.json`);
    if (response.ok) data = await response.json();
  } catch (e) {
    // Offline for a moment: names fall back to words, pictures to text.
  }
  return data;
}

export function look() {
  return data;
}

/** A pictogram's name in the page's language ("Black-eyed Bean"), never the machine name. */
export function picName(kind, name) {
  const entry = ((data.pictograms || {})[kind] || {})[name];
  return entry ? t(entry.label) : words(name);
}

/** Its short name where room is tight ("Stink" for the stink bean), else its name; in the page's language. */
export function picShort(kind, name) {
  const entry = ((data.pictograms || {})[kind] || {})[name];
  return entry ? t(entry.short || entry.label) : words(name);
}

export function picColour(kind, name) {
  const entry = ((data.pictograms || {})[kind] || {})[name];
  return entry ? entry.colour : "#888888";
}

/**
 * A pictogram as an image; with `label` its name is written beside it (the picture alone is then decorative),
 * otherwise the image itself carries the name for screen readers. `short` writes its short name where room is tight.
 */
export function pic(kind, name, options = {}) {
  const entry = ((data.pictograms || {})[kind] || {})[name];
  const src = entry ? entry.src : `/pictograms/${kind}/${name}.svg`;
  const labelled = options.label !== false;
  const img = h("img", {
    class: "pic-img", src, alt: labelled ? "" : picName(kind, name), width: options.size || 32,
    height: options.size || 32, draggable: "false", dataset: { pic: `${kind}/${name}` },
  });
  if (!labelled) return img;
  const name_ = options.short ? picShort(kind, name) : picName(kind, name);
  return h("span", { class: `pic ${options.class || ""}`.trim() }, img, h("span", { class: "pic-label" }, name_));
}

// The renderers draw with the look as soon as they are imported (the phone and the host page alike).
await loadLook(document.body.dataset.game);
