"""Fonts for each script, found at run time in the system's font folders, and which characters a font covers."""

from __future__ import annotations

import dataclasses
import os
import struct
import unicodedata
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path

# Where Debian, Raspberry Pi OS and a user's own installs put fonts; $COMPANION_FONT_DIRS (colon-separated) first.
SYSTEM_FONT_DIRS = ("~/.local/share/fonts", "~/.fonts", "/usr/local/share/fonts", "/usr/share/fonts")


@dataclasses.dataclass(frozen=True)
class FontChoice:
    """A font family for one script: its files by preference, and the Debian package that installs them."""

    family: str
    regular: tuple[str, ...]
    bold: tuple[str, ...]
    package: str


# Per ISO 15924 script, the families to try in order. Noto Naskh is the usual style for Sindhi (Urdu prefers
# Nastaliq); it carries every Sindhi letter (ٻ ڀ ٺ ٽ ٿ ڄ ڃ ڇ ڊ ڌ ڍ ڏ ڙ ڦ ڪ ڱ ڳ ڻ ۾) and the Extended Arabic-Indic
# digits. The script fonts have no Latin letters, so text is drawn in runs with a Latin font beside them.
SCRIPT_FONTS: dict[str, tuple[FontChoice, ...]] = {
    "Latn": (
        FontChoice("DejaVu Sans Condensed", ("DejaVuSansCondensed.ttf",), ("DejaVuSansCondensed-Bold.ttf",),
                   "fonts-dejavu-core"),
        FontChoice("Noto Sans", ("NotoSans-Regular.ttf",), ("NotoSans-Bold.ttf",), "fonts-noto-core"),
        FontChoice("DejaVu Sans", ("DejaVuSans.ttf",), ("DejaVuSans-Bold.ttf",), "fonts-dejavu-core"),
    ),
    "Beng": (
        FontChoice("Noto Sans Bengali", ("NotoSansBengali-Regular.ttf",), ("NotoSansBengali-Bold.ttf",),
                   "fonts-noto-core"),
        FontChoice("Noto Serif Bengali", ("NotoSerifBengali-Regular.ttf",), ("NotoSerifBengali-Bold.ttf",),
                   "fonts-noto-core"),
        FontChoice("Lohit Bengali", ("Lohit-Bengali.ttf",), ("Lohit-Bengali.ttf",), "fonts-lohit-beng-bengali"),
    ),
    "Arab": (
        FontChoice("Noto Naskh Arabic", ("NotoNaskhArabic-Regular.ttf",), ("NotoNaskhArabic-Bold.ttf",),
                   "fonts-noto-core"),
        FontChoice("Noto Sans Arabic", ("NotoSansArabic-Regular.ttf",), ("NotoSansArabic-Bold.ttf",),
                   "fonts-noto-core"),
    ),
    "Sinh": (
        FontChoice("Noto Sans Sinhala", ("NotoSansSinhala-Regular.ttf",), ("NotoSansSinhala-Bold.ttf",),
                   "fonts-noto-core"),
        FontChoice("Noto Serif Sinhala", ("NotoSerifSinhala-Regular.ttf",), ("NotoSerifSinhala-Bold.ttf",),
                   "fonts-noto-core"),
        FontChoice("LKLUG", ("lklug.ttf",), ("lklug.ttf",), "fonts-lklug-sinhala"),
    ),
}

# Which script a character belongs to, by Unicode block: enough to split a line into runs for the fonts above.
_BLOCKS: tuple[tuple[int, int, str], ...] = (
    (0x0980, 0x09FF, "Beng"),
    (0x0600, 0x06FF, "Arab"),
    (0x0750, 0x077F, "Arab"),
    (0x08A0, 0x08FF, "Arab"),
    (0xFB50, 0xFDFF, "Arab"),
    (0xFE70, 0xFEFF, "Arab"),
    (0x0D80, 0x0DFF, "Sinh"),
    (0x111E0, 0x111FF, "Sinh"),
)


def script_of(char: str) -> str | None:
    """The script of a letter or digit ("Latn" for Latin and anything else not listed); None for the rest."""
    code = ord(char)
    for low, high, script in _BLOCKS:
        if low <= code <= high:
            category = unicodedata.category(char)
            # Arabic punctuation (، ؛ ؟ ۔) is neutral; Arabic and Bengali digits belong with their script's font.
            if category.startswith("P") or category.startswith("Z"):
                return None
            return script
    category = unicodedata.category(char)
    if category[0] in "LN" or category in ("So", "Sc", "Sm", "Sk"):
        return "Latn"
    return None


def invisible(char: str) -> bool:
    """Characters that need no glyph: joiners, direction marks, spaces, controls."""
    return unicodedata.category(char) in ("Cf", "Cc", "Zs", "Zl", "Zp")


def font_dirs() -> list[Path]:
    extra = [p for p in os.environ.get("COMPANION_FONT_DIRS", "").split(os.pathsep) if p]
    return [Path(p).expanduser() for p in (*extra, *SYSTEM_FONT_DIRS)]


