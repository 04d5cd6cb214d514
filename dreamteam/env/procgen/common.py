"""Shared parts of the procedural generators: variant values, colours, action maps, writing and verifying.

A family's game module (games/<family>/v1/<class>.py) holds everything a variant may change in one
`VARIANT = {...}` literal between the two marker lines below. A generated variant is a toolkit version
directory `<out>/<family>/s<seed>/` holding metadata.json and a copy of that module whose block holds
the generated literal, verified by replaying the planner's solutions through `arc_agi.Arcade` offline.
"""

from __future__ import annotations

import ast
import json
import logging
import os
import random
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dreamteam.errors import UserError
from dreamteam.paths import bundled_games_dir
from dreamteam.types import Action

BLOCK_START = "# --- variant data: generated, do not edit ---"
BLOCK_END = "# --- end of variant data ---"
TEMPLATE_VERSION = "v1"
GENERATED_DATE = "2025-01-01T00:00:00Z"
"""Fixed and older than every bundled version, so a base id such as `maze` still resolves to `maze-v1`."""
DEV_SEEDS = range(1, 100)
HELD_OUT_FIRST_SEED = 1000
SIZES: dict[str, str] = {"standard": "s", "large": "l"}
"""Size profiles and the letter their version names start with (`maze-s0007`, `maze-l0007`).

`standard` variants start with tutorial-sized levels (a 3x3 maze, one block to push) and grow; `large`
variants start around where standard ones end and grow beyond, to the scale of the official ARC-AGI-3
levels (solutions of tens of actions, state spaces that blind exploration does not cover in 1,000
actions). See docs/procgen.md."""

Direction = tuple[int, int]
DIRECTIONS: dict[str, Direction] = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
KEYBOARD_ACTIONS = ("ACTION1", "ACTION2", "ACTION3", "ACTION4")
V1_MOVES: dict[str, list[int]] = {
    "ACTION1": [0, -1], "ACTION2": [0, 1], "ACTION3": [-1, 0], "ACTION4": [1, 0],
}

