"""The benchmark's records: label sets, record normalisation, prompt templates, exclusions, and
the sources (hub, directory, file, the bundled sample) whose records become Inspect samples.
The bundled sample and the paper's label shares are files in this folder.

May import: `uxbench.runtime`, `uxbench.stats`.
"""
