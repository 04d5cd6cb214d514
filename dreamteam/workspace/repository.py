"""Opening workspace repositories with GitPython, a config-independent git environment, and the step index."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import git

from dreamteam.workspace.errors import UnknownStepError, WorkspaceError
from dreamteam.workspace.records import StepLogEntry, log_entry

BRANCH = "main"
STEP_INDEX = "dreamteam-steps"

# Git run by the workspace ignores the user's global and system config (signing, hooks, pagers,
# external diff drivers) and always uses the DreamTeam identity.
GIT_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_AUTHOR_NAME": "DreamTeam",
    "GIT_AUTHOR_EMAIL": "dreamteam@localhost",
    "GIT_COMMITTER_NAME": "DreamTeam",
    "GIT_COMMITTER_EMAIL": "dreamteam@localhost",
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_PAGER": "cat",
    "LC_ALL": "C",
}


def init_repo(path: Path) -> git.Repo:
    """`git init` a fresh repository on branch main with the workspace's local settings."""
    try:
        subprocess.run(
            ["git", "init", "--quiet", f"--initial-branch={BRANCH}", str(path)],
            check=True, capture_output=True, env={**os.environ, **GIT_ENV},
        )
    except (OSError, subprocess.CalledProcessError) as exc:
        detail = getattr(exc, "stderr", b"") or b""
        raise WorkspaceError(f"cannot create a git repository at {path}: {exc} {detail.decode(errors='replace')}") from None
    repo = open_repo(path, require_commit=False)
    with repo.config_writer() as config:
        config.set_value("user", "name", "DreamTeam")
        config.set_value("user", "email", "dreamteam@localhost")
        config.set_value("gc", "autoDetach", "false")
        config.set_value("core", "autocrlf", "false")
    return repo


def open_repo(path: Path, *, require_commit: bool = True) -> git.Repo:
    """Open the workspace repository at `path` (the working tree), with clear errors when it is not one."""
    if not path.is_dir():
        raise WorkspaceError(f"workspace {path} does not exist")
    if not (path / ".git").is_dir():
        raise WorkspaceError(f"{path} is not a workspace: it has no .git repository")
    try:
        repo = git.Repo(path)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError, OSError) as exc:
        raise WorkspaceError(f"{path} holds a corrupt git repository: {exc}") from None
    repo.git.update_environment(**GIT_ENV)
    if require_commit:
        try:
            repo.head.commit  # noqa: B018 - resolving HEAD is the check
        except (ValueError, git.GitError, OSError) as exc:
            repo.close()
            raise WorkspaceError(f"workspace {path} has no commits (or a broken HEAD): {exc}") from None
    return repo


def read_log(repo: git.Repo, rev: str = "HEAD") -> list[tuple[str, str]]:
    """(sha, message) of every first-parent commit up to `rev`, oldest first, from one `git log`."""
    out = repo.git.log("--first-parent", "--reverse", "--format=%H%x1f%B%x1e", rev)
    pairs = []
    for record in out.split("\x1e"):
        sha, sep, message = record.strip("\n").partition("\x1f")
        if sep:
            pairs.append((sha, message))
    return pairs


def step_entries(repo: git.Repo, rev: str = "HEAD") -> list[StepLogEntry]:
    """The step commits up to `rev`, oldest first, read from their trailers."""
    return [e for sha, msg in read_log(repo, rev) if (e := log_entry(sha, msg)) is not None]


class StepIndex:
    """Step number -> commit sha, cached in `.git/dreamteam-steps` and rebuilt from trailers when stale."""

    def __init__(self, repo: git.Repo, head: str) -> None:
        self.path = Path(repo.git_dir) / STEP_INDEX
        self.steps: dict[int, str] = {}
        if not self._load(head):
            self.rebuild(repo)

    def _load(self, head: str) -> bool:
        try:
            lines = self.path.read_text(encoding="ascii").split()
        except (OSError, UnicodeDecodeError):
            return False
        if len(lines) < 2 or lines[0] != "head" or len(lines) % 2:
            return False
        pairs = list(zip(lines[2::2], lines[3::2], strict=True))
        try:
            self.steps = {int(step): sha for step, sha in pairs}
        except ValueError:
            return False
        return lines[1] == head

    def rebuild(self, repo: git.Repo) -> None:
        """Re-read every step commit's trailers (used when the cache is missing or stale)."""
        self.steps = {e.step: e.sha for e in step_entries(repo)}
        self.save(repo.head.commit.hexsha)

    def save(self, head: str) -> None:
        """Write the cache, stamped with the HEAD it describes."""
        body = f"head {head}\n" + "".join(f"{step} {sha}\n" for step, sha in sorted(self.steps.items()))
        temp = self.path.with_name(STEP_INDEX + ".tmp")
        temp.write_text(body, encoding="ascii")
        os.replace(temp, self.path)

    def add(self, step: int, sha: str) -> None:
        """Record a new step commit (which is the new HEAD)."""
        self.steps[step] = sha
        with open(self.path, "r+", encoding="ascii") as handle:
            handle.write(f"head {sha}")
            handle.seek(0, os.SEEK_END)
            handle.write(f"{step} {sha}\n")

    def sha(self, step: int) -> str:
        """The commit of `step`, or UnknownStepError naming the steps there are."""
        try:
            return self.steps[step]
        except KeyError:
            have = f"steps {min(self.steps)}..{max(self.steps)}" if self.steps else "no steps yet"
            raise UnknownStepError(f"step {step} is not in this workspace ({have})") from None


def remove_stale_locks(path: Path) -> list[str]:
    """Remove the git lock files a killed writer left in the workspace at `path`; returns what was removed.

    Only for recovery (resuming a killed session), when no other process can be writing this workspace: a
    lock file left by a process killed inside a ref update would otherwise block every later commit.
    """
    git_dir = Path(path) / ".git"
    removed = []
    for lock in [*git_dir.glob("refs/**/*.lock"), *git_dir.glob("*.lock")]:
        lock.unlink(missing_ok=True)
        removed.append(str(lock.relative_to(git_dir)))
    return removed
