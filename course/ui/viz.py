"""Draw the college graph with pyvis, coloured by label, with an answer's nodes lit up.

Introduced in notebook 01 (the whole graph) and used again in notebook 08 and the chat
(`course.ui.widgets`), where the nodes an answer names are lit up and only their
neighbourhood is drawn.

The picture is one HTML file that works with no internet: vis-network is written into
the file itself (pyvis `cdn_resources="in_line"`), and the Bootstrap links pyvis's
template adds are removed. The file goes under `notebooks/figures/` (git-ignored, whatever
the working directory) and the notebook shows it in an IFrame, so the notebook stays small.
Beside it goes a small still image drawn from the same layout: a saved notebook, a
repository page or an untrusted JupyterLab shows the graph even before any cell runs.

>>> picture = draw_graph(db, highlight=["Payal"])     # doctest: +SKIP
>>> picture.nodes, picture.highlighted                 # doctest: +SKIP
(13, ['Payal'])
"""
from __future__ import annotations

import base64
import html
import io
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from collections.abc import Set
from typing import Any, Iterable

from course.foundation.config import PROJECT_ROOT
from course.foundation.db import Database, cell_values, not_text_layer

LABEL_COLOURS = {
    "Student": "#4e79a7", "Subject": "#f28e2b", "Club": "#e15759", "Skill": "#76b7b2",
    "Project": "#59a14f", "Concept": "#edc948", "Note": "#bab0ac",
}
OTHER_COLOUR = "#9c755f"
LIT_BORDER = "#d62728"        # the answer's nodes
MENTIONED_BORDER = "#222222"  # the question's names
TOOLTIP_CHARS = 160
_EXTERNAL_TAG = re.compile(
    r"<link\b[^>]*\bhref=[\"']https?://[^>]*>"
    r"|<script\b[^>]*\bsrc=[\"']https?://[^>]*>\s*</script>", re.I | re.S)
_EXTERNAL_REFERENCE = re.compile(
    r"<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)\s*=\s*[\"']?(?:https?:)?//"
    r"|@import\s+(?:url\()?[\"']?(?:https?:)?//", re.I)


@dataclass(frozen=True)
class Node:
    """One node as drawn: its internal id, label, shown name and properties."""

    id: int
    label: str
    name: str
    properties: dict[str, Any]

    def matches(self, value: str) -> bool:
        """True when `value` is this node's name or key (case-insensitive)."""
        wanted = value.strip().lower()
        keys = [self.name] + [str(self.properties.get(k, "")) for k in ("id", "code")]
        return any(wanted == k.lower() for k in keys if k)


@dataclass
class GraphData:
    """The whole graph as plain data: nodes by id and (from id, type, to id) edges."""

    nodes: dict[int, Node]
    edges: list[tuple[int, str, int]]


def figures_dir() -> Path:
    """Where pictures go: `notebooks/figures/` in the project (git-ignored), else a cache folder."""
    if (PROJECT_ROOT / "pyproject.toml").is_file():
        return PROJECT_ROOT / "notebooks" / "figures"
    return Path.home() / ".cache" / "graphrag-course" / "figures"


@dataclass
class Picture:
    """A drawn graph: the HTML file, what is in it, which nodes are lit up, and a still image.

    In a notebook it shows two things: the still image (a PNG, in the notebook itself, so
    it shows anywhere) and the interactive picture, an IFrame on the file, which appears
    once the cell has run.
    """

    path: Path
    nodes: int
    edges: int
    highlighted: list[str] = field(default_factory=list)
    mentioned: list[str] = field(default_factory=list)
    height: int = 560
    still: bytes = field(default=b"", repr=False)   # PNG, drawn from the same layout

    @property
    def src(self) -> str:
        """The file's address relative to the working directory, e.g. figures/college.html."""
        return Path(os.path.relpath(self.path, Path.cwd())).as_posix()

    def iframe(self):
        from IPython.display import IFrame

        return IFrame(self.src, width="100%", height=self.height)

    def summary(self) -> str:
        lit = f"; lit up: {', '.join(self.highlighted)}" if self.highlighted else ""
        return f"{self.nodes} nodes, {self.edges} relationships drawn in {self.src}{lit}"

    def __repr__(self) -> str:
        return f"<Picture: {self.summary()}>"

    def _repr_html_(self) -> str:
        return self.iframe()._repr_html_()

    def _ipython_display_(self) -> None:
        from IPython.display import display

        if self.still:
            display({"image/png": base64.b64encode(self.still).decode("ascii"),
                     "text/plain": f"A still picture: {self.summary()}"}, raw=True)
        display({"text/html": self._repr_html_(),
                 "text/plain": "The interactive picture (drag, zoom, hover) appears here when "
                               "the cell runs."}, raw=True)