BACKGROUND_COLOURS = (5, 4, 0, 1)
"""Neutral colours a background/letterbox may take: black, off-black, white, off-white."""
CONFUSABLE_COLOURS = frozenset(
    frozenset(pair) for pair in ((0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (6, 7), (9, 10), (8, 13))
)
"""Pairs of neighbouring shades that are hard to tell apart by eye; never both in one palette."""


class VariantError(Exception):
    """A generated variant failed to load or its planned solution did not complete every level."""


@dataclass(frozen=True)
class VariantData:
    """One generated variant: its family, seed and the `VARIANT` literal of its game module."""

    family: str
    seed: int
    variant: Mapping[str, Any]
    size: str = "standard"

    @property
    def version(self) -> str:
        """The toolkit version name, e.g. `s0007` (`l0007` for a large variant)."""
        return version_name(self.seed, self.size)

    @property
    def game_id(self) -> str:
        """The toolkit game id, e.g. `maze-s0007`."""
        return f"{self.family}-{self.version}"

    @property
    def level_count(self) -> int:
        """Number of levels in the variant."""
        return len(self.variant["levels"])


@dataclass(frozen=True)
class FamilySpec:
    """What a family module exposes as `FAMILY`: its name, generator and planner."""

    name: str
    generate: Callable[[int], VariantData]
    plan: Callable[[VariantData], list[list[Action]]]
    """One solution (list of actions) per level, planned from the variant data alone."""
    generate_large: Callable[[int], VariantData] | None = None
    """The `large` size profile's generator (same rules engine and planner, bigger levels)."""


def as_written(family: str, seed: int, variant: dict[str, Any], size: str = "standard") -> VariantData:
    """The variant with tuples turned into lists: the form its data block reads back as."""
    return VariantData(family, seed, json.loads(json.dumps(variant)), size)


def solve_levels(
    data: VariantData, solve: Callable[[Mapping[str, Any]], list[Action] | None], failure: str
) -> list[list[Action]]:
    """`solve` of every level spec; VariantError "<game id>: level <i> <failure>" when it finds no solution."""
    solutions: list[list[Action]] = []
    for index, spec in enumerate(data.variant["levels"]):
        actions = solve(spec)
        if actions is None:
            raise VariantError(f"{data.game_id}: level {index} {failure}")
        solutions.append(actions)
    return solutions


def solve_with_keys(
    data: VariantData, steps_of: Callable[[Mapping[str, Any]], Sequence[Direction] | None], failure: str
) -> list[list[Action]]:
    """`solve_levels` where `steps_of` a level spec gives unit steps, played with the variant's keys."""
    moves = data.variant["moves"]

    def solve(spec: Mapping[str, Any]) -> list[Action] | None:
        steps = steps_of(spec)
        return None if steps is None else keyboard_actions(moves, steps)

    return solve_levels(data, solve, failure)


def version_name(seed: int, size: str = "standard") -> str:
    """The version directory name of a seed and size profile (`s0007`, `s1000`, `l0007`)."""
    if seed < 0:
        raise UserError(f"seeds are non-negative integers, got {seed}")
    if size not in SIZES:
        raise UserError(f"unknown variant size {size!r} (known: {', '.join(SIZES)})")
    return f"{SIZES[size]}{seed:04d}"


def rng_for(family: str, seed: int, size: str = "standard") -> random.Random:
    """A random generator that depends only on (family, seed, size), stable across processes and platforms."""
    key = f"{family}:{seed}" if size == "standard" else f"{family}:{size}:{seed}"
    return random.Random(f"dreamteam-procgen:{key}")


def draw_palette(rng: random.Random, background_kind: str, kinds: Sequence[str]) -> dict[str, int]:
    """Distinct, mutually distinguishable ARC colours: a neutral one for `background_kind`, any for `kinds`."""
    for _ in range(1000):
        chosen = [rng.choice(BACKGROUND_COLOURS)]
        pool = [c for c in range(16) if c != chosen[0]]
        rng.shuffle(pool)
        for colour in pool:
            if len(chosen) == len(kinds) + 1:
                break
            if all(frozenset((colour, c)) not in CONFUSABLE_COLOURS for c in chosen):
                chosen.append(colour)
        if len(chosen) == len(kinds) + 1:
            return dict(zip([background_kind, *kinds], chosen, strict=True))
    raise VariantError(f"cannot draw {len(kinds) + 1} distinguishable colours")


def draw_moves(rng: random.Random) -> dict[str, list[int]]:
    """A random assignment of the four directions to ACTION1-4, as {"ACTION1": [dx, dy], ...}."""
    vectors = [list(v) for v in DIRECTIONS.values()]
    rng.shuffle(vectors)
    return dict(zip(KEYBOARD_ACTIONS, vectors, strict=True))


def keyboard_actions(moves: Mapping[str, Sequence[int]], steps: Sequence[Direction]) -> list[Action]:
    """The keyboard actions that make the given unit steps under a variant's `moves` map."""
    by_vector = {(int(v[0]), int(v[1])): KEYBOARD_ACTIONS.index(name) + 1 for name, v in moves.items()}
    return [Action(by_vector[step]) for step in steps]


def transform_rows(rows: Sequence[str], quarter_turns: int, mirror: bool) -> list[str]:
    """A character map rotated clockwise by `quarter_turns` and then mirrored left-right if asked."""
    grid = [list(row) for row in rows]
    for _ in range(quarter_turns % 4):
        grid = [list(col) for col in zip(*grid[::-1], strict=True)]
    if mirror:
        grid = [row[::-1] for row in grid]
    return ["".join(row) for row in grid]


def format_variant_block(variant: Mapping[str, Any]) -> str:
    """The lines between the markers: `VARIANT = <literal>` in a stable, readable layout."""
    return "VARIANT = " + python_literal(variant, 0) + "\n"


def python_literal(value: Any, depth: int) -> str:
    """Python source for nested dicts/lists of str, int, bool and None; map rows (3+ strings) one per line."""
    if value is None or isinstance(value, bool | int):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, Mapping):
        items = [f"{json.dumps(str(k))}: {python_literal(v, depth + 1)}" for k, v in value.items()]
        return _bracketed("{", items, "}", depth, force=False)
    if isinstance(value, list | tuple):
        items = [python_literal(v, depth + 1) for v in value]
        rows = len(value) >= 3 and all(isinstance(v, str) for v in value)
        return _bracketed("[", items, "]", depth, force=rows)
    raise VariantError(f"variant data may hold only dicts, lists, str, int, bool and None, not {type(value)}")


def _bracketed(open_: str, items: list[str], close: str, depth: int, force: bool) -> str:
    inline = open_ + ", ".join(items) + close
    if not force and "\n" not in inline and len(inline) + 4 * depth <= 100:
        return inline
    pad = "    " * (depth + 1)
    return open_ + "\n" + "".join(f"{pad}{item},\n" for item in items) + "    " * depth + close


def replace_variant_block(source: str, variant: Mapping[str, Any]) -> str:
    """The module source with the text between the variant markers replaced by `variant`."""
    head, start, rest = source.partition(BLOCK_START + "\n")
    _, end, tail = rest.partition(BLOCK_END)
    if not start or not end:
        raise VariantError("the template module has no complete variant data block")
    return head + start + format_variant_block(variant) + end + tail


def read_variant_block(source: str) -> dict[str, Any]:
    """The `VARIANT` literal of a module's variant data block."""
    _, start, rest = source.partition(BLOCK_START + "\n")
    block, end, _ = rest.partition(BLOCK_END)
    if not start or not end:
        raise VariantError("the module has no complete variant data block")
    tree = ast.parse(block)
    for node in tree.body:
        if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["VARIANT"]:
            value: dict[str, Any] = ast.literal_eval(node.value)
            return value
    raise VariantError("the variant data block assigns no VARIANT literal")


