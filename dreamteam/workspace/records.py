"""Step records and the structured commit messages (subject, body, git trailers) made from them."""

from __future__ import annotations

import re
from dataclasses import dataclass

TRAILER_PREFIX = "DreamTeam-"
_TRAILER_LINE = re.compile(r"^([A-Za-z0-9][A-Za-z0-9-]*):\s?(.*)$")


@dataclass(frozen=True, slots=True)
class PatchOutcome:
    """What became of one proposed patch during a step."""

    surface: str
    role: str
    accepted: bool
    reason: str = ""
    replay: str = ""

    @property
    def verdict(self) -> str:
        """'accepted' or 'rejected'."""
        return "accepted" if self.accepted else "rejected"


@dataclass(frozen=True, slots=True)
class StepRecord:
    """Everything the step commit says: the action taken, how the prediction fared, what patches did."""

    step: int
    level: int
    action: str
    hit: bool | None
    wrong_cells: int = 0
    diff_summary: str = ""
    patches: tuple[PatchOutcome, ...] = ()
    notes: tuple[str, ...] = ()
    scores: tuple[str, ...] = ()
    """One line per tactic the scorers ranked when this step's action was decided (combined order; empty
    on steps that continued a plan): the tactic, its combined score and every scorer's value and note."""

    def __post_init__(self) -> None:
        if self.step < 0 or self.level < 0 or self.wrong_cells < 0:
            raise ValueError("step, level and wrong_cells must be >= 0")
        if not self.action.strip() or "\n" in self.action:
            raise ValueError(f"action label must be one non-empty line, got {self.action!r}")

    @property
    def prediction(self) -> str:
        """'hit', 'miss' or 'none' (no prediction was made)."""
        return "none" if self.hit is None else ("hit" if self.hit else "miss")


@dataclass(frozen=True, slots=True)
class StepLogEntry:
    """One step commit as read back from its trailers."""

    sha: str
    step: int
    level: int
    action: str
    prediction: str
    wrong_cells: int
    patches: tuple[tuple[str, str], ...]
    subject: str

    def patches_text(self) -> str:
        """The patches as 'surface=verdict, ...' or '-' when there were none."""
        return ", ".join(f"{name}={verdict}" for name, verdict in self.patches) or "-"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _patch_phrase(patches: tuple[PatchOutcome, ...]) -> str:
    if not patches:
        return "no patches"
    accepted = sum(p.accepted for p in patches)
    rejected = len(patches) - accepted
    phrase = f"{accepted} patch{'' if accepted == 1 else 'es'} accepted"
    return phrase + (f", {rejected} rejected" if rejected else "")


def subject_line(record: StepRecord) -> str:
    """The commit subject, e.g. 'step 17 · level 2 · ACTION3 · prediction hit · 1 patch accepted'."""
    prediction = f"prediction {record.prediction}"
    if record.hit is False:
        prediction += f" ({record.wrong_cells} cell{'' if record.wrong_cells == 1 else 's'} wrong)"
    parts = [f"step {record.step}", f"level {record.level}", _one_line(record.action), prediction]
    return " · ".join(parts + [_patch_phrase(record.patches)])


def _patch_line(patch: PatchOutcome) -> str:
    line = f"- {patch.surface} ({patch.role}): {patch.verdict}"
    if patch.reason:
        line += f": {_one_line(patch.reason)}"
    if patch.replay:
        line += f" [replay: {_one_line(patch.replay)}]"
    return line


def trailers(record: StepRecord) -> list[tuple[str, str]]:
    """The machine-readable trailers of a step commit, in order."""
    patches = ", ".join(f"{p.surface}={p.verdict}" for p in record.patches) or "none"
    return [
        ("DreamTeam-Step", str(record.step)),
        ("DreamTeam-Level", str(record.level)),
        ("DreamTeam-Action", _one_line(record.action)),
        ("DreamTeam-Prediction", record.prediction),
        ("DreamTeam-Wrong-Cells", str(record.wrong_cells)),
        ("DreamTeam-Patches", patches),
    ]


def commit_message(record: StepRecord) -> str:
    """Subject, a readable body (diff summary, one line per patch, notes, tactic scores) and the trailer block."""
    paragraphs = [subject_line(record)]
    if record.diff_summary.strip():
        paragraphs.append(f"diff: {record.diff_summary.strip()}")
    if record.patches:
        paragraphs.append("patches:\n" + "\n".join(_patch_line(p) for p in record.patches))
    notes = [n.strip() for n in record.notes if n.strip()]
    if notes:
        paragraphs.append("notes:\n" + "\n".join(f"- {_one_line(n)}" for n in notes))
    scores = [s.strip() for s in record.scores if s.strip()]
    if scores:
        paragraphs.append("scores:\n" + "\n".join(f"- {_one_line(s)}" for s in scores))
    paragraphs.append("\n".join(f"{key}: {value}" for key, value in trailers(record)))
    return "\n\n".join(paragraphs) + "\n"


def parse_trailers(message: str) -> dict[str, str]:
    """The `Key: value` lines of a message's last paragraph (empty when it is not a trailer block)."""
    paragraphs = [p for p in message.strip().split("\n\n") if p.strip()]
    if len(paragraphs) < 2:
        return {}
    found: dict[str, str] = {}
    for line in paragraphs[-1].splitlines():
        match = _TRAILER_LINE.match(line.strip())
        if match is None:
            return {}
        found[match.group(1)] = match.group(2).strip()
    return found


def log_entry(sha: str, message: str) -> StepLogEntry | None:
    """Read a step commit's trailers back into a `StepLogEntry`; None for non-step commits."""
    found = parse_trailers(message)
    try:
        step = int(found["DreamTeam-Step"])
        level = int(found.get("DreamTeam-Level", "0"))
        wrong = int(found.get("DreamTeam-Wrong-Cells", "0"))
    except (KeyError, ValueError):
        return None
    raw_patches = found.get("DreamTeam-Patches", "none")
    patches = tuple(
        (name.strip(), verdict.strip())
        for name, _, verdict in (item.partition("=") for item in raw_patches.split(","))
        if raw_patches != "none" and name.strip()
    )
    return StepLogEntry(
        sha=sha, step=step, level=level, action=found.get("DreamTeam-Action", "?"),
        prediction=found.get("DreamTeam-Prediction", "none"), wrong_cells=wrong,
        patches=patches, subject=message.strip().splitlines()[0] if message.strip() else "",
    )
