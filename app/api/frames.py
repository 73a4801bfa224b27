"""RFC 6455 frames on the hot paths, where websockets' own code costs several times more: the
text frames a server writes (``add_text_frames``) and the whole, masked text frames a client
sends (``whole_text_frame``). Anything else is websockets' to write or read
(``websocket_protocol``); tests hold both equal to what websockets does."""

from __future__ import annotations

import struct

from websockets.speedups import apply_mask

_TEXT = 0x81  # FIN and the text opcode, no reserved bit
_MASKED_16 = 0x80 | 126  # a client's (masked) frame, its length in the next two bytes
_LENGTH_16 = struct.Struct("!BBH")
_LENGTH_64 = struct.Struct("!BBQ")


def add_text_frames(out: list[bytes], texts: list[str]) -> None:
    """Each text as an unmasked, unfragmented text frame (RFC 6455, 5.2), as a server sends it:
    its header and its bytes added to ``out``, which the caller joins once (no call or copy
    a frame: a move's frames are a tenth of its calls)."""
    for text in texts:
        data = text.encode()
        size = len(data)
        if size < 126:
            out.append(bytes((_TEXT, size)))
        elif size < 65536:
            out.append(_LENGTH_16.pack(_TEXT, 126, size))
        else:
            out.append(_LENGTH_64.pack(_TEXT, 127, size))
        out.append(data)


def whole_text_frame(data: bytes, start: int, limit: int | None) -> tuple[bytes, int] | None:
    """The payload, unmasked, of the frame at ``start`` and where the next one starts, if it
    is a whole, masked, unfragmented text frame of at most ``limit`` bytes (a 64-bit length
    never is); else None (a control frame, a fragment, a frame cut short, anything wrong)."""
    end = len(data)
    if start + 2 > end or data[start] != _TEXT:
        return None
    second = data[start + 1]
    if second & 0x80 == 0 or second > _MASKED_16:  # unmasked, or a 64-bit length
        return None
    if second == _MASKED_16:
        size, mask_at = int.from_bytes(data[start + 2:start + 4]), start + 4
    else:
        size, mask_at = second & 0x7F, start + 2
    after = mask_at + 4 + size
    if after > end or (limit is not None and size > limit):
        return None
    return apply_mask(data[mask_at + 4:after], data[mask_at:mask_at + 4]), after
