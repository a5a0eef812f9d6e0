"""One small error hierarchy, so callers can catch by meaning and every input error names its place.

Every error about input names the file and the line or unit (``path:location: message``), because an
analyst facing a failed run must be able to open the offending file at the right place.
"""

from __future__ import annotations


class HousestyleError(Exception):
    """Base of every error housestyle raises on purpose."""


class InputError(HousestyleError):
    """Bad input data: always names the file and, when known, the line or unit."""

    def __init__(self, message: str, *, path: str, location: str | int | None = None) -> None:
        self.path = str(path)
        self.location = None if location is None else str(location)
        self.reason = message
        where = self.path if self.location is None else f"{self.path}:{self.location}"
        super().__init__(f"{where}: {message}")


class MalformedFileError(InputError):
    """The file cannot be parsed as its format (broken XML, bad PO syntax, truncated archive)."""


class UnsafeXmlError(InputError):
    """The file uses XML features we refuse: external entities, entity expansion bombs, network DTDs."""


class UnsupportedFormatError(InputError):
    """No registered reader handles this file name."""


class ConventionError(HousestyleError):
    """An invalid convention: names the convention (id or position) and the offending field."""

    def __init__(self, message: str, *, convention: str, field: str | None = None, path: str | None = None) -> None:
        self.convention = convention
        self.field = field
        self.path = path
        self.reason = message
        parts = [p for p in (path, f"convention {convention}", f"field {field!r}" if field else None) if p]
        super().__init__(f"{': '.join(parts)}: {message}")


class RegistrationError(HousestyleError):
    """A registration is missing, malformed, or inconsistent with the files it froze."""


class FrozenRegistrationChangedError(RegistrationError):
    """A frozen input (gold file, splits file, threshold) changed after freezing: a hard error."""


class ConfigError(HousestyleError):
    """Invalid pipeline configuration (resource or run config)."""


class GenerationError(HousestyleError):
    """A generator backend failed for reasons that are not per-segment (bad model path, no server)."""