def read_graph(db: Database) -> GraphData:
    """Every node and relationship of the course graph (the text layer's chunks left out)."""
    found = db.run(f"MATCH (n) WHERE {not_text_layer('n')} RETURN id(n), labels(n)[0], properties(n)",
                   max_rows=100_000).rows
    nodes = {nid: Node(nid, label or "", display_name(label, props), props)
             for nid, label, props in found}
    edges = db.run(f"MATCH (a)-[r]->(b) WHERE {not_text_layer('a', 'b')} "
                   "RETURN id(a), type(r), id(b)", max_rows=100_000).rows
    return GraphData(nodes, [(a, kind, b) for a, kind, b in edges])


def display_name(label: str | None, props: dict[str, Any]) -> str:
    """What a node is called in the picture: its name, else its id (notes: `N01`).

    >>> display_name("Note", {"id": "N01", "text": "..."})
    'N01'
    """
    for key in ("name", "id", "code"):
        if props.get(key) not in (None, ""):
            return str(props[key])
    return label or "?"


def text_values(rows: Iterable[Iterable[Any]]) -> list[str]:
    """The text values of query rows (what can name a node), in order, once each.

    >>> text_values([["Payal", "A+"], [["1NF", "2NF"], 3]])
    ['Payal', 'A+', '1NF', '2NF']
    """
    return [v for v in cell_values(rows) if isinstance(v, str)]


def find_nodes(graph: GraphData, values: Iterable[str]) -> list[Node]:
    """The nodes named by `values` (by name or key), in the order of the values."""
    found: dict[int, Node] = {}
    for value in values:
        for node in graph.nodes.values():
            if node.matches(value):
                found.setdefault(node.id, node)
    return list(found.values())


def neighbourhood(graph: GraphData, centre: Iterable[int], *, hops: int = 1) -> set[int]:
    """The centre nodes and every node within `hops` relationships of them (either direction)."""
    keep = set(centre)
    frontier = set(keep)
    for _ in range(hops):
        step = {b for a, _, b in graph.edges if a in frontier} | \
               {a for a, _, b in graph.edges if b in frontier}
        frontier = step - keep
        keep |= step
    return keep


def _tooltip(node: Node) -> str:
    lines = [node.label] + [f"{k}: {v}" for k, v in sorted(node.properties.items())]
    text = "\n".join(lines)
    return text if len(text) <= TOOLTIP_CHARS else text[:TOOLTIP_CHARS - 1] + "…"


# The legend line and the page margins below the canvas, in the IFrame's height.
IFRAME_EXTRA = 52
# The canvas the layout fills, in vis-network's units (about pixels at its default zoom):
# at this scale a 14 px label stays readable with all 75 nodes on screen.
CANVAS = (900, 520)


def layout(graph: GraphData, keep: Set[int]) -> dict[int, tuple[float, float]]:
    """Where each kept node goes, the same every time: a seeded force layout on the canvas.

    The interactive picture and the still image are drawn from these same positions.
    """
    import networkx as nx

    g = nx.Graph()
    g.add_nodes_from(sorted(keep))
    g.add_edges_from((a, b) for a, _, b in sorted(graph.edges) if a in keep and b in keep)
    spread = 2.2 / max(len(keep), 1) ** 0.5
    positions = nx.spring_layout(g, seed=7, k=spread, iterations=200)
    width, height = CANVAS
    return {node: (round(float(x) * width / 2, 1), round(float(y) * height / 2, 1))
            for node, (x, y) in positions.items()}


def _node_style(node: Node, lit: Set[int], mentioned: Set[int], dim: bool) -> dict[str, Any]:
    colour = LABEL_COLOURS.get(node.label, OTHER_COLOUR)
    if node.id in lit or node.id in mentioned:
        border = LIT_BORDER if node.id in lit else MENTIONED_BORDER
        return {"color": {"background": colour, "border": border}, "size": 22,
                "borderWidth": 5 if node.id in lit else 3, "font": {"size": 18}}
    note = node.label == "Note"   # 25 notes: their ids would crowd the picture; hover shows them
    return {"color": colour, "size": 7 if note else 12, "borderWidth": 1,
            "opacity": 0.35 if dim else 1.0, "font": {"size": 0 if note else 14}}


