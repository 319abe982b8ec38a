"""The JSON bodies of the web API, as pydantic models (they also document the API in OpenAPI)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from companion.core.names import MAX_NAME, name_problem
from companion.web.edge import MAX_INT

Token = Annotated[str, Field(min_length=1, max_length=200, description="the secret token from the join link")]
Colour = Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$", description="a colour as #rrggbb")]
def _plain_name(name: str) -> str:
    problem = name_problem(name)
    if problem is not None:
        raise ValueError(problem)
    return name


Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME), AfterValidator(_plain_name)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ActionRequest(Strict):
    """An action, made against the state the client saw."""

    token: Token | None = None
    state_id: int = Field(ge=0, le=MAX_INT,
                          description="the state_id of the view this action was chosen in; stale ones fail")
    action: dict[str, Any] = Field(
        description='the action JSON, e.g. {"seat": 0, "action": "bid", "plant": 13, "amount": 14}; '
        "a missing seat means the token's seat"
    )


class UndoRequest(Strict):
    token: Token | None = None
    state_id: int = Field(ge=0, le=MAX_INT)


class HostRequest(Strict):
    token: Token | None = None


class SeatUpdate(Strict):
    token: Token | None = None
    name: Name | None = None
    colour: Colour | None = None
    lang: Annotated[str, Field(pattern=r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$")] | None = None


BotLevel = Literal["easy", "normal", "strong"]


class SeatBot(Strict):
    """Hand a seat to a bot of a level, or (level null) take it back for a person."""

    token: Token | None = None
    level: BotLevel | None = None


class TagEnrollment(Strict):
    token: Token | None = None
    uid: Annotated[str, Field(min_length=2, max_length=40, description="the tag UID in hex, e.g. 04A1B2C3")]
    card: Annotated[str, Field(min_length=1, max_length=60, description="a card id from the game's cards()")]


class EnrolmentStep(Strict):
    """A step of the guided enrolment of the game's deck (companion/store/enrolment.py)."""

    token: Token | None = None
    do: Literal["start", "tap", "skip", "undo", "reassign", "stop"]
    uid: Annotated[str | None, Field(default=None, min_length=2, max_length=40,
                                    description="with tap: the tag UID in hex (a controller taps by itself)")]
    write: bool = Field(default=False, description="with start: write each card id onto its tag")
    restart: bool = Field(default=False, description="with start: a new walk instead of resuming one")


class NewSession(Strict):
    """A new game from the host page (needs the server token `companion serve` printed)."""

    token: Token | None = None
    game: Annotated[str, Field(min_length=1, max_length=40)]
    players: int = Field(ge=1, le=12)
    mode: Literal["digital", "physical"] = "digital"
    options: dict[str, Any] = Field(default_factory=dict, max_length=20)
    chance: dict[str, Literal["digital", "physical"]] = Field(default_factory=dict, max_length=10)
    names: list[Name] = Field(default_factory=list, max_length=12)
    colours: list[Colour] = Field(default_factory=list, max_length=12)
    seed: int | None = Field(default=None, ge=0, lt=2**31)
    bots: list[BotLevel | None] = Field(default_factory=list, max_length=12,
                                        description="per seat in order, the level of the bot playing it, or null")


class Done(BaseModel):
    """An accepted action, undo or host change."""

    ok: Literal[True] = True
    state_id: int


class Refusal(BaseModel):
    """Anything refused: `code` is machine-readable, `error` a sentence for people. Nothing was changed."""

    ok: Literal[False] = False
    code: str
    error: str


class Envelope(BaseModel):
    """A view of a session: the game's own view wrapped with the session's facts.

    Seats also get `legal` (the action JSON they may send now) and `hints` when they are ready (else
    `hints_pending`: `GET .../hints` waits for them); `scores` appear once it is over.
    """

    model_config = ConfigDict(extra="allow")

    session: int
    game: str
    title: str
    state_id: int
    status: str
    mode: str
    seat: int | str | None
    players: list[dict[str, Any]]
    current_seats: list[int | str]
    over: bool
    view: dict[str, Any]
    log: list[dict[str, Any]]


class SeatHints(BaseModel):
    """A seat's hints for one state (`GET /api/sessions/{id}/hints`): advice the game gives that seat only."""

    state_id: int
    seat: int
    hints: dict[str, Any]


class JoinCode(BaseModel):
    seat: int
    name: str
    colour: str
    url: str
    qr_svg: str = Field(description="the join URL as a QR code, an SVG document")


class SessionSummary(BaseModel):
    id: int
    game: str
    title: str
    status: str
    players: list[str]
    actions: int
    host_url: str


class Created(BaseModel):
    ok: Literal[True] = True
    id: int
    host_url: str
