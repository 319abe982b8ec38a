"""A card id kept in an NTAG213's user memory, so a tagged deck also works with another companion.

Layout from page 4: `T C` (magic), the format version 1, the id's length, then the id in ASCII, padded to
whole pages. NTAG213 has 36 user pages (144 bytes); ids are short names like `plant-27` or `chili-3`.
"""

FIRST_PAGE = 4
LAST_PAGE = 39
MAGIC = b"TC"
VERSION = 1
MAX_ID = (LAST_PAGE - FIRST_PAGE + 1) * 4 - 4


def pack(card_id):
    """The bytes to write from FIRST_PAGE, a multiple of 4 long."""
    data = card_id.encode()
    if not data or len(data) > MAX_ID or len(data) != len(card_id):
        raise ValueError("card id must be 1 to %d ASCII characters" % MAX_ID)
    out = bytearray(MAGIC)
    out.append(VERSION)
    out.append(len(data))
    out.extend(data)
    while len(out) % 4:
        out.append(0)
    return out


def unpack(data):
    """The card id in bytes read from FIRST_PAGE, or None when the tag carries none."""
    if len(data) < 4 or data[0:2] != MAGIC or data[2] != VERSION:
        return None
    length = data[3]
    if length == 0 or 4 + length > len(data):
        return None
    try:
        return bytes(data[4 : 4 + length]).decode()
    except UnicodeError:  # a tag written by something else: not ours
        return None


def write_card(reader, card_id):
    """Write a card id to the tag on the reader and read it back; the tag's UID length, or 0 on failure."""
    data = pack(card_id)
    if not reader.ready:
        return 0
    length = reader.select()
    if not length:
        return 0
    page = bytearray(4)
    for i in range(0, len(data), 4):
        for j in range(4):
            page[j] = data[i + j]
        if not reader.ntag_write(FIRST_PAGE + i // 4, page):
            return 0
    found = read_card(reader, selected=True)
    reader.halt()
    return length if found == card_id else 0


def read_card(reader, selected=False):
    """The card id stored on the tag on the reader, or None."""
    if not reader.ready:
        return None
    if not selected and not reader.select():
        return None
    block = bytearray(16)
    if not reader.ntag_read(FIRST_PAGE, block):
        return None
    if block[0:2] != MAGIC:
        return None
    needed = 4 + block[3]
    data = bytearray(block)
    page = FIRST_PAGE + 4
    while len(data) < needed and page <= LAST_PAGE:
        if not reader.ntag_read(page, block):
            return None
        data.extend(block)
        page += 4
    result = unpack(data)
    if not selected:
        reader.halt()
    return result
