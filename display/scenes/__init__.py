"""The scene stack (lobby, game, summary, overlays): each scene lists panels; only changed panels are redrawn."""

from __future__ import annotations

from typing import Any

import pygame

from display.model import DisplayModel, signature
from display.render import Context, Panel
from display.render.widgets import BACKGROUND, draw_frame


class Scene:
    """One screen. `panels` says what to draw; `handle` turns input into commands for the app."""

    name = "scene"
    overlay = False  # an overlay is drawn over the scene below it

    def enter(self, model: DisplayModel) -> None:
        """Called when the scene comes on top."""

    def leave(self) -> None:
        """Called when the scene stops being on top."""

    def panels(self, ctx: Context) -> list[Panel]:
        return []

    def handle(self, event: Any, ctx: Context) -> list[tuple[str, Any]]:
        """Commands for the app from a pygame event (a tap, a click, a key); none by default."""
        return []


class SceneStack:
    """Scenes on a stack; draws the top one (and the one below an overlay), redrawing only what changed."""

    def __init__(self) -> None:
        self.scenes: list[Scene] = []
        self._drawn: dict[str, tuple[tuple[int, int, int, int], bytes]] = {}
        self._full = True
        self.last_drawn: list[str] = []  # the panels the last draw painted ("scene:panel"), for tests and benches

    @property
    def top(self) -> Scene | None:
        return self.scenes[-1] if self.scenes else None

    def push(self, scene: Scene, model: DisplayModel) -> None:
        if self.top:
            self.top.leave()
        self.scenes.append(scene)
        scene.enter(model)
        self.invalidate()

    def pop(self, model: DisplayModel) -> Scene | None:
        if not self.scenes:
            return None
        scene = self.scenes.pop()
        scene.leave()
        if self.top:
            self.top.enter(model)
        self.invalidate()
        return scene

    def replace_base(self, scene: Scene, model: DisplayModel) -> None:
        """Swap the bottom scene (lobby ↔ game ↔ summary), dropping any overlays."""
        while self.scenes:
            self.scenes.pop().leave()
        self.push(scene, model)

    def invalidate(self) -> None:
        """Everything is redrawn next frame (a scene change, a resize)."""
        self._full = True
        self._drawn.clear()

    def visible(self) -> list[Scene]:
        out: list[Scene] = []
        for scene in reversed(self.scenes):
            out.insert(0, scene)
            if not scene.overlay:
                break
        return out

    def frames_layer(self, surface: pygame.Surface, ctx: Context,
                     listed: list[tuple[Scene, Panel]]) -> pygame.Surface | None:
        """The background with every framed panel's frame, painted once per layout (a static layer): a full frame
        starts by blitting it, and a changed panel is cleared by blitting its part of it. Overlays are left out
        (they are drawn over the panels below)."""
        painter = ctx.painter
        if not painter.cache_layers:
            return None
        frames = tuple((tuple(p.rect), p.frame) for scene, p in listed if not scene.overlay and p.frame is not None)

        def paint(layer: pygame.Surface) -> None:
            for rect, frame in frames:
                draw_frame(layer, pygame.Rect(rect), painter, frame)

        return painter.layer(("frames", frames), surface.get_size(), paint)

    def draw(self, surface: pygame.Surface, ctx: Context, force: bool = False) -> list[pygame.Rect]:
        """Redraw the panels whose data changed; returns the rectangles to update on screen."""
        if force:
            self.invalidate()
        listed = [(scene, p) for scene in self.visible() for p in scene.panels(ctx)]
        rects = {f"{scene.name}:{p.name}": (p.rect.x, p.rect.y, p.rect.width, p.rect.height) for scene, p in listed}
        if rects.keys() != self._drawn.keys() or any(self._drawn[k][0] != r for k, r in rects.items()):
            # A panel came, went or moved: what it covered must be cleared, so everything is drawn afresh.
            self.invalidate()
        dirty: list[pygame.Rect] = []
        self.last_drawn = []
        frames = self.frames_layer(surface, ctx, listed)
        if self._full:
            if frames is None:
                surface.fill(BACKGROUND)
            else:
                surface.blit(frames, (0, 0))
            dirty.append(surface.get_rect())
        # Anything under an overlay that changes forces the overlay to be drawn again on top.
        overlay_dirty = False
        for scene, p in listed:
            key = f"{scene.name}:{p.name}"
            sig = signature([p.data, ctx.model.players()])
            rect_t = (p.rect.x, p.rect.y, p.rect.width, p.rect.height)
            if not (self._full or (overlay_dirty and scene.overlay)) and self._drawn.get(key) == (rect_t, sig):
                continue
            clip = surface.get_clip()
            surface.set_clip(p.rect)
            under = frames if not scene.overlay else None
            # A full frame has just cleared the whole screen. An overlay is drawn over what is under it (what
            # changed there has just been drawn again), as on a full frame: its rounded corners show the panels.
            if not self._full and not scene.overlay:
                if under is not None:
                    surface.blit(under, p.rect, p.rect)
                else:
                    surface.fill(BACKGROUND, p.rect)
            if under is not None and p.frame is not None:
                ctx.painter.prepainted = (rect_t, p.frame)
            try:
                p.draw(surface, p.rect, ctx, p.data)
            finally:
                ctx.painter.prepainted = None
            surface.set_clip(clip)
            self._drawn[key] = (rect_t, sig)
            self.last_drawn.append(key)
            dirty.append(p.rect.copy())
            if not scene.overlay:
                overlay_dirty = True
        self._full = False
        return dirty
