"""Discover games in the toolkit's layout (`<game_id>/<version>/metadata.json` + module) across directories."""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from arc_agi import EnvironmentInfo

from dreamteam.errors import UnknownGameError, UserError
from dreamteam.paths import bundled_games_dir
from dreamteam.types import GameInfo


def env_dirs_from(cli_dirs: Sequence[str] | None, *, include_bundled: bool = True) -> list[Path]:
    """Directories to scan: bundled games (optionally), then --env-dir values, then $ENVIRONMENTS_DIR."""
    dirs: list[Path] = [bundled_games_dir()] if include_bundled else []
    dirs += [Path(d) for d in cli_dirs or []]
    env_value = os.environ.get("ENVIRONMENTS_DIR", "")
    dirs += [Path(d) for d in env_value.split(os.pathsep) if d]
    for d in dirs[1 if include_bundled else 0 :]:
        if not d.is_dir():
            raise UserError(f"environment directory not found: {d}")
    return dirs


def _scan(directory: Path) -> list[EnvironmentInfo]:
    found: list[EnvironmentInfo] = []
    for meta in sorted(directory.rglob("metadata.json")):
        try:
            info = EnvironmentInfo.model_validate_json(meta.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise UserError(f"unreadable game metadata {meta}: {exc}") from exc
        info.local_dir = str(meta.parent)
        found.append(info)
    return found


def _newest_first(info: EnvironmentInfo) -> tuple[float, str]:
    when = info.date_downloaded or datetime.min.replace(tzinfo=UTC)
    return (-when.timestamp(), info.game_id)


@dataclass
class Catalog:
    """All game versions found in a list of directories, first directory winning on duplicate ids."""

    infos: list[EnvironmentInfo]
    dirs: list[Path]

    @classmethod
    def scan(cls, dirs: Iterable[Path]) -> Catalog:
        """Scan every directory for toolkit-layout games."""
        seen: dict[str, EnvironmentInfo] = {}
        dir_list = list(dirs)
        for d in dir_list:
            if d.is_dir():
                for info in _scan(d):
                    seen.setdefault(info.game_id, info)
        return cls(infos=sorted(seen.values(), key=lambda i: i.game_id), dirs=dir_list)

    def require_games(self) -> None:
        """Fail clearly when no directory held any game."""
        if not self.infos:
            where = ", ".join(str(d) for d in self.dirs) or "(none)"
            raise UserError(f"no games found in {where}: expected <game_id>/<version>/metadata.json")

    def resolve(self, game_id: str) -> EnvironmentInfo:
        """Find a game by full id (`maze-v1`) or base id (`maze`: the newest version)."""
        exact = [i for i in self.infos if i.game_id == game_id]
        if exact:
            return exact[0]
        same_base = [i for i in self.infos if i.game_id.split("-", 1)[0] == game_id]
        if same_base:
            return sorted(same_base, key=_newest_first)[0]
        known = sorted({i.game_id for i in self.infos} | {i.game_id.split("-", 1)[0] for i in self.infos})
        close = difflib.get_close_matches(game_id, known, n=5, cutoff=0.4)
        hint = f"; did you mean: {', '.join(close)}?" if close else ""
        raise UnknownGameError(f"unknown game {game_id!r}{hint} (known: {', '.join(known) or 'none'})")

    def game_info(self, game_id: str) -> GameInfo:
        """The project's GameInfo for a resolved game."""
        return to_game_info(self.resolve(game_id))

    def all_game_infos(self) -> list[GameInfo]:
        """Every game version as GameInfo."""
        return [to_game_info(i) for i in self.infos]


def to_game_info(info: EnvironmentInfo) -> GameInfo:
    """Convert the toolkit's EnvironmentInfo into the project's GameInfo."""
    return GameInfo(
        game_id=info.game_id,
        title=info.title or info.game_id,
        baseline_actions=tuple(info.baseline_actions or ()),
        tags=tuple(info.tags or ()),
        local_dir=info.local_dir,
    )
