"""Trading and donating (step 2): offers, acceptance, refusal, counters, and the end of trading."""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from collections.abc import Sequence

from companion.core import HOST, Action, IllegalAction, LogMessage, msg
from companion.games.bohnanza.actions import (
    AcceptOffer,
    CounterOffer,
    EndTrading,
    OfferTrade,
    RefuseOffer,
    WithdrawOffer,
)
from companion.games.bohnanza.beans import bean_of, beans_in_play
from companion.games.bohnanza.deck import advance
from companion.games.bohnanza.state import BohnanzaState, Offer, check_seat, no_hand_card, seat_param, with_player

# legal_actions lists every acceptance up to this many ways of choosing the cards (a few hundred actions at most).
MAX_ACCEPT_CHOICES = 64
# A human table trades without a limit; random play must end, so new offers are listed only this many times a
# turn (apply accepts more unless the option offers_per_turn sets a limit).
OFFERS_LISTED = 20


def _repeats(items: Sequence[object]) -> bool:
    return len(set(items)) != len(items)


def make_offer(
    state: BohnanzaState,
    seat: int,
    to: int,
    give: Sequence[int],
    give_face_up: Sequence[str],
    want: Sequence[str],
    want_face_up: Sequence[str],
) -> Offer:
    """Check a proposed trade against the rules and turn hand positions into cards; nothing moves yet."""
    if state.count.duel:
        raise IllegalAction("there is no trading in the two-player game")
    if state.step != "trade":
        raise IllegalAction("offers are made while the active player trades (step 2), after the two cards are "
                            "turned up")
    n = len(state.players)
    if not isinstance(to, int) or not 0 <= to < n:
        raise IllegalAction("there is no player {seat}: the players are 1 to {count}", seat=seat_param(to), count=n)
    if to == seat:
        raise IllegalAction("you cannot trade with yourself: offer to another player")
    active = state.active
    if active not in (seat, to):
        raise IllegalAction("every trade involves the active player, {active}: make your offer to them", active=active)
    hand = state.players[seat].hand
    if _repeats(give):
        raise IllegalAction("the same hand position is named twice: name each card once")
    for pos in give:
        if not 0 <= pos < len(hand):
            raise no_hand_card(pos, len(hand))
    if _repeats(give_face_up):
        raise IllegalAction("the same face-up card is named twice: name each card once")
    if give_face_up and seat != active:
        raise IllegalAction("only the active player may trade the face-up cards: offer cards from your hand")
    if _repeats(want_face_up):
        raise IllegalAction("the same face-up card is named twice: name each card once")
    if want_face_up and to != active:
        raise IllegalAction("face-up cards can only be asked of the active player: ask others for hand cards")
    for card in (*give_face_up, *want_face_up):
        if card not in state.face_up:
            raise IllegalAction("{card} is not face up on the table: name one of the face-up cards", card=card)
    in_play = beans_in_play(n)
    for bean in want:
        if bean not in in_play:
            raise IllegalAction("there are no {bean} beans in this game: ask for another bean", bean=bean)
    if not (give or give_face_up or want or want_face_up):
        raise IllegalAction("an offer gives or asks for at least one card: choose cards to give or to ask for")
    if len(want) > len(state.players[to].hand):
        raise IllegalAction("{player} holds only {count} cards: ask for fewer",
                            player=to, count=len(state.players[to].hand))
    if not state.may_offer:
        raise IllegalAction(
            "no more offers this turn: {limit} have been made (option offers_per_turn); accept, refuse or wait for "
            "the next turn",
            limit=state.rules.offers_per_turn,
        )
    offer = Offer(
        id=state.next_offer,
        sender=seat,
        receiver=to,
        give=tuple(hand[p] for p in give) + tuple(give_face_up),
        want=tuple(sorted(want)),
        want_face_up=tuple(want_face_up),
    )
    for other in state.offers:
        if _terms(other) == _terms(offer):
            raise IllegalAction("you have made this offer already (offer {offer}): wait for the answer, or withdraw "
                                "it", offer=other.id)
    return offer


def _terms(offer: Offer) -> tuple[object, ...]:
    return offer.sender, offer.receiver, tuple(sorted(offer.give)), offer.want, tuple(sorted(offer.want_face_up))


