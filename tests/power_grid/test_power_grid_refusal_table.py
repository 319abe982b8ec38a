"""Every refusal Power Grid can give, reviewed as a whole: each says what rule stops the move and what the player
can do instead. A new refusal fails here until it is reviewed and added to the table."""

from __future__ import annotations

from refusal_table import seats_by_number, unreviewed

REVIEWED = (
    "'{card}' is not a Power Grid card; enroll this tag first",
    'a correction is at most {limit} Elektro either way: make a bigger one in steps',
    'a house correction adds a house or removes one, not {change}',
    'a plant cannot hold fewer than 0 tokens',
    'burning {coal} coal in the hybrids would leave more resources than your plants can store: let the hybrids burn {suggested} coal and {oil} oil instead',  # noqa: E501
    'buy at least one token, or finish buying',
    'choose a plant to auction, or buy none this round',
    'each plant fires at most once: name each plant once',
    'each region may be chosen once',
    'everyone must buy a plant in round 1: open an auction for a plant of the current market',
    'move at least one token: choose how many to move',
    'name the plant you discard first: one of your old plants',
    'no plant is to be drawn now: the table taps a card only when the companion asks for the next plant',
    'nobody may act now: wait until the companion names whose turn it is',
    'now is the time to build, not to {action}: build, or finish building',
    'now is the time to buy resources, not to {action}: buy, or finish buying',
    'now is the time to fire plants, not to {action}: fire your plants',
    'only a plant a player owns goes back to the market; plant {plant} belongs to nobody',
    'only the host corrects money: ask the host',
    'only the host makes corrections',
    'only the table reveals drawn plants, and it does nothing else',
    'plant {plant} belongs to nobody; give it to a player first',
    'plant {plant} belongs to {player} and is not for sale: choose a plant of the current market or the top card of the deck',  # noqa: E501
    'plant {plant} belongs to {player} already',
    'plant {plant} cannot store {resource}',
    'plant {plant} cannot store {resource}: choose a plant that burns it',
    'plant {plant} does not burn {resource}: choose a plant that burns it',
    'plant {plant} has not been drawn yet: it is hidden in the deck; tap the top card of the deck or a plant of the market',  # noqa: E501
    'plant {plant} has room for {room} more: add at most {room}',
    'plant {plant} holds at most {count} tokens',
    'plant {plant} holds exactly that already',
    'plant {plant} holds only {count} {resource}: move at most {count}',
    'plant {plant} is already being discarded: move its resources to your other plants, or return the rest to the supply',  # noqa: E501
    'plant {plant} is already in the current market: auction it on your turn, or tap the top card of the deck to draw',
    'plant {plant} is already in the future market: it is sold once it moves to the current market; tap the top card of the deck',  # noqa: E501
    'plant {plant} is being discarded: first move its resources to your other plants, or return the rest to the supply',
    'plant {plant} is being discarded: move resources off it, not onto it',
    'plant {plant} is in the deck but not on top: only the top card is drawn; tap that one',
    'plant {plant} is in the future market; only the current market is sold',
    'plant {plant} is not a plant of this game: choose a number printed on one of its plant cards',
    'plant {plant} is not in the current market ({market})',
    'plant {plant} is on auction now; finish the auction first',
    'plant {plant} is on auction: bid or pass',
    'plant {plant} is part of a discard now; finish the discard first',
    'plant {plant} needs a bid of at least {bid}',
    'plant {plant} was just bought; discard one of your old plants',
    'plant {plant} was removed from the game and never returns: choose a plant of the market or the top card of the deck',  # noqa: E501
    'plant {plant} was removed from the game at setup and is out of this game: tap the top card of the deck',
    'plants {plant} and {other} are in the same place: swapping them changes nothing',
    'resources move from one plant to another: choose two different plants',
    'the bid is {price}; bid at least {bid}',
    'the chosen regions must be contiguous: choose regions that border each other',
    'the game is over: the host can start a new one',
    'the game is over; only money can still be corrected',
    'the host chooses the regions first; corrections come after',
    'the host chooses the regions; players make every other move',
    'the host only chooses the regions and corrects money; the players make the moves',
    'the market has only {count} {resource}: buy at most {count}',
    'the market is full ({count} plants): swap plants instead',
    'the next card of the deck is plant {top}, not plant {plant}: tap plant {top}',
    'the next card of the deck is plant {top}, not the Step 3 card: tap plant {top}',
    'the next card of the deck is the Step 3 card, not plant {plant}: tap the Step 3 card',
    'the Step 3 card is already in the market and is never sold: tap the top card of the deck or a plant',
    'the Step 3 card is in the future market and is never sold: choose a plant of the current market',
    'the Step 3 card is not moved by a correction; undo to before it was drawn instead',
    'the Step 3 card is still in the deck: it comes up only as the top card; tap the top card of the deck',
    'the Step 3 card was already removed from the game: tap the top card of the deck or a plant of the market',
    'the supply has only {count} {resource} left',
    "there is no map '{map}': choose germany or usa",
    'there is no player {seat}: the players are 1 to {count}',
    "there is no resource '{resource}' (resources: coal, oil, garbage, uranium)",
    'those plants burn {amount} coal and oil in all and you hold {held}: fire fewer plants',
    'those plants need {amount} {resource} and you hold {held}: fire fewer plants',
    'those plants would burn {amount} {resource} and you hold {held}: let the hybrids burn {suggested} coal and {oil} oil instead',  # noqa: E501
    "waiting for the host to choose the regions: the host's OK takes the companion's proposal",
    'waiting for the table to reveal the plant drawn from the deck: tap that card, then play on',
    'you already have a house in {city}; build in another city',
    'you bought a plant this round: you are out of the auctions until the next round',
    'you bought plant {plant} this round: you are out of the auctions until the next round',
    'you chose to buy no plant this round: you are out of the auctions until the next round',
    'you do not own plant {plant}: use one of your own plants',
    'you do not own plant {plant}; discard one of your old plants ({plants})',
    'you have built all your {houses} houses: no more can be built; finish building',
    'you have finished building this round; you build again next round',
    'you have finished buying resources this round; you may still move them',
    'you have fired your plants this round; the others are firing theirs',
    'you have more than {limit} plants: discard one of your old plants (you may first move resources between your plants)',  # noqa: E501
    'you have only {money} Elektro: bid at most {money}',
    'you passed on plant {plant}: you are out of this auction; you may open the next one in turn',
    'your fired hybrids burn {amount} tokens in all: choose from 0 to {amount} of them to be coal',
    'your plants do not hold the resources to fire those plants: fire fewer plants',
    '{action} is not possible now: choose one of the moves your phone offers',
    '{city} costs {price} Elektro; you have {money}: build a cheaper city, or finish building',
    '{city} has no free space: Step {step} allows {count} houses in a city',
    '{city} is full: Step {step} allows {step} house(s) per city; build in another city',
    '{city} is outside the regions in play',
    '{city} is outside the regions in play; build in a city of the chosen regions',
    '{count} {resource} cost {cost} Elektro; you have {money}: buy fewer',
    "{map} has no city '{city}'",
    "{map} has no region '{region}' (regions: {regions})",
    '{n} players play in {need} regions, not {chosen}: choose {need}',
    '{player} bids on plant {plant} now; your turn to bid or pass comes in turn order',
    '{player} builds now; you build after them (reverse turn order)',
    '{player} buys resources now; you buy after them (reverse turn order)',
    '{player} chooses the next plant to auction now; you choose after them in turn order',
    '{player} has a house in {city} already',
    '{player} has all {houses} houses on the map already',
    '{player} has no house in {city}',
    '{player} has one plant too many and is discarding one; the auctions go on after that',
    '{player} has only {money} Elektro, so a correction takes away at most that',
    '{player} has {count} plants, the most allowed: swap one of them instead',
)


def test_every_power_grid_refusal_is_in_the_reviewed_table():
    new, gone = unreviewed("power_grid", REVIEWED)
    assert new == [], "new refusals: review them and add them to REVIEWED"
    assert gone == [], "refusals no longer raised: take them out of REVIEWED"


def test_no_refusal_names_a_seat_by_number():
    # Players are named through a {player} param (the clients show the name), never "seat 0" in the text.
    assert seats_by_number(REVIEWED) == []
