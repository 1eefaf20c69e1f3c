"""The graph as the page draws it: positioned nodes and edges, the answer lit, names ringed.

The same picture as the notebook's (`course.ui.viz`): the same colours by label, the same
seeded layout, the answer's nodes and their neighbourhood, red for the answer and black for
the question's names. The server lays it out (networkx); the page's own script draws it as
SVG, every label set as text. The graph is read once per data version, and a picture once per
set of lit and named nodes (a room asks the same questions).

>>> view = graph_view(GraphData({1: Node(1, "Student", "Payal", {})}, []), ["Payal"], [])
>>> view["nodes"][0]["name"], view["nodes"][0]["lit"], view["lit"]
('Payal', True, ['Payal'])
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from course.foundation.db import Database
from course.foundation.versioning import data_version
from course.ui.viz import (LABEL_COLOURS, LIT_BORDER, MENTIONED_BORDER, OTHER_COLOUR, GraphData,
                           Node, find_nodes, layout, neighbourhood, read_graph)
from course.ui.web.access import page_text

TITLE_CHARS = 200     # a node's hover text


Place = Callable[[GraphData, frozenset[int]], dict[int, tuple[float, float]]]


def graph_view(graph: GraphData, lit_values: Iterable[str], named_values: Iterable[str],
               *, hops: int = 1, place: Place = layout) -> dict[str, Any]:
    """The nodes and edges to draw: with something lit, it and its `hops`-neighbourhood.

    `place` lays them out (`viz.layout`, or a cached one)."""
    lit = {n.id for n in find_nodes(graph, lit_values)}
    named = {n.id for n in find_nodes(graph, named_values)} - lit
    keep = neighbourhood(graph, lit | named, hops=hops) if lit or named else set(graph.nodes)
    positions = place(graph, frozenset(keep))
    nodes = [_node(graph.nodes[i], positions[i], lit, named) for i in sorted(keep)]
    edges = [{"from": a, "to": b, "type": kind, "lit": a in lit and b in lit}
             for a, kind, b in sorted(graph.edges) if a in keep and b in keep]
    labels = [label for label in LABEL_COLOURS if any(graph.nodes[i].label == label for i in keep)]
    return {"nodes": nodes, "edges": edges,
            "legend": [{"label": label, "colour": LABEL_COLOURS[label]} for label in labels],
            "lit": [graph.nodes[i].name for i in sorted(lit)],
            "named": [graph.nodes[i].name for i in sorted(named)],
            "marks": {"lit": LIT_BORDER, "named": MENTIONED_BORDER}}


def _node(node: Node, at: tuple[float, float], lit: set[int], named: set[int]) -> dict[str, Any]:
    title = "\n".join([node.label] + [f"{k}: {v}" for k, v in sorted(node.properties.items())])
    return {"id": node.id, "name": page_text(node.name, limit=60), "label": page_text(node.label),
            "colour": LABEL_COLOURS.get(node.label, OTHER_COLOUR), "x": at[0], "y": at[1],
            "lit": node.id in lit, "named": node.id in named, "note": node.label == "Note",
            "title": page_text(title, limit=TITLE_CHARS)}


class GraphSource:
    """The course graph read once per data version, and its layouts kept, for every session."""

    def __init__(self, db: Database, *, kept: int = 256) -> None:
        self.db, self.kept = db, kept
        self._graph: tuple[str, GraphData] | None = None
        self._places: dict[frozenset[int], dict[int, tuple[float, float]]] = {}
        self._views: dict[tuple[frozenset[int], frozenset[int]], dict[str, Any]] = {}
        self._lock = threading.Lock()

    def graph(self) -> GraphData:
        version = data_version(self.db)
        with self._lock:
            if self._graph is None or self._graph[0] != version:
                self._graph, self._places = (version, read_graph(self.db)), {}
                self._views = {}
            return self._graph[1]

    def _place(self, graph: GraphData, keep: frozenset[int]) -> dict[int, tuple[float, float]]:
        """`viz.layout`, remembered per node set (a layout takes milliseconds; a hit, none)."""
        with self._lock:
            found = self._places.get(keep)
        if found is None:
            found = layout(graph, keep)
            with self._lock:
                if len(self._places) >= self.kept:
                    self._places.clear()
                self._places[keep] = found
        return found

    def view(self, lit: Sequence[str], named: Sequence[str]) -> dict[str, Any]:
        """The picture of an answer; the same lit and named nodes again: the same picture."""
        graph = self.graph()
        key = (frozenset(n.id for n in find_nodes(graph, lit)),
               frozenset(n.id for n in find_nodes(graph, named)))
        with self._lock:
            found = self._views.get(key) if self._graph and self._graph[1] is graph else None
        if found is None:
            found = graph_view(graph, lit, named, place=self._place)
            with self._lock:
                if len(self._views) >= self.kept:
                    self._views.clear()
                self._views[key] = found
        return found