@cache
def _index(dirs: tuple[Path, ...]) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for folder in dirs:
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*")):
            if path.suffix.lower() in (".ttf", ".otf") and path.name not in found:
                found[path.name] = path
    return found


def find_file(name: str) -> Path | None:
    """The installed font file called `name`, from the first font folder that has one."""
    return _index(tuple(font_dirs())).get(name)


def rescan() -> None:
    """Forget what was found (after installing fonts, or in tests that change $COMPANION_FONT_DIRS)."""
    _index.cache_clear()


@dataclasses.dataclass(frozen=True)
class FoundFont:
    choice: FontChoice
    path: Path


def font_for(script: str, bold: bool = False, families: Sequence[str] | None = None) -> FoundFont | None:
    """The first installed font for `script` (optionally only among `families`), or None when none is."""
    for choice in SCRIPT_FONTS.get(script, ()):
        if families is not None and choice.family not in families:
            continue
        for name in choice.bold if bold else choice.regular:
            path = find_file(name)
            if path is not None:
                return FoundFont(choice, path)
    return None


def missing_font_message(script: str, language: str) -> str:
    """What to tell the table when no font of `script` is installed (in English: the script cannot be shown)."""
    choices = SCRIPT_FONTS.get(script, ())
    if not choices:
        return f"No font is known for the {script} script of {language}."
    first = choices[0]
    return (f"The {language} font ({first.family}) is not installed, so the display shows English. "
            f"Install the Debian package {first.package} and restart the display.")


@cache
def coverage(path: Path) -> frozenset[int]:
    """The code points a TrueType/OpenType font maps to glyphs (from its cmap table)."""
    return frozenset(_read_cmap(path.read_bytes()))


def missing_glyphs(text: str, fonts: Iterable[Path]) -> set[str]:
    """The visible characters of `text` that none of `fonts` has a glyph for (they would show as tofu)."""
    covered = [coverage(p) for p in fonts]
    return {c for c in set(text) if not invisible(c) and not any(ord(c) in cover for cover in covered)}


def _read_cmap(data: bytes) -> set[int]:
    """Code points of the best Unicode subtable (format 12 for the full range, else format 4)."""
    if data[:4] == b"ttcf":
        (offset,) = struct.unpack(">I", data[12:16])  # the first face of a collection
    else:
        offset = 0
    (tables,) = struct.unpack(">H", data[offset + 4:offset + 6])
    cmap_at = None
    for i in range(tables):
        tag, _sum, start, _length = struct.unpack(">4sIII", data[offset + 12 + 16 * i:offset + 28 + 16 * i])
        if tag == b"cmap":
            cmap_at = start
    if cmap_at is None:
        return set()
    (subtables,) = struct.unpack(">H", data[cmap_at + 2:cmap_at + 4])
    best: tuple[int, int] | None = None
    for i in range(subtables):
        platform, encoding, start = struct.unpack(">HHI", data[cmap_at + 4 + 8 * i:cmap_at + 12 + 8 * i])
        at = cmap_at + start
        (fmt,) = struct.unpack(">H", data[at:at + 2])
        unicode_full = (platform, encoding) in ((3, 10), (0, 4), (0, 6))
        unicode_bmp = (platform, encoding) in ((3, 1), (0, 3), (0, 1), (0, 2), (0, 0))
        if fmt == 12 and unicode_full:
            best = (12, at)
        elif fmt == 4 and unicode_bmp and (best is None or best[0] != 12):
            best = (4, at)
    if best is None:
        return set()
    fmt, at = best
    return _format12(data, at) if fmt == 12 else _format4(data, at)


def _format4(data: bytes, at: int) -> set[int]:
    (seg_x2,) = struct.unpack(">H", data[at + 6:at + 8])
    segs = seg_x2 // 2
    ends = struct.unpack(f">{segs}H", data[at + 14:at + 14 + seg_x2])
    starts = struct.unpack(f">{segs}H", data[at + 16 + seg_x2:at + 16 + 2 * seg_x2])
    deltas = struct.unpack(f">{segs}h", data[at + 16 + 2 * seg_x2:at + 16 + 3 * seg_x2])
    range_at = at + 16 + 3 * seg_x2
    ranges = struct.unpack(f">{segs}H", data[range_at:range_at + seg_x2])
    out: set[int] = set()
    for i in range(segs):
        for code in range(starts[i], ends[i] + 1):
            if code == 0xFFFF:
                continue
            if ranges[i] == 0:
                glyph = (code + deltas[i]) & 0xFFFF
            else:
                where = range_at + 2 * i + ranges[i] + 2 * (code - starts[i])
                (glyph,) = struct.unpack(">H", data[where:where + 2])
                if glyph:
                    glyph = (glyph + deltas[i]) & 0xFFFF
            if glyph:
                out.add(code)
    return out


def _format12(data: bytes, at: int) -> set[int]:
    (groups,) = struct.unpack(">I", data[at + 12:at + 16])
    out: set[int] = set()
    for i in range(groups):
        first, last, _glyph = struct.unpack(">III", data[at + 16 + 12 * i:at + 28 + 12 * i])
        out.update(range(first, last + 1))
    return out
