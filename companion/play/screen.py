"""The table display as `companion play`'s child process: started, watched, restarted when it dies.

The child is `python -m companion.play.screen`; secrets (the host token, the lobby link with the server token) go
to it in its environment, not on its command line, where any user of the machine could read them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
from collections.abc import Callable, Mapping, Sequence

# The child's exit status when no window can be opened: no point in starting it again.
NO_SCREEN = 3
HOST_TOKEN_ENV = "COMPANION_HOST_TOKEN"
LOBBY_URL_ENV = "COMPANION_LOBBY_URL"


def screen_problem(env: Mapping[str, str] | None = None, platform: str | None = None) -> str | None:
    """Why this machine has no screen for the display, or None when a window can be opened."""
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    if env.get("SDL_VIDEODRIVER"):
        return None  # chosen on purpose: kmsdrm on a Pi console, dummy in tests
    if not platform.startswith("linux"):
        return None
    if env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        return None
    return ("there is no screen here (neither DISPLAY nor WAYLAND_DISPLAY is set; on a Raspberry Pi without a "
            "desktop, set SDL_VIDEODRIVER=kmsdrm)")


class DisplayProcess:
    """Keeps one display child running for the current target (a session, or the lobby before any game)."""

    RESTART_DELAYS = (0.5, 1.0, 2.0, 5.0, 10.0)  # after quick failures in a row; reset once it ran a while
    HEALTHY_SECONDS = 30.0
    STOP_SECONDS = 3.0

    def __init__(self, url: str, *, fullscreen: bool = False, size: str = "1280x720",
                 out: Callable[[str], None] = print, python: str = sys.executable) -> None:
        self.url = url
        self.fullscreen = fullscreen
        self.size = size
        self.out = out
        self.python = python
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0
        self._target: tuple[int | None, str | None, str | None] | None = None
        self._changed = asyncio.Event()
        self._stopping = False
        self._task: asyncio.Task[None] | None = None
        self.gave_up = False

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None and self.process.returncode is None else None

    def show(self, session: int | None, host_token: str | None = None, lobby_url: str | None = None) -> None:
        """Show a session (or, with None, the lobby link); a running child showing something else is replaced."""
        target = (session, host_token, lobby_url)
        if target == self._target:
            return
        self._target = target
        self._changed.set()
        if self._task is None:
            self._task = asyncio.create_task(self._supervise(), name="display")
        elif self.process is not None and self.process.returncode is None:
            self.process.terminate()

    def command(self) -> tuple[list[str], dict[str, str]]:
        assert self._target is not None
        session, host_token, lobby_url = self._target
        cmd = [self.python, "-m", "companion.play.screen", "--url", self.url, "--size", self.size]
        if session is not None:
            cmd += ["--session", str(session)]
        if self.fullscreen:
            cmd.append("--fullscreen")
        env = dict(os.environ, PYGAME_HIDE_SUPPORT_PROMPT="1")
        env.pop(HOST_TOKEN_ENV, None)
        env.pop(LOBBY_URL_ENV, None)
        if host_token:
            env[HOST_TOKEN_ENV] = host_token
        if lobby_url:
            env[LOBBY_URL_ENV] = lobby_url
        return cmd, env

    async def _supervise(self) -> None:
        loop = asyncio.get_running_loop()
        failures = 0
        while not self._stopping:
            self._changed.clear()
            cmd, env = self.command()
            try:
                process = await asyncio.create_subprocess_exec(*cmd, env=env, stdin=asyncio.subprocess.DEVNULL)
            except OSError as exc:
                self.out(f"display: cannot start it ({exc}); running without it")
                self.gave_up = True
                return
            self.process = process
            self.starts += 1
            started = loop.time()
            code = await process.wait()
            if self._stopping:
                return
            if self._changed.is_set():
                continue  # replaced on purpose: show the new target at once
            if code == NO_SCREEN:
                self.out("display: no window could be opened (see above); running without the display")
                self.gave_up = True
                return
            failures = 0 if loop.time() - started > self.HEALTHY_SECONDS else failures + 1
            delay = self.RESTART_DELAYS[min(failures, len(self.RESTART_DELAYS)) - 1] if failures else 0.2
            self.out(f"display: it stopped (exit status {code}); starting it again in {delay:g} s")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), delay)

    async def stop(self) -> None:
        self._stopping = True
        process = self.process
        if process is not None and process.returncode is None:
            process.terminate()
            try:
                await asyncio.wait_for(process.wait(), self.STOP_SECONDS)
            except TimeoutError:
                process.kill()
                await process.wait()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


# -- the child ---------------------------------------------------------------------------------------------
def show_lobby(lobby_url: str, size: tuple[int, int], fullscreen: bool) -> None:
    """Before any game: the host page's lobby link as a QR code, until `companion play` replaces this window."""
    import pygame
    import segno

    from display.i18n import _, set_language
    from display.render.widgets import Painter

    lang = os.environ.get("COMPANION_LANG")
    if lang:
        set_language(lang, os.environ.get("COMPANION_DIGITS") == "latn")
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_caption(_("The table companion"))
    window = pygame.display.set_mode((0, 0) if fullscreen else size, pygame.FULLSCREEN if fullscreen else 0)
    width, height = window.get_size()
    window.fill((255, 255, 255))
    matrix = list(segno.make(lobby_url, error="m").matrix_iter(scale=1, border=2))
    cell = max(1, int(min(width, height) * 0.6) // len(matrix))
    left = (width - cell * len(matrix)) // 2
    top = (height - cell * len(matrix)) // 2
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                window.fill((0, 0, 0), (left + x * cell, top + y * cell, cell, cell))
    # The painter's fonts draw the table's language (its script's font, shaped, right to left where it reads so).
    painter = Painter()
    title = painter.font(max(12, height // 16), bold=True)
    small = painter.font(max(10, height // 40))
    heading = title.render(_("Scan to choose a game"), True, (0, 0, 0))
    window.blit(heading, ((width - heading.get_width()) // 2, max(4, top - heading.get_height() - cell)))
    hint = small.render(_("or open the host page printed by companion play"), True, (60, 60, 60))
    window.blit(hint, ((width - hint.get_width()) // 2, min(height - hint.get_height() - 4,
                                                            top + cell * len(matrix) + cell)))
    pygame.display.flip()
    while True:
        event = pygame.event.wait(1000)
        if event.type == pygame.QUIT:
            return


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.play.screen",
                                     description="The table display, as `companion play` runs it.")
    parser.add_argument("--url", required=True)
    parser.add_argument("--session", type=int)
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--fullscreen", action="store_true")
    args = parser.parse_args(argv)
    host_token = os.environ.pop(HOST_TOKEN_ENV, None)
    lobby_url = os.environ.pop(LOBBY_URL_ENV, None)
    import pygame

    from display.render.layout import parse_size

    size = parse_size(args.size)
    try:
        if args.session is None:
            if not lobby_url:
                print("companion display: nothing to show (no session and no lobby link)", file=sys.stderr)
                return 2
            show_lobby(lobby_url, size, args.fullscreen)
        else:
            from display.app import run_display

            run_display(args.url, args.session, host_token=host_token, size=size, fullscreen=args.fullscreen)
    except pygame.error as exc:
        print(f"companion display: cannot open a window: {exc}", file=sys.stderr)
        return NO_SCREEN
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