def describe(offer: Offer) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The beans each side would get, as the public sees them."""
    return tuple(bean_of(c) for c in offer.give), (*offer.want, *(bean_of(c) for c in offer.want_face_up))


def _log_offer(offer: Offer, log: list[LogMessage], countered: int | None = None) -> None:
    give, want = describe(offer)
    args = {"player": offer.sender, "partner": offer.receiver, "give": give, "want": want, "offer": offer.id}
    if countered is not None:
        log.append(msg("{player} refused offer {countered} and countered", player=offer.sender, countered=countered))
    if not want:
        log.append(msg("{player} offered {partner} a gift of {give} (offer {offer})", **args))
    elif not give:
        log.append(msg("{player} asked {partner} for {want} as a gift (offer {offer})", **args))
    else:
        log.append(msg("{player} offered {partner} {give} for {want} (offer {offer})", **args))


def _add(state: BohnanzaState, offer: Offer) -> BohnanzaState:
    return dataclasses.replace(
        state,
        offers=(*state.offers, offer),
        next_offer=state.next_offer + 1,
        offers_made=state.offers_made + 1,
    )


def apply_offer(state: BohnanzaState, action: OfferTrade, log: list[LogMessage]) -> BohnanzaState:
    seat = check_seat(state, action.seat)
    offer = make_offer(state, seat, action.to, action.give, action.give_face_up, action.want, action.want_face_up)
    _log_offer(offer, log)
    return _add(state, offer)


def find_offer(state: BohnanzaState, offer_id: int) -> Offer:
    for offer in state.offers:
        if offer.id == offer_id:
            return offer
    raise IllegalAction("there is no open offer {offer}: it was answered or withdrawn", offer=offer_id)


def _received_by(state: BohnanzaState, seat: int, offer_id: int) -> Offer:
    offer = find_offer(state, offer_id)
    if offer.receiver != seat:
        raise IllegalAction("offer {offer} was made to {player}: only they answer it",
                            offer=offer_id, player=offer.receiver)
    return offer


def apply_accept(state: BohnanzaState, action: AcceptOffer, log: list[LogMessage]) -> BohnanzaState:
    seat = check_seat(state, action.seat)
    offer = _received_by(state, seat, action.offer)
    hand = state.players[seat].hand
    if _repeats(action.give):
        raise IllegalAction("the same hand position is named twice: name each card once")
    for pos in action.give:
        if not 0 <= pos < len(hand):
            raise no_hand_card(pos, len(hand))
    chosen = sorted(bean_of(hand[p]) for p in action.give)
    if chosen != list(offer.want):
        # Bean ids, joined as the log joins them; "none" is a sentence of its own.
        want, picked = ", ".join(offer.want), ", ".join(chosen)
        if not want:
            raise IllegalAction(
                "offer {offer} asks for none of your hand cards and you chose {chosen}: accept it choosing none",
                offer=offer.id,
                chosen=picked,
            )
        if not picked:
            raise IllegalAction(
                "offer {offer} asks for {want} and you chose none: choose {want} from your hand",
                offer=offer.id, want=want
            )
        raise IllegalAction(
            "offer {offer} asks for {want} and you chose {chosen}: choose {want} from your hand",
            offer=offer.id, want=want, chosen=picked
        )
    returned = tuple(hand[p] for p in action.give) + offer.want_face_up
    state = _move_to_set_aside(state, offer.sender, offer.give, seat)
    state = _move_to_set_aside(state, seat, returned, offer.sender)
    state = dataclasses.replace(state, offers=tuple(o for o in state.offers if o.id != offer.id))
    state = prune_offers(state)
    give, want = describe(offer)
    log.append(
        msg("{player} accepted offer {offer}: {player} got {give}, {partner} got {want}", player=seat,
            partner=offer.sender, offer=offer.id, give=give, want=want)
    )
    return state


def _move_to_set_aside(state: BohnanzaState, source: int, cards: tuple[str, ...], to: int) -> BohnanzaState:
    """Cards leave the source's hand (or the face-up cards) and are set aside by their new owner."""
    moving = set(cards)
    state = with_player(state, source, hand=tuple(c for c in state.players[source].hand if c not in moving))
    state = dataclasses.replace(state, face_up=tuple(c for c in state.face_up if c not in moving))
    return with_player(state, to, set_aside=(*state.players[to].set_aside, *cards))