def template_dir(family: str) -> Path:
    """The bundled version directory whose module and metadata a family's variants start from."""
    return bundled_games_dir() / family / TEMPLATE_VERSION


def template_metadata(family: str) -> dict[str, Any]:
    """The bundled template version's metadata.json."""
    path = template_dir(family) / "metadata.json"
    try:
        meta: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise VariantError(f"template metadata missing for family {family!r}: {exc}") from exc
    return meta


def variant_metadata(data: VariantData, baselines: Sequence[int]) -> dict[str, Any]:
    """metadata.json of a generated version: the template's, with id, tags and baselines of the variant."""
    meta = template_metadata(data.family)
    tags = [t for t in meta.get("tags", []) if t != "procedural"] + ["procedural"]
    return {
        "game_id": data.game_id,
        "title": f"{meta.get('title', data.family)} ({_size_words(data.size)}seed {data.seed})",
        "tags": tags,
        "baseline_actions": list(baselines),
        "class_name": meta["class_name"],
        "default_fps": meta.get("default_fps", 5),
        "date_downloaded": GENERATED_DATE,
    }


def _size_words(size: str) -> str:
    return "" if size == "standard" else f"{size}, "


def write_version_files(target: Path, data: VariantData, baselines: Sequence[int]) -> None:
    """Write metadata.json and the module with the variant's data block into the directory `target`."""
    meta = variant_metadata(data, baselines)
    module_name = f"{meta['class_name'].lower()}.py"
    source = (template_dir(data.family) / module_name).read_text(encoding="utf-8")
    target.mkdir(parents=True, exist_ok=True)
    (target / module_name).write_text(replace_variant_block(source, data.variant), encoding="utf-8")
    (target / "metadata.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")


def write_and_verify(out_dir: Path, data: VariantData, solutions: Sequence[Sequence[Action]]) -> Path:
    """Write `<out_dir>/<family>/<version>/`, verified through the toolkit; nothing is left behind on failure."""
    if len(solutions) != data.level_count:
        raise VariantError(f"{data.game_id}: {len(solutions)} solutions for {data.level_count} levels")
    family_dir = out_dir / data.family
    family_dir.mkdir(parents=True, exist_ok=True)
    # A fresh directory per attempt: the toolkit caches game classes by file path within a process.
    staging = Path(tempfile.mkdtemp(prefix=f".{data.version}-", dir=family_dir))
    try:
        write_version_files(staging, data, [len(s) for s in solutions])
        verify_with_toolkit(staging, data.game_id, solutions)
        final = family_dir / data.version
        if final.exists():
            shutil.rmtree(final)
        staging.chmod(0o755)  # mkdtemp makes it private; a version directory is ordinary output
        staging.rename(final)
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    return final


class _Collect(logging.Handler):
    """Keeps the toolkit's log messages so a failure can name its cause."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def verify_with_toolkit(version_dir: Path, game_id: str, solutions: Sequence[Sequence[Action]]) -> None:
    """Load `version_dir` with `arc_agi.Arcade` offline and check each solution completes exactly its level."""
    from arc_agi import Arcade, OperationMode

    log = logging.getLogger(f"dreamteam.procgen.verify.{game_id}")
    log.propagate = False
    collect = _Collect()
    log.handlers = [collect]
    log.setLevel(logging.DEBUG)
    logging.getLogger("arc_agi.scorecard").setLevel(logging.WARNING)
    arcade = Arcade(operation_mode=OperationMode.OFFLINE, environments_dir=str(version_dir),
                    recordings_dir=os.devnull, logger=log)
    env = arcade.make(game_id)
    if env is None or env.observation_space is None:
        raise VariantError(f"{game_id}: the toolkit could not load it: {' | '.join(collect.messages)}")
    _replay_levels(env, game_id, solutions, collect)


def _replay_levels(env: Any, game_id: str, solutions: Sequence[Sequence[Action]], collect: _Collect) -> None:
    from arcengine import GameAction, GameState

    state = env.observation_space
    for level, actions in enumerate(solutions):
        for i, action in enumerate(actions):
            state = env.step(GameAction.from_id(action.id), data=action.data())
            where = f"{game_id} level {level} action {i} ({action.label()})"
            if state is None:
                raise VariantError(f"{where}: the game failed: {' | '.join(collect.messages[-3:])}")
            if state.state == GameState.GAME_OVER:
                raise VariantError(f"{where}: GAME_OVER")
            if i < len(actions) - 1 and state.levels_completed != level:
                raise VariantError(f"{where}: level completed before the planned solution ended")
        if state.levels_completed != level + 1:
            raise VariantError(f"{game_id} level {level}: not completed by its {len(actions)} planned actions")
    if state.state != GameState.WIN:
        raise VariantError(f"{game_id}: every level completed but the game is not WIN ({state.state})")
