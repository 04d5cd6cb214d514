# Shared set-up for the project's scripts: find Python >= 3.12, create .venv, install the project.
# Sourced by scripts/demo and scripts/test; not meant to be run directly.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"

python_ok() {
    "$1" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1
}

find_python() {
    local cand
    for cand in python3.13 python3.12 python3 python; do
        if command -v "$cand" >/dev/null 2>&1 && python_ok "$(command -v "$cand")"; then
            command -v "$cand"; return 0
        fi
    done
    local pyenv_root="${PYENV_ROOT:-}"
    if [ -z "$pyenv_root" ] && command -v pyenv >/dev/null 2>&1; then pyenv_root="$(pyenv root)"; fi
    [ -z "$pyenv_root" ] && pyenv_root="$HOME/.pyenv"
    if [ -d "$pyenv_root/versions" ]; then
        for cand in $(ls -1 "$pyenv_root/versions" | sort -rV); do
            if [ -x "$pyenv_root/versions/$cand/bin/python" ] && python_ok "$pyenv_root/versions/$cand/bin/python"; then
                echo "$pyenv_root/versions/$cand/bin/python"; return 0
            fi
        done
    fi
    return 1
}

ensure_venv() {
    local stamp="$VENV/.dreamteam-installed"
    if [ -x "$VENV/bin/python" ] && python_ok "$VENV/bin/python" && [ -f "$stamp" ] \
        && [ "$stamp" -nt "$ROOT/pyproject.toml" ]; then
        return 0
    fi
    if [ ! -x "$VENV/bin/python" ] || ! python_ok "$VENV/bin/python"; then
        local py
        if ! py="$(find_python)"; then
            echo "error: DreamTeam needs Python 3.12 or newer, and none was found." >&2
            echo "       Install one (e.g. 'pyenv install 3.12' or your OS package python3.12)" >&2
            echo "       and make sure it is on PATH or under \$(pyenv root)/versions." >&2
            exit 3
        fi
        echo "==> creating $VENV with $py ($("$py" --version 2>&1))" >&2
        rm -rf "$VENV"
        "$py" -m venv "$VENV"
    fi
    echo "==> installing DreamTeam and its dependencies into .venv (first use only)" >&2
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip >&2 || true
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e "$ROOT[dev]" >&2
    touch "$stamp"
}