def _options(edge_labels: bool) -> dict[str, Any]:
    """vis-network options: the layout is fixed (computed once), small arrows, tooltips."""
    return {
        "physics": {"enabled": False},
        "edges": {"arrows": {"to": {"enabled": True, "scaleFactor": 0.5}},
                  "smooth": False,
                  "font": {"size": 10 if edge_labels else 0, "align": "middle"}},
        "interaction": {"hover": True, "tooltipDelay": 150},
    }


def build_network(graph: GraphData, keep: set[int], *, lit: Set[int] = frozenset(),
                  mentioned: Set[int] = frozenset(), height: int = 560,
                  positions: dict[int, tuple[float, float]] | None = None) -> Any:
    """A pyvis Network of the `keep` nodes, coloured by label, `lit` and `mentioned` marked."""
    from pyvis.network import Network

    positions = positions if positions is not None else layout(graph, keep)
    net = Network(height=f"{height}px", width="100%", directed=True, cdn_resources="in_line")
    net.templateEnv = _templates(net.template_dir)
    dim = bool(lit or mentioned) and len(keep) == len(graph.nodes)
    order = {label: i for i, label in enumerate(LABEL_COLOURS)}
    for node in sorted((graph.nodes[i] for i in keep),
                       key=lambda n: (order.get(n.label, len(order)), n.name)):
        x, y = positions[node.id]
        net.add_node(node.id, label=node.name, title=_tooltip(node), shape="dot", x=x, y=y,
                     **_node_style(node, lit, mentioned, dim))
    edges = sorted(e for e in graph.edges if e[0] in keep and e[2] in keep)
    for a, kind, b in edges:
        both_lit = a in lit and b in lit
        net.add_edge(a, b, title=kind, label=kind, width=3 if both_lit else 1,
                     color=LIT_BORDER if both_lit else "#b0b0b0")
    net.options = _options(edge_labels=len(edges) <= 60)
    return net


@lru_cache(maxsize=None)
def _templates(folder: str) -> Any:
    """One template environment for every picture: pyvis makes a new one per Network, which
    compiles its page template again each time (most of a picture's time); this one compiles
    it once per process and only reads it afterwards."""
    from jinja2 import Environment, FileSystemLoader

    return Environment(loader=FileSystemLoader(folder))


def still_image(graph: GraphData, keep: Set[int], positions: dict[int, tuple[float, float]], *,
                lit: Set[int] = frozenset(), mentioned: Set[int] = frozenset()) -> bytes:
    """The picture as a small PNG, from the same positions (matplotlib, no global state).

    >>> still_image(GraphData({}, []), set(), {})[:4]
    b'\\x89PNG'
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(7.2, 4.2), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_axes((0, 0.06, 1, 0.94))
    axes.set_axis_off()
    for a, _, b in graph.edges:
        if a in keep and b in keep:
            (xa, ya), (xb, yb) = positions[a], positions[b]
            lit_edge = a in lit and b in lit
            axes.plot([xa, xb], [-ya, -yb], color=LIT_BORDER if lit_edge else "#c8c8c8",
                      linewidth=2 if lit_edge else 0.6, zorder=1)
    dim = bool(lit or mentioned) and len(keep) == len(graph.nodes)
    for node_id in sorted(keep):
        node, (x, y) = graph.nodes[node_id], positions[node_id]
        marked = node_id in lit or node_id in mentioned
        edge = LIT_BORDER if node_id in lit else MENTIONED_BORDER if marked else "white"
        axes.scatter([x], [-y], s=140 if marked else 18 if node.label == "Note" else 45,
                     color=LABEL_COLOURS.get(node.label, OTHER_COLOUR), edgecolors=edge,
                     linewidths=2.5 if marked else 0.5, alpha=0.35 if dim and not marked else 1,
                     zorder=3 if marked else 2)
        if node.label != "Note" or marked:
            axes.annotate(node.name, (x, -y), xytext=(0, 5), textcoords="offset points",
                          ha="center", fontsize=8 if marked else 6, zorder=4,
                          fontweight="bold" if marked else "normal")
    labels = [label for label in LABEL_COLOURS if any(graph.nodes[i].label == label for i in keep)]
    for i, label in enumerate(labels):
        figure.text(0.01 + i * 0.11, 0.02, f"● {label}", color=LABEL_COLOURS[label], fontsize=7)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return _small_png(buffer.getvalue())


def _small_png(png: bytes) -> bytes:
    """The same PNG with a 128-colour palette: a fraction of the bytes, the same to the eye."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _legend(labels: Iterable[str], *, lit: bool = False, named: bool = False) -> str:
    items = "".join(
        f'<span style="margin-right:12px"><span style="display:inline-block;width:10px;'
        f'height:10px;border-radius:5px;background:{LABEL_COLOURS.get(label, OTHER_COLOUR)}">'
        f"</span> {html.escape(label)}</span>" for label in labels)
    marks = (f'<span style="margin-left:8px;color:{LIT_BORDER}">&#9711; in the answer</span>'
             if lit else "")
    marks += (f'<span style="margin-left:12px;color:{MENTIONED_BORDER}">&#9711; named in the '
              "question</span>" if named else "")
    return f'<div style="clear:both;font:12px sans-serif;padding:4px 0">{items}{marks}</div>'


