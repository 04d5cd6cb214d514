"""Per-model token prices (US dollars per million tokens) and the cost of one call."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from dreamteam.backends.errors import ConfigError


@dataclass(frozen=True, slots=True)
class Price:
    """Dollars per million input and output tokens."""

    input: float
    output: float


@dataclass(frozen=True, slots=True)
class PriceTable:
    """Model name (or prefix) -> price; the longest matching prefix wins."""

    prices: Mapping[str, Price]

    @staticmethod
    def load(override: str | Path | None = None) -> PriceTable:
        """The packaged table, with the entries of the `override` file (same shape) laid over it."""
        packaged = resources.files("dreamteam.backends").joinpath("prices.json").read_text(encoding="utf-8")
        prices = _parse(json.loads(packaged), "the packaged prices.json")
        if override is not None:
            prices.update(_read_override(Path(override)))
        return PriceTable(prices)

    def price(self, model: str) -> Price | None:
        """The price of `model`: an exact entry, else the longest entry that prefixes it, else None."""
        if model in self.prices:
            return self.prices[model]
        matches = [name for name in self.prices if model.startswith(name)]
        return self.prices[max(matches, key=len)] if matches else None

    def cost(self, model: str, input_tokens: int, output_tokens: int) -> float | None:
        """Dollars for one call: tokens x price / 1e6; None when the model has no price."""
        price = self.price(model)
        if price is None:
            return None
        return (input_tokens * price.input + output_tokens * price.output) / 1_000_000


def _read_override(path: Path) -> dict[str, Price]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read the price table {path}: {exc}") from exc
    return _parse(data, str(path))


def _parse(data: object, where: str) -> dict[str, Price]:
    models = data.get("models") if isinstance(data, dict) else None
    if not isinstance(models, dict):
        raise ConfigError(f'{where} must be a JSON object with a "models" object')
    try:
        return {name: Price(float(entry["input"]), float(entry["output"])) for name, entry in models.items()}
    except (KeyError, TypeError, ValueError) as exc:
        raise ConfigError(f'{where}: every model needs numeric "input" and "output" prices ({exc})') from exc
