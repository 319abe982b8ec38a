"""The scene stack (lobby, game, summary, overlays): each scene lists panels; only changed panels are redrawn."""

from __future__ import annotations

from typing import Any

import pygame

from display.model import DisplayModel, signature
from display.render import Context, Panel
from display.render.widgets import BACKGROUND


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

    def draw(self, surface: pygame.Surface, ctx: Context, force: bool = False) -> list[pygame.Rect]:
        """Redraw the panels whose data changed; returns the rectangles to update on screen."""
        if force:
            self.invalidate()
        listed = [(scene, p) for scene in self.visible() for p in scene.panels(ctx)]
        keys = {f"{scene.name}:{p.name}" for scene, p in listed}
        if keys != set(self._drawn):
            # A panel came or went: what it covered must be cleared, so everything is drawn afresh.
            self.invalidate()
        dirty: list[pygame.Rect] = []
        self.last_drawn = []
        if self._full:
            surface.fill(BACKGROUND)
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
            if not self._full:  # a full frame has just cleared the whole screen
                surface.fill(BACKGROUND, p.rect)
            p.draw(surface, p.rect, ctx, p.data)
            surface.set_clip(clip)
            self._drawn[key] = (rect_t, sig)
            self.last_drawn.append(key)
            dirty.append(p.rect.copy())
            if not scene.overlay:
                overlay_dirty = True
        self._full = False
        return dirty
