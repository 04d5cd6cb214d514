"""Reference solver for `keys`: breadth-first search over (player cell, door/key state)."""

from __future__ import annotations

from collections import deque
from typing import Any

Step = tuple[int, int | None, int | None]
Board = tuple[str, ...]
State = tuple[int, int, Board]

MOVES = {1: (0, -1), 2: (0, 1), 3: (-1, 0), 4: (1, 0)}
CLOSED_DOORS, OPEN_DOORS, KEYS, PLATES = "RYVO", "ryvo", "1234", "5678"


def after_entering(board: Board, x: int, y: int) -> Board:
    """The board after the player steps onto (x, y): keys remove their doors, plates toggle theirs."""
    char = board[y][x]
    if char in KEYS:
        group = KEYS.index(char)
        gone = {CLOSED_DOORS[group], OPEN_DOORS[group]}
        rows = [list(row) for row in board]
        rows[y][x] = "."
        return tuple("".join("." if c in gone else c for c in row) for row in rows)
    if char in PLATES:
        group = PLATES.index(char)
        swap = str.maketrans(CLOSED_DOORS[group] + OPEN_DOORS[group], OPEN_DOORS[group] + CLOSED_DOORS[group])
        return tuple(row.translate(swap) for row in board)
    return board


def successors(state: State) -> list[tuple[int, State]]:
    """(action id, next state) for every move that is not blocked by a wall or closed door."""
    x, y, board = state
    out = []
    for action, (dx, dy) in MOVES.items():
        nx, ny = x + dx, y + dy
        char = board[ny][nx]
        if char != "#" and char not in CLOSED_DOORS:
            out.append((action, (nx, ny, after_entering(board, nx, ny))))
    return out


def plan(start: State) -> list[int]:
    """Action ids of a shortest walk from `start` onto the exit."""
    parent: dict[State, tuple[State, int] | None] = {start: None}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if state[2][state[1]][state[0]] == "E":
            return _path_to(parent, state)
        for action, nxt in successors(state):
            if nxt not in parent:
                parent[nxt] = (state, action)
                queue.append(nxt)
    raise ValueError("exit unreachable")


def _path_to(parent: dict[State, tuple[State, int] | None], state: State) -> list[int]:
    path: list[int] = []
    link = parent[state]
    while link is not None:
        state, action = link
        path.append(action)
        link = parent[state]
    return path[::-1]


def solve_level(game: Any, level_index: int) -> list[Step]:
    """Shortest move sequence from the game's current state to the exit."""
    assert game.level_index == level_index, "game is not at the requested level"
    x, y = game.player_cell
    board = tuple("".join(row) for row in game.cells)
    return [(action, None, None) for action in plan((x, y, board))]
