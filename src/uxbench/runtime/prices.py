"""Model prices from a file, in the shape of Inspect's `--model-cost-config`: the one reader
`uxbench estimate --prices` and `uxbench report --prices` share.

YAML or JSON, dollars per million tokens, one entry per model name:
`openai/gpt-4o: {input: 2.5, output: 10.0, input_cache_write: 2.5, input_cache_read: 1.25}`.
`input` and `output` are required; a cache price left out bills those tokens at `input` (what
they cost uncached: never less than the truth). Anything else is refused with one line naming
the file and the field, since a price read wrong would print a confident, wrong dollar figure.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from uxbench.runtime.errors import DataError

REQUIRED = ("input", "output")
FIELDS = (*REQUIRED, "input_cache_write", "input_cache_read")


@dataclass(frozen=True)
class Price:
    """Dollars per million tokens of one model."""

    input: float
    output: float
    input_cache_write: float | None = None  # None: billed at `input`
    input_cache_read: float | None = None  # None: billed at `input`

    def cost(self, input_tokens: int, output_tokens: int, cache_write: int = 0, cache_read: int = 0) -> float:
        """Dollars for these tokens, as Inspect prices a call (`input_tokens`: the full-rate ones)."""
        write = self.input if self.input_cache_write is None else self.input_cache_write
        read = self.input if self.input_cache_read is None else self.input_cache_read
        return (
            input_tokens * self.input + output_tokens * self.output + cache_write * write + cache_read * read
        ) / 1e6


def price_of(prices: dict[str, Price], model: str) -> Price | None:
    """`model`'s price: under its name as the log gives it (`openai/gpt-4o`), else under the name
    without its provider (`gpt-4o`, as Inspect's canonical names often are)."""
    found = prices.get(model)
    if found is None and "/" in model:
        found = prices.get(model.split("/", 1)[1])
    return found


def read_prices(path: Path) -> dict[str, Price]:
    """The prices in `path`, checked: a `DataError` of one line for a file that cannot be used."""
    import yaml

    try:
        found = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise DataError(f"{path}: cannot read the price file ({error.strerror or error})") from None
    except UnicodeDecodeError:
        raise DataError(f"{path}: not a YAML or JSON price file (not UTF-8 text)") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        raise DataError(f"{path}: not a YAML or JSON price file{where}") from None
    if not isinstance(found, dict) or not found:
        raise DataError(f"{path}: give `model: {{input: $/M tokens, output: $/M tokens}}` per model")
    return {str(model): _price(path, str(model), entry) for model, entry in found.items()}


def _price(path: Path, model: str, entry: object) -> Price:
    if not isinstance(entry, dict):
        raise DataError(f"{path}: {model}: give {{input: $/M tokens, output: $/M tokens}}")
    unknown = [str(name) for name in entry if name not in FIELDS]
    if unknown:
        raise DataError(f"{path}: {model}.{unknown[0]}: unknown field (known: {', '.join(FIELDS)})")
    missing = [name for name in REQUIRED if name not in entry]
    if missing:
        raise DataError(f"{path}: {model}.{missing[0]}: missing (dollars per million tokens)")
    for name, value in entry.items():
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if not number or not math.isfinite(value) or value < 0:
            raise DataError(f"{path}: {model}.{name}: {value!r} is not a non-negative number of $/M tokens")
    return Price(**{name: float(value) for name, value in entry.items()})
