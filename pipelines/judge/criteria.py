"""The criteria set: a versioned data artifact (JSON under pipelines/judge/criteria/) shared by every
language of a task: concepts, each with targeted yes/no questions.

Two kinds of questions end in the same representation, concept → list of answers in [0,1]:
- ``llm`` questions are put to a generator (yes = 1, no = 0, unparseable = null);
- ``deterministic`` questions are answered by housestyle itself: a raw figure (``feature``, a column
  of adequacy.py / scs.py) mapped into [0,1] by a named ``transform`` (a glob ``scs:*`` expands to
  every SCS dimension).
A concept's value z is the mean of its non-null answers, or its ``default`` when none is usable
(1.0 for conventions: nothing applied, nothing failed; 0.5 for LLM concepts: no information).
``scale_dependent`` concepts are standardised per language by features.py.

The set's ``sha256`` covers the semantic content (name, version, task, concepts), so a saved model
names exactly the criteria it was trained on (``signature``).
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from housestyle.pipelines import atomic
from housestyle.pipelines.conventions.model import canonical_json
from housestyle.pipelines.errors import InputError

CRITERIA_DIR = Path(__file__).resolve().parent / "criteria"
KINDS = ("deterministic", "llm")


def _clip(x: float) -> float:
    return min(1.0, max(0.0, x))


# Raw figure → answer in [0,1]; 1 always means "good" (NaN stays NaN = no answer).
TRANSFORMS: dict[str, Callable[[float], float]] = {
    "identity": _clip,
    "one_minus": lambda x: _clip(1.0 - x),
    "percent": lambda x: _clip(x / 100.0),
    "centered_percent": lambda x: _clip((x / 100.0 + 1.0) / 2.0),
    "shortness": lambda x: _clip(math.exp(x)),  # log(out/ref) < 0: shorter than the reference
    "longness": lambda x: _clip(math.exp(-x)),  # log(out/ref) > 0: longer than the reference
    "sigmoid": lambda x: 1.0 / (1.0 + math.exp(-x)),
    "chars": lambda x: _clip(x / (x + 100.0)) if x >= 0 else math.nan,
}


@dataclass(frozen=True)
class Question:
    id: str
    text: str
    feature: str | None = None  # deterministic questions: the raw column (glob allowed)
    transform: str | None = None
    origin: str = "authored"  # authored | generated | fallback


@dataclass(frozen=True)
class Concept:
    id: str
    description: str
    kind: str
    questions: tuple[Question, ...]
    scale_dependent: bool = False
    default: float = 0.5


@dataclass(frozen=True)
class CriteriaSet:
    name: str
    version: int
    task: str
    concepts: tuple[Concept, ...]
    provenance: dict[str, Any] = field(default_factory=dict)  # how it was made (not hashed)

    def semantic(self) -> dict[str, Any]:
        return {"name": self.name, "version": self.version, "task": self.task,
                "concepts": [asdict(c) for c in self.concepts]}

    @property
    def sha256(self) -> str:
        return hashlib.sha256(canonical_json(self.semantic()).encode("utf-8")).hexdigest()

    @property
    def signature(self) -> str:
        return f"criteria:{self.name}@{self.version}|sha:{self.sha256[:12]}"

    def of_kind(self, kind: str) -> list[Concept]:
        return [c for c in self.concepts if c.kind == kind]

    def concept_ids(self) -> list[str]:
        return [c.id for c in self.concepts]


def merge(name: str, *sets: CriteriaSet) -> CriteriaSet:
    """One set holding the concepts of several (``both``): version = max, task of the first."""
    seen: set[str] = set()
    for s in sets:
        dup = seen & set(s.concept_ids())
        if dup:
            raise ValueError(f"concept ids {sorted(dup)} appear in two criteria sets")
        seen |= set(s.concept_ids())
    return CriteriaSet(name, max(s.version for s in sets), sets[0].task, tuple(c for s in sets for c in s.concepts),
                       {"merged": [s.signature for s in sets]})


def to_json(criteria: CriteriaSet) -> str:
    data = {**criteria.semantic(), "sha256": criteria.sha256, "provenance": criteria.provenance}
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def save_criteria(criteria: CriteriaSet, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    return atomic.write_text(path, to_json(criteria))


def _question(raw: Any, where: str, path: Path) -> Question:
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), str) or not isinstance(raw.get("text"), str):
        raise InputError(f"{where}: a question needs string 'id' and 'text'", path=str(path), location=where)
    transform = raw.get("transform")
    if transform is not None and transform not in TRANSFORMS:
        raise InputError(f"{where}: unknown transform {transform!r} (one of {sorted(TRANSFORMS)})",
                         path=str(path), location=where)
    return Question(raw["id"], raw["text"], raw.get("feature"), transform, raw.get("origin", "authored"))


def criteria_from_dict(data: Any, path: Path) -> CriteriaSet:
    """Check and build a set; a stored ``sha256`` that does not match the content is an error."""
    if not isinstance(data, dict) or not isinstance(data.get("concepts"), list):
        raise InputError("a criteria set is an object with a 'concepts' list", path=str(path))
    concepts = []
    for i, raw in enumerate(data["concepts"]):
        where = f"concepts[{i}]"
        if not isinstance(raw, dict) or raw.get("kind") not in KINDS or not isinstance(raw.get("id"), str):
            raise InputError(f"{where}: needs a string 'id' and kind in {KINDS}", path=str(path), location=where)
        questions = tuple(_question(q, f"{where}.questions[{j}]", path) for j, q in enumerate(raw.get("questions", [])))
        if not questions:
            raise InputError(f"{where} ({raw['id']}): no questions", path=str(path), location=where)
        if raw["kind"] == "deterministic" and any(q.feature is None or q.transform is None for q in questions):
            raise InputError(f"{where}: deterministic questions need 'feature' and 'transform'", path=str(path),
                             location=where)
        concepts.append(Concept(raw["id"], str(raw.get("description", "")), raw["kind"], questions,
                                bool(raw.get("scale_dependent", False)), float(raw.get("default", 0.5))))
    out = CriteriaSet(str(data.get("name", path.stem)), int(data.get("version", 1)), str(data.get("task", "")),
                      tuple(concepts), dict(data.get("provenance", {})))
    stored = data.get("sha256")
    if stored is not None and stored != out.sha256:
        raise InputError(f"criteria content changed but sha256 was not updated (stored {stored[:12]}, "
                         f"content {out.sha256[:12]}); bump the version and re-save", path=str(path))
    return out


def load_criteria(path: Path | str) -> CriteriaSet:
    path = Path(path)
    if not path.is_file() and not path.suffix:
        path = CRITERIA_DIR / f"{path}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError("criteria set not found", path=str(path)) from None
    except json.JSONDecodeError as exc:
        raise InputError(f"invalid JSON: {exc}", path=str(path), location=exc.lineno) from None
    return criteria_from_dict(data, path)


def expand_features(question: Question, columns: Sequence[str]) -> list[str]:
    """The raw columns a deterministic question reads (a glob may match several, or none)."""
    assert question.feature is not None
    if any(ch in question.feature for ch in "*?["):
        return sorted(c for c in columns if fnmatch.fnmatchcase(c, question.feature))
    return [question.feature] if question.feature in columns else []
