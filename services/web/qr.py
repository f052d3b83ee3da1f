"""The join QR code as a small SVG (the qrcode package computes the modules)."""

from __future__ import annotations

from functools import lru_cache

import qrcode
import qrcode.constants

QUIET_ZONE = 4  # modules of white border the standard asks for


def qr_matrix(text: str) -> list[list[bool]]:
    """The QR modules of ``text``, quiet zone included (True = dark)."""
    code = qrcode.QRCode(
        error_correction=qrcode.constants.ERROR_CORRECT_M, border=QUIET_ZONE, box_size=1
    )
    code.add_data(text)
    code.make(fit=True)
    matrix: list[list[bool]] = [[bool(cell) for cell in row] for row in code.get_matrix()]
    return matrix


@lru_cache(maxsize=64)
def qr_svg(text: str) -> str:
    """An SVG of the QR code of ``text``: one path of horizontal runs, crisp at any size."""
    matrix = qr_matrix(text)
    size = len(matrix)
    runs: list[str] = []
    for y, row in enumerate(matrix):
        x = 0
        while x < size:
            if not row[x]:
                x += 1
                continue
            start = x
            while x < size and row[x]:
                x += 1
            runs.append(f"M{start} {y}h{x - start}v1h-{x - start}z")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" '
        f'shape-rendering="crispEdges" role="img" data-modules="{size}">'
        f'<rect width="{size}" height="{size}" fill="#fff"/>'
        f'<path fill="#000" d="{"".join(runs)}"/></svg>'
    )