def prune_offers(state: BohnanzaState) -> BohnanzaState:
    """An offer dies when any card it names has moved."""

    def alive(o: Offer) -> bool:
        hand = set(state.players[o.sender].hand)
        held = hand | set(state.face_up) if o.sender == state.active else hand
        return all(c in held for c in o.give) and all(c in state.face_up for c in o.want_face_up)

    return dataclasses.replace(state, offers=tuple(o for o in state.offers if alive(o)))


def apply_refuse(state: BohnanzaState, action: RefuseOffer, log: list[LogMessage]) -> BohnanzaState:
    seat = check_seat(state, action.seat)
    offer = _received_by(state, seat, action.offer)
    log.append(msg("{player} refused offer {offer} from {partner}", player=seat, offer=offer.id,
                   partner=offer.sender))
    return dataclasses.replace(state, offers=tuple(o for o in state.offers if o.id != offer.id))


def apply_withdraw(state: BohnanzaState, action: WithdrawOffer, log: list[LogMessage]) -> BohnanzaState:
    seat = check_seat(state, action.seat)
    offer = find_offer(state, action.offer)
    if offer.sender != seat:
        raise IllegalAction("offer {offer} was made by {player}: only they withdraw it",
                            offer=offer.id, player=offer.sender)
    log.append(msg("{player} withdrew offer {offer}", player=seat, offer=offer.id))
    return dataclasses.replace(state, offers=tuple(o for o in state.offers if o.id != offer.id))


def apply_counter(state: BohnanzaState, action: CounterOffer, log: list[LogMessage]) -> BohnanzaState:
    seat = check_seat(state, action.seat)
    original = _received_by(state, seat, action.offer)
    without = dataclasses.replace(state, offers=tuple(o for o in state.offers if o.id != original.id))
    offer = make_offer(
        without, seat, original.sender, action.give, action.give_face_up, action.want, action.want_face_up
    )
    _log_offer(offer, log, countered=original.id)
    return _add(without, offer)


def apply_end_trading(state: BohnanzaState, action: EndTrading, log: list[LogMessage]) -> BohnanzaState:
    if state.count.duel:
        raise IllegalAction("there is no trading in the two-player game")
    if state.step != "trade":
        if state.step in ("deal", "plant", "turn_up"):
            raise IllegalAction("trading opens once the two cards are turned up: plant from your hand, then turn "
                                "them up")
        raise IllegalAction("trading is over for this turn; the next turn trades again")
    if action.seat == HOST:
        if state.rules.trade_seconds <= 0:
            raise IllegalAction("without a trading time limit (option trade_seconds) only the active player ends it")
    elif action.seat != state.active:
        raise IllegalAction("only the active player, {active}, ends trading", active=state.active)
    active = state.active
    kept = state.face_up
    state = with_player(state, active, set_aside=(*state.players[active].set_aside, *kept))
    state = dataclasses.replace(state, face_up=(), offers=(), step="plant_set_aside")
    log.append(msg("{player} ended trading and kept {beans}", player=active, beans=tuple(bean_of(c) for c in kept)))
    return advance(state, log)


# -- the offers legal_actions lists ----------------------------------------------------------------------------
# Offers combine any cards, far too many to list. legal_actions lists the quick ones: every one-card gift and
# one-card request, and one card for one card where what comes back is a bean the proposer already grows or a
# face-up card; the frontmost hand card of each bean stands for the others. apply accepts any offer.



@dataclasses.dataclass(frozen=True)
class _Give:
    positions: tuple[int, ...]
    face_up: tuple[str, ...]
    card: str


@dataclasses.dataclass(frozen=True)
class _Want:
    beans: tuple[str, ...]
    face_up: tuple[str, ...]
    bean: str


def _gives(state: BohnanzaState, seat: int) -> list[_Give]:
    """The frontmost hand card of each bean (the one that would be planted soonest), and each face-up bean if the
    seat is the active player."""
    hand = state.players[seat].hand
    first: dict[str, int] = {}
    for pos, card in enumerate(hand):
        first.setdefault(bean_of(card), pos)
    items = [_Give((pos,), (), hand[pos]) for pos in first.values()]
    if seat == state.active:
        items += [_Give((), (card,), card) for card in _face_up_by_bean(state)]
    return items


