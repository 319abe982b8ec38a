"""A guided enrolment of a deck: each card named in turn, its tag taken from the reader, kept so it resumes.

The host page and `companion tags enroll` walk the same `Enrolment`: "Tap Chili Bean 3 of 18 (21 of 154)". A tap
enrols the tag on the card asked for and moves on; a tag that already belongs to another card is refused and
nothing changes, with the offer to move it to this card (OK on the controller, "Re-assign" on the page) or to skip
this card (BACK). UNDO takes back the last step (the card is asked for again, and whatever that step replaced comes
back). Every step is one transaction in the store, so an enrolment interrupted at any point resumes where it was.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

from companion.core.errors import NotAllowed
from companion.core.game import Game
from companion.core.registry import get_game
from companion.core.words import Words
from companion.i18n import N_
from companion.store.db import Store, normalise_uid

PROMPT = N_("Tap {card} ({n} of {total})")
ENROLLED = N_("{card}: tag {uid} enrolled")
ALREADY = N_("{card}: this tag was already its own")
CONFLICT = N_("Tag {uid} is already {other}: press OK to move it to {card}, BACK to skip {card}, or tap another tag")
MOVED = N_("Tag {uid} moved from {other} to {card}")
SKIPPED = N_("{card} skipped")
UNDONE = N_("Took back {card}: tap it again")
NOTHING_TO_UNDO = N_("Nothing to take back yet")
NO_CONFLICT = N_("There is no tag to re-assign: tap the card's tag first")
FINISHED = N_("Every card has been asked for: {enrolled} enrolled, {skipped} skipped")
WRITE_FAILED = N_("{card}: enrolled, but writing the card id onto the tag failed (it still works here)")

Kind = Literal["enrolled", "already", "conflict", "moved", "skipped", "undone", "refused", "finished"]


@dataclasses.dataclass(frozen=True)
class Said:
    """What an enrolment step answers: whether it was taken, and a message (template and params, English text)."""

    ok: bool
    kind: Kind
    template: str
    params: dict[str, Any]

    @property
    def text(self) -> str:
        return str(Words(self.template, self.params))

    def to_json(self) -> dict[str, Any]:
        # The cards in params are Words: the page says them in its language, `text` is the English.
        return {"ok": self.ok, "kind": self.kind, **Words(self.template, self.params).to_json(), "text": self.text}


class Enrolment:
    """One game's deck being enrolled; every change is saved before it returns."""

    def __init__(self, store: Store, game: Game[Any], state: dict[str, Any]) -> None:
        self.store = store
        self.game = game
        self.cards: list[str] = list(state["cards"])
        # Each step: {"card", "uid" (None: skipped), "replaced" (the card's old tag), "moved_from" ([game, card])}.
        self.steps: list[dict[str, Any]] = list(state.get("steps", []))
        self.write: bool = bool(state.get("write", False))
        # A tag refused because it is another card's, kept so "re-assign" can move it: {"uid", "game", "card"}.
        self.pending: dict[str, str] | None = state.get("pending")

    # -- starting and resuming --------------------------------------------------------------------
    @classmethod
    def start(cls, store: Store, game_name: str, cards: list[str] | None = None, *, write: bool = False,
              restart: bool = False, missing_only: bool = True) -> Enrolment:
        """The enrolment of `game_name` in progress (unless `restart`), else a new one over `cards` (default: the
        game's deck in its order, without the cards that already have a tag when `missing_only`)."""
        game = get_game(game_name)
        found = None if restart else store.enrolment(game.name)
        if found is not None:
            enrolment = cls(store, game, found)
            if write and not enrolment.write:
                enrolment.write = True
                enrolment._save()
            return enrolment
        deck = list(game.cards())
        if not deck:
            raise NotAllowed("{game} has no physical cards to tag", game=game.name)
        wanted = list(cards) if cards is not None else deck
        unknown = [c for c in wanted if c not in deck]
        if unknown:
            raise NotAllowed("{game} has no card {cards}", game=game.name, cards=", ".join(unknown))
        if missing_only and cards is None:
            tagged = set(store.tags(game.name).values())
            wanted = [c for c in wanted if c not in tagged]
        enrolment = cls(store, game, {"cards": wanted, "steps": [], "write": write})
        enrolment._save()
        return enrolment

    @classmethod
    def resume(cls, store: Store, game_name: str) -> Enrolment | None:
        found = store.enrolment(game_name)
        return None if found is None else cls(store, get_game(game_name), found)

    # -- where it is --------------------------------------------------------------------------------
    @property
    def current(self) -> str | None:
        """The card to tap now; None once every card has been asked for."""
        return self.cards[len(self.steps)] if len(self.steps) < len(self.cards) else None

    @property
    def done(self) -> bool:
        return self.current is None

    def label(self, card: str) -> Words:
        return self.game.card_words(card)

    def prompt(self) -> Said:
        card = self.current
        if card is None:
            return self.finished()
        return Said(True, "enrolled", PROMPT, {"card": self.label(card), "n": len(self.steps) + 1,
                                               "total": len(self.cards)})

    def counts(self) -> tuple[int, int]:
        """Cards asked for that hold the tag they were given now (a tag moved on later no longer counts), and
        cards skipped."""
        tags = self.store.tags(self.game.name)
        enrolled = sum(1 for s in self.steps if s["uid"] is not None and tags.get(s["uid"]) == s["card"])
        return enrolled, sum(1 for s in self.steps if s["uid"] is None)

    def finished(self) -> Said:
        enrolled, skipped = self.counts()
        return Said(True, "finished", FINISHED, {"enrolled": enrolled, "skipped": skipped})

    def view(self) -> dict[str, Any]:
        """The enrolment as the host page shows it."""
        card = self.current
        last = self.steps[-1] if self.steps else None
        enrolled, skipped = self.counts()
        return {
            "game": self.game.name, "title": self.game.title, "write": self.write,
            "card": card, **_labelled(self.label(card) if card else None),
            "n": min(len(self.steps) + 1, len(self.cards)), "total": len(self.cards), "asked": len(self.steps),
            "enrolled": enrolled, "skipped": skipped, "done": card is None,
            "prompt": self.prompt().to_json(),
            "last": None if last is None else {"card": last["card"], **_labelled(self.label(last["card"])),
                                               "uid": last["uid"]},
            "pending": None if self.pending is None else {
                **self.pending, **_labelled(self._other_label(self.pending["game"], self.pending["card"]))},
        }

    # -- steps ----------------------------------------------------------------------------------------
    def tap(self, uid: str) -> Said:
        """A tag placed on the reader: enrolled on the card asked for, or refused when it is another card's."""
        uid = normalise_uid(uid)
        card = self.current
        if card is None:
            return Said(False, "refused", *_params(self.finished()))
        owner = self.store.lookup_tag(uid)
        if owner == (self.game.name, card):
            self._step(card, uid, forget=(), pending=None)
            return Said(True, "already", ALREADY, {"card": self.label(card)})
        if owner is not None:
            self.pending = {"uid": uid, "game": owner[0], "card": owner[1]}
            self._save()
            return Said(False, "conflict", CONFLICT, {"uid": uid, "other": self._other_label(*owner),
                                                       "card": self.label(card)})
        self._step(card, uid, forget=(), pending=None)
        return Said(True, "enrolled", ENROLLED, {"card": self.label(card), "uid": uid})

    def reassign(self) -> Said:
        """Move the tag last refused (another card's) to the card asked for."""
        card = self.current
        if card is None:
            return Said(False, "refused", *_params(self.finished()))
        if self.pending is None:
            return Said(False, "refused", NO_CONFLICT, {})
        uid, game, other = self.pending["uid"], self.pending["game"], self.pending["card"]
        self._step(card, uid, forget=(), pending=None, moved_from=[game, other])
        return Said(True, "moved", MOVED, {"uid": uid, "other": self._other_label(game, other),
                                           "card": self.label(card)})

    def skip(self) -> Said:
        card = self.current
        if card is None:
            return Said(False, "refused", *_params(self.finished()))
        self.steps.append({"card": card, "uid": None, "replaced": None, "moved_from": None})
        self.pending = None
        self._save()
        return Said(True, "skipped", SKIPPED, {"card": self.label(card)})

    def undo(self) -> Said:
        """Take back the last step: its tag is forgotten and what it replaced comes back; its card is asked again."""
        if not self.steps:
            return Said(False, "refused", NOTHING_TO_UNDO, {})
        step = self.steps.pop()
        self.pending = None
        forget: tuple[str, ...] = ()
        enroll: list[tuple[str, str, str]] = []
        if step["uid"] is not None and step["uid"] != step["replaced"]:
            forget = (step["uid"],)
            if step["moved_from"] is not None:
                enroll.append((step["uid"], step["moved_from"][0], step["moved_from"][1]))
            if step["replaced"] is not None:
                enroll.append((step["replaced"], self.game.name, step["card"]))
        self.store.save_enrolment(self.game.name, self._state(), forget=forget, enroll=tuple(enroll))
        return Said(True, "undone", UNDONE, {"card": self.label(step["card"])})

    def stop(self) -> None:
        """End the enrolment (what was enrolled stays)."""
        self.store.save_enrolment(self.game.name, None)

    # -- inside ---------------------------------------------------------------------------------------
    def _step(self, card: str, uid: str, *, forget: tuple[str, ...], pending: None,
              moved_from: list[str] | None = None) -> None:
        old = [u for u, c in self.store.tags(self.game.name).items() if c == card]
        self.steps.append({"card": card, "uid": uid, "replaced": old[0] if old else None, "moved_from": moved_from})
        self.pending = pending
        self.store.save_enrolment(self.game.name, self._state(), forget=forget,
                                  enroll=((uid, self.game.name, card),))

    def _other_label(self, game_name: str, card: str) -> Words:
        if game_name == self.game.name:
            return self.label(card)
        other = get_game(game_name)
        return Words(N_("{card} ({game})"), {"card": other.card_words(card), "game": other.title})

    def _state(self) -> dict[str, Any]:
        return {"cards": self.cards, "steps": self.steps, "write": self.write, "pending": self.pending}

    def _save(self) -> None:
        self.store.save_enrolment(self.game.name, self._state())


def _params(said: Said) -> tuple[str, dict[str, Any]]:
    return said.template, said.params


def _labelled(words: Words | None) -> dict[str, Any]:
    """A card's `label` in English (the command line's) and its `words` (what the page says in its language)."""
    return {"label": None if words is None else str(words), "words": None if words is None else words.to_json()}