def offline_html(net: Any, labels: Iterable[str] = (), *, lit: bool = False,
                 named: bool = False) -> str:
    """The network as one self-contained HTML page: no CDN script, no external CSS.

    pyvis's template links Bootstrap from a CDN even with `cdn_resources="in_line"`;
    nothing in the picture needs it, so those tags are removed.
    """
    page = _EXTERNAL_TAG.sub("", net.generate_html())
    page = re.sub(r"<center>\s*<h1>\s*</h1>\s*</center>", "", page)
    page = page.replace("</body>", _legend(labels, lit=lit, named=named) + "\n</body>", 1)
    page = page.replace("</head>", "<style>body { margin: 4px; }</style>\n</head>", 1)
    leftover = _EXTERNAL_REFERENCE.search(page)
    if leftover:
        raise RuntimeError(f"The picture still loads something from the internet: {leftover.group(0)!r}")
    return page


def draw_graph(db: Database | None = None, *, highlight: Iterable[str] = (),
               mentioned: Iterable[str] = (), focus: bool = True, hops: int = 1,
               name: str = "college", directory: str | os.PathLike[str] | None = None,
               height: int = 560, graph: GraphData | None = None) -> Picture:
    """Draw the graph to `directory/name.html` and return the Picture.

    `highlight`: values (names or keys) of the answer's nodes, lit up in red.
    `mentioned`: values named in the question, outlined in black.
    `focus`: when something is lit up, draw only it and its `hops`-neighbourhood.
    """
    if not re.fullmatch(r"[\w.-]+", name):
        raise ValueError(f"name must be a plain file name such as 'college', not {name!r}")
    if graph is None:
        if db is None:
            raise ValueError("draw_graph needs a database (db) or an already read graph (graph=...)")
        graph = read_graph(db)
    highlight, mentioned = list(highlight), list(mentioned)
    lit = {n.id for n in find_nodes(graph, highlight)}
    named = {n.id for n in find_nodes(graph, mentioned)} - lit
    keep = neighbourhood(graph, lit | named, hops=hops) if focus and (lit or named) \
        else set(graph.nodes)
    positions = layout(graph, keep)
    net = build_network(graph, keep, lit=lit, mentioned=named, height=height, positions=positions)
    labels = [label for label in LABEL_COLOURS if any(graph.nodes[i].label == label for i in keep)]
    path = Path(directory if directory is not None else figures_dir()) / f"{name}.html"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(offline_html(net, labels, lit=bool(lit), named=bool(named)), encoding="utf-8")
    return Picture(path, len(net.nodes), len(net.edges),
                   [graph.nodes[i].name for i in _ordered(lit, highlight, graph)],
                   [graph.nodes[i].name for i in _ordered(named, mentioned, graph)],
                   height + IFRAME_EXTRA, still_image(graph, keep, positions, lit=lit, mentioned=named))


def _ordered(ids: set[int], values: Iterable[str], graph: GraphData) -> list[int]:
    """`ids` in the order their values were given."""
    return [n.id for n in find_nodes(graph, values) if n.id in ids]


def draw_result(db: Database | None, result: Any, **options: Any) -> Picture:
    """Draw an agent Result: the values in its rows lit up, the question's names outlined."""
    # Only an answer lights anything up: a refusal's rows are the sentinel, not the graph.
    answered = getattr(result, "status", "answered") == "answered"
    values = text_values(result.rows) if answered else []
    mentions = [m.value for m in getattr(result, "mentions", [])]
    return draw_graph(db, highlight=values, mentioned=mentions, **options)
