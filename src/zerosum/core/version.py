"""zerosum's version, on the lowest floor so that any module may name it (``zerosum.__version__`` is this)."""

__version__ = "0.1.0"  # the same as pyproject.toml's
