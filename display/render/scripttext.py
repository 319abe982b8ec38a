"""Text in any of the table's languages: runs per script and font, HarfBuzz shaping, right-to-left order, digits.

SDL_ttf shapes one run in one font and one direction. A line of Sindhi with a player's Latin name and a number
is three kinds of run: Arabic letters (Noto Naskh, right to left), Latin letters (the display's Latin font, left
to right) and digits (left to right even inside right-to-left text). The runs are put in visual order with the
two-level case of the Unicode bidirectional algorithm (a right-to-left paragraph with left-to-right islands, or
the reverse), which is all a one-line label needs. Heights are measured on the ink, so tall scripts (Naskh's deep
descenders, Bengali's vowel signs) fit the same rows as Latin text wherever their letters do.
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from pathlib import Path
from typing import Any

import pygame

from companion.i18n import fonts as font_files
from companion.i18n import to_digits

Colour = tuple[int, int, int]

# Brackets drawn in a left-to-right font inside right-to-left text are mirrored by hand (HarfBuzz mirrors only
# the runs it shapes right to left).
_MIRROR = str.maketrans("()[]{}<>«»", ")(][}{><»«")
# Inside a number these keep the digits together ("3-6", "1,250", "2.5").
_NUMBER_JOINERS = frozenset(".,:-/–")
_CACHE_SIZE = 512


@dataclasses.dataclass(frozen=True)
class TextStyle:
    """How one language is drawn: its script's font files, the Latin font beside them, direction and digits."""

    script: str = "Latn"
    direction: str = "ltr"
    digits: str = "latn"
    regular: Path | None = None  # the script's font (None for Latin-script languages)
    bold: Path | None = None
    latin_regular: Path | None = None
    latin_bold: Path | None = None
    scale: float = 1.0  # the script font's size relative to the Latin font's

    @property
    def plain(self) -> bool:
        """Latin script, left to right, 0-9: drawn exactly as before, with the Latin font alone."""
        return self.regular is None and self.direction == "ltr" and self.digits == "latn"


# Script fonts drawn a little smaller than the Latin font at the same size so their letters look alike in size
# (Noto Naskh's letter bodies are large for its line height).
SCRIPT_SCALE = {"Arab": 0.92, "Beng": 1.0, "Sinh": 0.95}


def style_for(script: str, direction: str, digits: str, latin_regular: Path, latin_bold: Path) -> TextStyle | None:
    """The style of a language, or None when its script's font is not installed."""
    if script == "Latn":
        return TextStyle(script, direction, digits, None, None, latin_regular, latin_bold)
    regular = font_files.font_for(script)
    bold = font_files.font_for(script, bold=True, families=[regular.choice.family] if regular else None)
    if regular is None:
        return None
    return TextStyle(script, direction, digits, regular.path, (bold or regular).path, latin_regular, latin_bold,
                     SCRIPT_SCALE.get(script, 1.0))


@dataclasses.dataclass(frozen=True)
class _Run:
    text: str
    script_font: bool  # the script's font (else the Latin one)
    rtl: bool  # shaped right to left
    level: int  # bidi embedding level: even left to right, odd right to left


