"""Draw the college graph with pyvis, coloured by label, with an answer's nodes lit up.

Introduced in notebook 01 (the whole graph) and used again in notebook 08 and the chat
(`course.widgets`), where the nodes an answer names are lit up and only their
neighbourhood is drawn.

The picture is one HTML file that works with no internet: vis-network is written into
the file itself (pyvis `cdn_resources="in_line"`), and the Bootstrap links pyvis's
template adds are removed. The file goes under `figures/` beside the notebook and the
notebook shows it in an IFrame, so the notebook itself stays small.

>>> picture = draw_graph(db, highlight=["Payal"])     # doctest: +SKIP
>>> picture.nodes, picture.highlighted                 # doctest: +SKIP
(13, ['Payal'])
"""
from __future__ import annotations

import html
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from .db import Database, cell_values, not_text_layer

FIGURES_DIR = "figures"  # relative to the working directory: the notebook's folder
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


@dataclass
class Picture:
    """A drawn graph: the HTML file, what is in it, and which nodes are lit up.

    In a notebook it shows itself as an IFrame on the file (a relative path).
    """

    path: Path
    nodes: int
    edges: int
    highlighted: list[str] = field(default_factory=list)
    mentioned: list[str] = field(default_factory=list)
    height: int = 560

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


def _node_style(node: Node, lit: set[int], mentioned: set[int], dim: bool) -> dict[str, Any]:
    colour = LABEL_COLOURS.get(node.label, OTHER_COLOUR)
    if node.id in lit or node.id in mentioned:
        border = LIT_BORDER if node.id in lit else MENTIONED_BORDER
        return {"color": {"background": colour, "border": border}, "size": 28,
                "borderWidth": 5 if node.id in lit else 3, "font": {"size": 18}}
    return {"color": colour, "size": 14 if node.label != "Note" else 9, "borderWidth": 1,
            "opacity": 0.35 if dim else 1.0, "font": {"size": 12}}


def _options(edge_labels: bool) -> dict[str, Any]:
    """vis-network options: a calm force layout, small arrows, tooltips on hover."""
    return {
        "physics": {"enabled": True, "stabilization": {"iterations": 300},
                    "barnesHut": {"gravitationalConstant": -4000, "springLength": 110,
                                  "springConstant": 0.04, "damping": 0.3}},
        "edges": {"arrows": {"to": {"enabled": True, "scaleFactor": 0.5}},
                  "smooth": {"type": "continuous"},
                  "font": {"size": 9 if edge_labels else 0, "align": "middle"}},
        "interaction": {"hover": True, "tooltipDelay": 150},
    }


def build_network(graph: GraphData, keep: set[int], *, lit: set[int] = frozenset(),
                  mentioned: set[int] = frozenset(), height: int = 560):
    """A pyvis Network of the `keep` nodes, coloured by label, `lit` and `mentioned` marked."""
    from pyvis.network import Network

    net = Network(height=f"{height}px", width="100%", directed=True, cdn_resources="in_line")
    dim = bool(lit or mentioned) and len(keep) == len(graph.nodes)
    order = {label: i for i, label in enumerate(LABEL_COLOURS)}
    for node in sorted((graph.nodes[i] for i in keep),
                       key=lambda n: (order.get(n.label, len(order)), n.name)):
        net.add_node(node.id, label=node.name, title=_tooltip(node), shape="dot",
                     **_node_style(node, lit, mentioned, dim))
    edges = sorted(e for e in graph.edges if e[0] in keep and e[2] in keep)
    for a, kind, b in edges:
        both_lit = a in lit and b in lit
        net.add_edge(a, b, title=kind, label=kind, width=3 if both_lit else 1,
                     color=LIT_BORDER if both_lit else "#b0b0b0")
    net.options = _options(edge_labels=len(edges) <= 60)
    return net


def _legend(labels: Iterable[str]) -> str:
    items = "".join(
        f'<span style="margin-right:12px"><span style="display:inline-block;width:10px;'
        f'height:10px;border-radius:5px;background:{LABEL_COLOURS.get(label, OTHER_COLOUR)}">'
        f"</span> {html.escape(label)}</span>" for label in labels)
    lit = (f'<span style="margin-left:8px;color:{LIT_BORDER}">&#9711; in the answer</span>'
           f'<span style="margin-left:12px;color:{MENTIONED_BORDER}">&#9711; named in the question</span>')
    return f'<div style="clear:both;font:12px sans-serif;padding:4px 0">{items}{lit}</div>'


def offline_html(net, labels: Iterable[str] = ()) -> str:
    """The network as one self-contained HTML page: no CDN script, no external CSS.

    pyvis's template links Bootstrap from a CDN even with `cdn_resources="in_line"`;
    nothing in the picture needs it, so those tags are removed.
    """
    page = _EXTERNAL_TAG.sub("", net.generate_html())
    page = re.sub(r"<center>\s*<h1>\s*</h1>\s*</center>", "", page)
    page = page.replace("</body>", _legend(labels) + "\n</body>", 1)
    page = page.replace("</head>", "<style>body { margin: 4px; }</style>\n</head>", 1)
    leftover = _EXTERNAL_REFERENCE.search(page)
    if leftover:
        raise RuntimeError(f"The picture still loads something from the internet: {leftover.group(0)!r}")
    return page


def draw_graph(db: Database | None = None, *, highlight: Iterable[str] = (),
               mentioned: Iterable[str] = (), focus: bool = True, hops: int = 1,
               name: str = "college", directory: str | os.PathLike = FIGURES_DIR,
               height: int = 560, graph: GraphData | None = None) -> Picture:
    """Draw the graph to `directory/name.html` and return the Picture.

    `highlight`: values (names or keys) of the answer's nodes, lit up in red.
    `mentioned`: values named in the question, outlined in black.
    `focus`: when something is lit up, draw only it and its `hops`-neighbourhood.
    """
    if not re.fullmatch(r"[\w.-]+", name):
        raise ValueError(f"name must be a plain file name such as 'college', not {name!r}")
    graph = graph if graph is not None else read_graph(db)
    highlight, mentioned = list(highlight), list(mentioned)
    lit = {n.id for n in find_nodes(graph, highlight)}
    named = {n.id for n in find_nodes(graph, mentioned)} - lit
    keep = neighbourhood(graph, lit | named, hops=hops) if focus and (lit or named) \
        else set(graph.nodes)
    net = build_network(graph, keep, lit=lit, mentioned=named, height=height)
    labels = [label for label in LABEL_COLOURS if any(graph.nodes[i].label == label for i in keep)]
    path = Path(directory) / f"{name}.html"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(offline_html(net, labels), encoding="utf-8")
    return Picture(path, len(net.nodes), len(net.edges),
                   [graph.nodes[i].name for i in _ordered(lit, highlight, graph)],
                   [graph.nodes[i].name for i in _ordered(named, mentioned, graph)], height + 70)


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
