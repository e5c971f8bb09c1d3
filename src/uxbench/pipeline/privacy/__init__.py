"""Personal data and unsafe content, handled before any text reaches a stage file or a model:
redaction and the lexical screen. May import: `pipeline.read`, `uxbench.runtime`.
"""