class ShapedFont:
    """A pygame-like font (size, render, get_linesize, get_height) for a language's text at one pixel size."""

    def __init__(self, style: TextStyle, px: int, bold: bool = False) -> None:
        self.style = style
        self.px = px
        latin_path = style.latin_bold if bold else style.latin_regular
        self.latin = pygame.font.Font(str(latin_path) if latin_path else None, px)
        self.script: pygame.font.Font | None = None
        self.script_ltr: pygame.font.Font | None = None
        self._covers: frozenset[int] = frozenset()
        self._latin_covers: frozenset[int] = font_files.coverage(latin_path) if latin_path else frozenset()
        path = style.bold if bold else style.regular
        if path is not None:
            size = max(6, round(px * style.scale))
            self.script = pygame.font.Font(str(path), size)
            self.script.set_script(style.script)
            self.script_ltr = pygame.font.Font(str(path), size)
            self.script_ltr.set_script(style.script)
            if style.direction == "rtl":
                self.script.set_direction(pygame.DIRECTION_RTL)
            self._covers = font_files.coverage(path)
        self._sizes: OrderedDict[str, tuple[int, int]] = OrderedDict()
        ascent = self.latin.get_ascent()
        self._pad = max(1, px // 12)
        self._base_ascent = ascent
        self._base_height = self.latin.get_height()

    # -- the pygame.font.Font interface the painter uses ---------------------------------------------------------
    def get_linesize(self) -> int:
        if self.script is None:
            return self.latin.get_linesize()
        return max(self.latin.get_linesize(), round(self.script.get_linesize() * 0.8))

    def get_height(self) -> int:
        return self.get_linesize()

    def get_ascent(self) -> int:
        return self._base_ascent

    def size(self, text: str) -> tuple[int, int]:
        cached = self._sizes.get(text)
        if cached is not None:
            self._sizes.move_to_end(text)
            return cached
        runs = self.runs(text)
        width = sum(self._font(run).size(run.text)[0] for run in runs)
        top, bottom = self._ink(runs)
        height = max(self._base_height, top + bottom + 2 * self._pad)
        self._sizes[text] = (width, height)
        if len(self._sizes) > _CACHE_SIZE:
            self._sizes.popitem(last=False)
        return width, height

    def render(self, text: str, antialias: bool, colour: Any, background: Any = None) -> pygame.Surface:
        runs = self.runs(text)
        width, height = self.size(text)
        top, _bottom = self._ink(runs)
        baseline = max(self._base_ascent, top + self._pad)
        surface = pygame.Surface((max(1, width), max(1, height)), pygame.SRCALPHA)
        if background is not None:
            surface.fill(background)
        x = 0
        for run in self._visual_order(runs):
            font = self._font(run)
            shown = run.text.translate(_MIRROR) if run.level % 2 and not run.rtl else run.text
            image = font.render(shown, antialias, colour)
            surface.blit(image, (x, baseline - font.get_ascent()))
            x += font.size(run.text)[0]
        return surface

    # -- runs, order, measures ---------------------------------------------------------------------------------------
    def _font(self, run: _Run) -> pygame.font.Font:
        if run.script_font and self.script is not None:
            return self.script if run.rtl else (self.script_ltr or self.script)
        return self.latin

    def _ink(self, runs: list[_Run]) -> tuple[int, int]:
        """Pixels of ink above and below the baseline."""
        top, bottom = 0, 0
        for run in runs:
            font = self._font(run)
            for metric in font.metrics(run.text) or ():
                if metric is None:
                    continue
                _minx, _maxx, miny, maxy, _advance = metric
                top, bottom = max(top, maxy), max(bottom, -miny)
        return top, bottom

    def runs(self, text: str) -> list[_Run]:
        """`text` (digits localised) cut into runs of one font and one direction, in logical order."""
        if self.style.digits != "latn" and "://" not in text:
            text = to_digits(text, self.style.digits)
        rtl_paragraph = self.style.direction == "rtl"
        # Each character's bidi class: "R" (right-to-left letter), "L" (left-to-right letter), "N" (part of a
        # number), None (neutral: spaces, punctuation).
        kinds: list[str | None] = []
        for i, char in enumerate(text):
            script = font_files.script_of(char)
            if char.isdigit():
                kinds.append("N")
            elif script is None:
                kinds.append("N" if char in _NUMBER_JOINERS and _between_digits(text, i) else None)
            else:
                kinds.append("R" if script == "Arab" else "L")
        resolved = _resolve_neutrals(kinds, rtl_paragraph)
        runs: list[_Run] = []
        previous: bool | None = None
        for i, char in enumerate(text):
            use_script = self._in_script_font(text, i, previous)
            previous = use_script
            rtl = resolved[i] == "R"
            level = (1 if rtl else 2) if rtl_paragraph else (1 if rtl else 0)
            shaped_rtl = rtl and use_script
            last = runs[-1] if runs else None
            if last is not None and (last.script_font, last.level, last.rtl) == (use_script, level, shaped_rtl):
                runs[-1] = _Run(last.text + char, use_script, shaped_rtl, level)
            else:
                runs.append(_Run(char, use_script, shaped_rtl, level))
        return runs

    def _in_script_font(self, text: str, i: int, previous: bool | None) -> bool:
        """Letters and digits go to their script's font; a neutral stays with its neighbour's font if it can."""
        if self.script is None:
            return False
        char = text[i]
        script = font_files.script_of(char)
        if script is not None:
            return script == self.style.script
        code = ord(char)
        in_script, in_latin = code in self._covers, code in self._latin_covers
        if in_script and in_latin:
            if previous is not None:
                return previous
            following = next((font_files.script_of(c) for c in text[i + 1:] if font_files.script_of(c)), None)
            return following == self.style.script
        return in_script

    @staticmethod
    def _visual_order(runs: list[_Run]) -> list[_Run]:
        """Reverse every maximal sequence at or above each odd and even level, highest first (rule L2)."""
        if not runs:
            return runs
        order = list(runs)
        highest = max(r.level for r in order)
        lowest_odd = min((r.level for r in order if r.level % 2), default=highest + 1)
        for level in range(highest, lowest_odd - 1, -1):
            i = 0
            while i < len(order):
                if order[i].level >= level:
                    j = i
                    while j < len(order) and order[j].level >= level:
                        j += 1
                    order[i:j] = reversed(order[i:j])
                    i = j
                else:
                    i += 1
        # A right-to-left run shaped in a left-to-right font (a bracket, an ellipsis) reads in reverse by itself.
        return [_Run(r.text[::-1], r.script_font, r.rtl, r.level) if r.level % 2 and not r.rtl and len(r.text) > 1
                else r for r in order]


def _between_digits(text: str, i: int) -> bool:
    return 0 < i < len(text) - 1 and text[i - 1].isdigit() and text[i + 1].isdigit()


def _resolve_neutrals(kinds: list[str | None], rtl_paragraph: bool) -> list[str]:
    """Numbers read left to right; a neutral takes the direction on both its sides, else the paragraph's."""
    paragraph = "R" if rtl_paragraph else "L"
    strong: list[str] = []
    for k in kinds:
        strong.append("L" if k == "N" else k if k is not None else "")
    out: list[str] = []
    for i, k in enumerate(strong):
        if k:
            out.append(k)
            continue
        before = next((s for s in reversed(strong[:i]) if s), paragraph)
        after = next((s for s in strong[i + 1:] if s), paragraph)
        out.append(before if before == after else paragraph)
    return out