def _face_up_by_bean(state: BohnanzaState) -> list[str]:
    first: dict[str, str] = {}
    for card in state.face_up:
        first.setdefault(bean_of(card), card)
    return list(first.values())


def _wants(state: BohnanzaState, to: int) -> list[_Want]:
    items = []
    if state.players[to].hand:
        items = [_Want((bean,), (), bean) for bean in beans_in_play(len(state.players))]
    if to == state.active:
        items += [_Want((), (card,), bean_of(card)) for card in _face_up_by_bean(state)]
    return items


def _key(seat: int, to: int, give: _Give | None, want: _Want | None) -> tuple[object, ...]:
    """The terms of a quick offer as `_terms` states them (one card a side needs no sorting)."""
    return seat, to, (give.card,) if give else (), want.beans if want else (), want.face_up if want else ()


def _offer_actions(state: BohnanzaState, seat: int, to: int, made: set[tuple[object, ...]]) -> list[OfferTrade]:
    gives = _gives(state, seat)
    wants = _wants(state, to)
    grown = {bean_of(f[0]) for f in state.players[seat].fields if f}
    pairs: list[tuple[_Give | None, _Want | None]] = [(g, None) for g in gives]
    pairs += [(None, w) for w in wants]
    pairs += [(g, w) for w in wants if w.face_up or w.bean in grown for g in gives if bean_of(g.card) != w.bean]
    return [
        OfferTrade(
            seat,
            to,
            give=g.positions if g else (),
            give_face_up=g.face_up if g else (),
            want=w.beans if w else (),
            want_face_up=w.face_up if w else (),
        )
        for g, w in pairs
        if not made or _key(seat, to, g, w) not in made
    ]


def _counter_actions(state: BohnanzaState, seat: int, offer: Offer, made: set[tuple[object, ...]]) -> list[Action]:
    """"I'd rather give you this for that one": each of my cards (one per bean) for each card they offered."""
    wants = [
        _Want((), (card,), bean_of(card)) if card in state.face_up else _Want((bean_of(card),), (), bean_of(card))
        for card in offer.give
    ]
    return [
        CounterOffer(seat, offer.id, give=g.positions, give_face_up=g.face_up, want=w.beans, want_face_up=w.face_up)
        for g in _gives(state, seat)
        for w in wants
        if bean_of(g.card) != w.bean and _key(seat, offer.sender, g, w) not in made
    ]


def accept_choices(hand: tuple[str, ...], want: tuple[str, ...]) -> list[tuple[int, ...]]:
    """The ways to pick hand positions holding exactly the wanted beans (up to MAX_ACCEPT_CHOICES)."""
    per_bean = []
    for bean, k in sorted(Counter(want).items()):
        positions = [i for i, c in enumerate(hand) if bean_of(c) == bean]
        if len(positions) < k:
            return []
        per_bean.append(list(itertools.combinations(positions, k)))
    out = []
    for combo in itertools.product(*per_bean):
        out.append(tuple(sorted(p for part in combo for p in part)))
        if len(out) >= MAX_ACCEPT_CHOICES:
            break
    return out


def trade_actions(state: BohnanzaState, seat: int) -> list[Action]:
    out: list[Action] = []
    if seat == state.active:
        out.append(EndTrading(seat))
    hand = state.players[seat].hand
    can_offer = state.may_offer and state.offers_made < OFFERS_LISTED
    made = {_terms(o) for o in state.offers if o.sender == seat}
    for offer in state.offers:
        if offer.receiver == seat:
            out.extend(AcceptOffer(seat, offer.id, give) for give in accept_choices(hand, offer.want))
            out.append(RefuseOffer(seat, offer.id))
            if can_offer:
                out.extend(_counter_actions(state, seat, offer, made))
        elif offer.sender == seat:
            out.append(WithdrawOffer(seat, offer.id))
    if can_offer:
        partners = [t for t in range(len(state.players)) if t != seat] if seat == state.active else [state.active]
        for to in partners:
            out.extend(_offer_actions(state, seat, to, made))
    return out

