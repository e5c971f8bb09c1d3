"""UXBench: user-experience benchmark tasks for Inspect AI."""

__version__ = "0.1.0"
