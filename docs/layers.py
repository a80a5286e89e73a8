"""Draws the layers of sim/ for docs/architecture.md from the code itself.

The layer order is pyproject.toml's first import-linter contract; the arrows are the imports
grimp finds between the layers' modules, counted. `python docs/layers.py` writes the Mermaid
block in docs/architecture.md (between its `layers:begin` and `layers:end` markers) and
docs/images/layers.png; `--check` only says whether the block is up to date (exit 1 if not),
which tests/test_architecture.py asks.
"""

from __future__ import annotations

import sys
import textwrap
import tomllib
from collections import Counter
from pathlib import Path

import grimp

TOP = Path(__file__).resolve().parents[1]
DOC = TOP / "docs" / "architecture.md"
PICTURE = TOP / "docs" / "images" / "layers.png"
BEGIN, END = "<!-- layers:begin (python docs/layers.py) -->", "<!-- layers:end -->"


def layers() -> list[str]:
    """The layers, top first, as the import-linter contract lists them."""
    data = tomllib.loads((TOP / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = data["tool"]["importlinter"]["contracts"]
    return list(contracts[0]["layers"])


def layer_of(module: str, order: list[str]) -> str | None:
    return next((name for name in order if module == name or module.startswith(name + ".")), None)


def parts(graph: grimp.ImportGraph, layer: str) -> list[str]:
    """The layer's sub-packages (`movement/`) and then its modules, by their last name."""
    children = sorted(graph.find_children(layer))
    packages = [c.rsplit(".", 1)[1] + "/" for c in children if graph.find_children(c)]
    modules = [c.rsplit(".", 1)[1] for c in children if not graph.find_children(c)]
    return packages + modules


def edges(graph: grimp.ImportGraph, order: list[str]) -> Counter[tuple[str, str]]:
    """How many module-to-module imports go from each layer to each other one."""
    counted: Counter[tuple[str, str]] = Counter()
    for module in graph.modules:
        source = layer_of(module, order)
        if source is None:
            continue
        for imported in graph.find_modules_directly_imported_by(module):
            target = layer_of(imported, order)
            if target is not None and target != source:
                counted[(source, target)] += 1
    return counted


def mermaid(graph: grimp.ImportGraph, order: list[str]) -> str:
    lines = ["```mermaid", "flowchart TB"]
    for name in order:
        node = name.replace(".", "_")
        inside = ", ".join(parts(graph, name))
        lines.append(f'    {node}["<b>{name}</b><br/>{inside}"]')
    # Which layers import which, without the counts (the PNG has them): the block stays true,
    # and its test quiet, while a change adds an import along an edge that is already there.
    for source, target in sorted(
        edges(graph, order), key=lambda st: (order.index(st[0]), order.index(st[1]))
    ):
        lines.append(f"    {source.replace('.', '_')} --> {target.replace('.', '_')}")
    lines.append("```")
    return "\n".join(lines)


def block(graph: grimp.ImportGraph, order: list[str]) -> str:
    return f"{BEGIN}\n{mermaid(graph, order)}\n{END}"


def picture(graph: grimp.ImportGraph, order: list[str], out: Path) -> None:
    """The same diagram as a PNG: a box per layer, top to bottom, and each layer's imports of
    the layers below it (module-to-module counts) to the box's right."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    counted = edges(graph, order)
    fig, ax = plt.subplots(figsize=(12, 0.9 * len(order) + 0.6), dpi=100)
    ax.set_xlim(0, 12)
    ax.set_ylim(0, len(order))
    ax.axis("off")
    for row, name in enumerate(order):
        y = len(order) - row - 1
        ax.add_patch(
            plt.Rectangle((0.1, y + 0.08), 6.4, 0.84, facecolor="#e8eef7", edgecolor="#0072B2")
        )
        ax.text(0.25, y + 0.7, name, fontsize=11, weight="bold", va="center")
        inside = textwrap.fill(", ".join(parts(graph, name)), 90)
        ax.text(0.25, y + 0.5, inside, fontsize=8, va="top", linespacing=1.3)
        below = [(t, n) for (s, t), n in counted.items() if s == name]
        below.sort(key=lambda tn: order.index(tn[0]))
        said = "imports " + ", ".join(f"{t.removeprefix('sim.')} {n}" for t, n in below)
        ax.text(6.7, y + 0.5, said if below else "imports no other layer", fontsize=8.5)
    ax.set_title("The layers of sim/: each imports only those below it", fontsize=11)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(TOP))  # the sim of this tree, not the one an editable install names
    order = layers()
    graph = grimp.build_graph("sim")
    text = DOC.read_text(encoding="utf-8")
    start, end = text.index(BEGIN), text.index(END) + len(END)
    wanted = block(graph, order)
    if "--check" in argv:
        if text[start:end] != wanted:
            print(f"{DOC}: the layers diagram is out of date: run python docs/layers.py")
            return 1
        return 0
    DOC.write_text(text[:start] + wanted + text[end:], encoding="utf-8")
    picture(graph, order, PICTURE)
    print(f"wrote the diagram in {DOC} and {PICTURE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
