"""The plan as a picture: one column per day, one box per concept, an arrow per prerequisite.

Introduced in notebook 14.

>>> from course.planner.plans import plan
>>> p = plan(db, "Karan", "DBMS", days=3)
>>> draw(p).count("<rect"), len(p.concepts())      # a box per concept
(8, 8)
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from course.planner.plans import Plan


@dataclass(frozen=True)
class PlanPicture:
    """An SVG that Jupyter shows as a picture; `.svg` is its text (write it to a file)."""

    svg: str

    def _repr_svg_(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        return f"<PlanPicture: an SVG of {len(self.svg):,} characters>"


BOX_W, BOX_H, GAP_X, GAP_Y, TOP = 160, 30, 40, 14, 34


def draw(p: Plan) -> str:
    """The plan as a small SVG: one column per day, one box per concept, an arrow per prerequisite.

    A concept no note explains has a dashed box and a star.

    >>> from course.planner.plans import plan
    >>> draw(plan(db, "Karan", "DBMS", days=3)).startswith("<svg")
    True
    """
    where: dict[str, tuple[int, int]] = {}
    for col, day in enumerate(p.days):
        for row, c in enumerate(day.concepts):
            where[c.id] = (10 + col * (BOX_W + GAP_X), TOP + row * (BOX_H + GAP_Y))
    width = max(50 + len(p.days) * (BOX_W + GAP_X) - GAP_X, 420)   # room for same-day curves
    rows = max((len(d.concepts) for d in p.days), default=0)
    height = TOP + rows * (BOX_H + GAP_Y) + 24
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif" font-size="12">',
             '<defs><marker id="head" markerWidth="8" markerHeight="8" refX="7" refY="4" '
             'orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="#555"/></marker></defs>']
    for col, day in enumerate(p.days):
        x = 10 + col * (BOX_W + GAP_X) + BOX_W // 2
        parts.append(f'<text x="{x}" y="20" text-anchor="middle" font-weight="bold">'
                     f'Day {day.day}</text>')
    parts += [_arrow(where[before], where[after]) for before, after in p.arrows]
    for c in p.concepts():
        x, y = where[c.id]
        fill, dash = ("#e8f0fe", "") if c.note else ("#fff4e5", ' stroke-dasharray="4 3"')
        parts.append(f'<rect x="{x}" y="{y}" width="{BOX_W}" height="{BOX_H}" rx="5" '
                     f'fill="{fill}" stroke="#3366cc"{dash}/>')
        label = html.escape(c.name + ("" if c.note else " *"))
        parts.append(f'<text x="{x + BOX_W // 2}" y="{y + BOX_H // 2 + 4}" '
                     f'text-anchor="middle">{label}</text>')
    parts.append(f'<text x="10" y="{height - 8}" fill="#555">arrow: prerequisite '
                 '(learn first) · * dashed: no note explains it yet</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def _arrow(start: tuple[int, int], end: tuple[int, int]) -> str:
    (x1, y1), (x2, y2) = start, end
    sy, ey = y1 + BOX_H // 2, y2 + BOX_H // 2
    if x1 == x2:   # the same day: a curve down the right-hand side of the column
        sx, ex = x1 + BOX_W, x2 + BOX_W + 2
        bend = sx + 16 + abs(ey - sy) // 6
        path = f"M{sx},{sy} C{bend},{sy} {bend},{ey} {ex},{ey}"
    elif x2 - x1 == BOX_W + GAP_X:   # the next day: an S-curve across the gap
        sx, ex = x1 + BOX_W, x2 - 2
        path = f"M{sx},{sy} C{sx + GAP_X // 2},{sy} {ex - GAP_X // 2},{ey} {ex},{ey}"
    else:   # a later day: along the gap below the rows, not behind the boxes in between
        sx, ex, low = x1 + BOX_W, x2 - 2, max(y1, y2) + BOX_H + GAP_Y // 2
        path = (f"M{sx},{sy} C{sx + GAP_X // 2},{sy} {sx + GAP_X // 2},{low} {sx + GAP_X},{low} "
                f"L{ex - GAP_X},{low} C{ex - GAP_X // 2},{low} {ex - GAP_X // 2},{ey} {ex},{ey}")
    return f'<path d="{path}" fill="none" stroke="#555" marker-end="url(#head)"/>'
