"""The host side of the controller link: discovery, the serial protocol, the async event stream, the simulated board."""

from companion.link.board import BoardLink, open_board
from companion.link.events import BoardEvent

__all__ = ["BoardEvent", "BoardLink", "open_board"]
