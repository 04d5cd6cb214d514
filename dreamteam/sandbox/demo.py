"""A small maze world with hand-written artifacts, for tests, the benchmark and the docs.

The frame: walls (colour 5) around the border and in a few blocks, a 2x2 player (colour 3) and, on the
bottom row, a bar of colour 9 one cell longer per action taken (modulo 64). ACTION1-4 move the player
one cell up/down/left/right unless a wall is in the way; other actions only grow the bar.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from dreamteam.sandbox.wire import hex_rows

SIZE = 64
WALL, PLAYER, BAR = 5, 3, 9
DELTAS = {"ACTION1": (0, -1), "ACTION2": (0, 1), "ACTION3": (-1, 0), "ACTION4": (1, 0)}
_BLOCKS = ((10, 10, 20, 12), (30, 20, 32, 40), (40, 45, 55, 47), (12, 30, 14, 50))

OBSERVABLE = '''"""Observation model: walls, a 2x2 player sprite and a move bar on the bottom row."""
import grid

ENTITY_TYPES = {
    "wall": {"color": 5, "description": "static cells that block movement"},
    "player": {"color": 3, "description": "2x2 sprite moved by ACTION1-4"},
    "bar": {"color": 9, "description": "bottom-row counter, one cell per action"},
}


def parse(frame):
    """Objects by colour."""
    box = grid.bbox(frame, 3)
    player = None if box is None else {"x": box[0], "y": box[1], "w": box[2] - box[0] + 1, "h": box[3] - box[1] + 1}
    bar = grid.count(frame, 9)
    return {"background": 0, "walls": grid.cells(frame, 5), "player": player, "bar": bar}


def render(z):
    """Draw the state back into a 64x64 grid."""
    canvas = grid.full(64, 64, z["background"])
    grid.paint(canvas, z["walls"], 5)
    player = z["player"]
    if player is not None:
        grid.fill_rect(canvas, player["x"], player["y"], player["x"] + player["w"] - 1, player["y"] + player["h"] - 1, 3)
    if z["bar"]:
        grid.fill_rect(canvas, 0, 63, z["bar"] - 1, 63, 9)
    return canvas
'''

DYNAMICS = '''"""Dynamics: the player moves one cell per arrow action unless a wall blocks it; the bar grows."""

HYPOTHESES = [
    {"name": "arrow-moves", "description": "ACTION1-4 move the player by one cell", "evidence": 0},
    {"name": "walls-block", "description": "a move into a wall leaves the player in place", "evidence": 0},
    {"name": "bar-counts", "description": "every action adds one bar cell (mod 64)", "evidence": 0},
]

dyn_DELTAS = {"ACTION1": (0, -1), "ACTION2": (0, 1), "ACTION3": (-1, 0), "ACTION4": (1, 0)}


def dyn_blocked(walls, player, dx, dy):
    """Whether the moved sprite would overlap a wall."""
    nx, ny = player["x"] + dx, player["y"] + dy
    for x in range(nx, nx + player["w"]):
        for y in range(ny, ny + player["h"]):
            if (x, y) in walls:
                return True
    return False


def history(z, h, a):
    """Count actions."""
    return {"moves": h.get("moves", 0) + 1}


def predict(z, h, a):
    """Move the player unless blocked; grow the bar."""
    out = dict(z)
    player = z["player"]
    dx, dy = dyn_DELTAS.get(a["action"], (0, 0))
    if player is not None and (dx or dy) and not dyn_blocked(set(z["walls"]), player, dx, dy):
        out["player"] = {"x": player["x"] + dx, "y": player["y"] + dy, "w": player["w"], "h": player["h"]}
    out["bar"] = (z["bar"] + 1) % 64
    return out
'''

DYNAMICS_NO_WALLS = DYNAMICS.replace(
    "and not dyn_blocked(set(z[\"walls\"]), player, dx, dy)", ""
).replace('"walls-block", "description": "a move into a wall leaves the player in place"', '"walls-ignored", "description": "walls do not block"')
"""A plausible wrong patch: forgets that walls block (regresses every blocked move)."""

DYNAMICS_STATIC = '''"""Dynamics that predicts nothing moves (only the bar grows)."""

HYPOTHESES = [{"name": "static", "description": "nothing but the bar changes", "evidence": 0}]


def predict(z, h, a):
    """Grow the bar."""
    out = dict(z)
    out["bar"] = (z["bar"] + 1) % 64
    return out
'''


def _draw(player: tuple[int, int], bar: int) -> np.ndarray:
    frame = np.zeros((SIZE, SIZE), dtype=np.int8)
    frame[0, :] = frame[62, :] = frame[:63, 0] = frame[:63, SIZE - 1] = WALL
    for x0, y0, x1, y1 in _BLOCKS:
        frame[y0 : y1 + 1, x0 : x1 + 1] = WALL
    px, py = player
    frame[py : py + 2, px : px + 2] = PLAYER
    frame[63, :bar] = BAR
    return frame


def _move(frame: np.ndarray, player: tuple[int, int], action: str) -> tuple[int, int]:
    dx, dy = DELTAS.get(action, (0, 0))
    nx, ny = player[0] + dx, player[1] + dy
    if (frame[ny : ny + 2, nx : nx + 2] == WALL).any():
        return player
    return nx, ny


def transitions(count: int = 200, seed: int = 0) -> list[dict[str, Any]]:
    """`count` transitions of the maze world in the shared format (random walk, mostly arrow actions)."""
    rng = random.Random(seed)
    player, bar = (3, 3), 0
    out = []
    for step in range(count):
        action = rng.choice(["ACTION1", "ACTION2", "ACTION3", "ACTION4"] * 3 + ["ACTION5", "ACTION6"])
        before = _draw(player, bar)
        player = _move(before, player, action)
        bar = (bar + 1) % SIZE
        after = _draw(player, bar)
        act: dict[str, Any] = {"action": action}
        if action == "ACTION6":
            act.update(x=rng.randrange(SIZE), y=rng.randrange(SIZE))
        out.append({
            "step": step, "level": 0, "action": act, "before": hex_rows(before), "after": hex_rows(after),
            "frames": 1, "history": {"moves": step}, "level_up": False, "game_over": False,
            "pinned": False, "pin_reason": "",
        })
    return out
