"""The WebSocket protocol the server runs under uvicorn: its own, with permessage-deflate at compression level 1."""

from __future__ import annotations

from typing import Any

# zlib's level 1 instead of its default 6: every change sends each phone and display its whole view (7 phones,
# ~110 kB of JSON a change in a 7-player Bohnanza). Level 1 compresses those in about two fifths of the CPU time
# (0.34 against 0.86 ms for 8 views on the development machine) to 15 kB instead of 13 kB; the phones' Wi-Fi still
# carries a seventh of the text.
COMPRESS_LEVEL = 1


def ws_protocol() -> Any:
    """What `uvicorn.Config(ws=...)` takes: uvicorn's websockets protocol compressing at `COMPRESS_LEVEL` (the same
    window and memory settings as uvicorn's own), or "auto" where this uvicorn has no such protocol to adapt."""
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
        from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
        from websockets.server import ServerProtocol
    except ImportError:  # an older uvicorn (before 0.35): its own protocol, at zlib's default level
        return "auto"

    class Protocol(WebSocketsSansIOProtocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            if self.config.ws_per_message_deflate:
                # Made anew before any byte arrived: the handshake negotiates these settings.
                self.conn = ServerProtocol(
                    extensions=[ServerPerMessageDeflateFactory(
                        server_max_window_bits=12, client_max_window_bits=12,
                        compress_settings={"memLevel": 5, "level": COMPRESS_LEVEL})],
                    max_size=self.config.ws_max_size, logger=self.conn.logger)

    return Protocol
