"""Where housestyle reads and writes: one resource, resolved at run time, never at import time.

Each root is taken from (1) the resource field when set, (2) its environment variable, read when the
path is asked for (so `dagster dev`, tests and the CLI can all point it elsewhere), (3) a default
beside the repository. Deployments may also bind a field to ``dagster.EnvVar``.
"""

from __future__ import annotations

import os
from pathlib import Path

from dagster import ConfigurableResource

REPO_ROOT_DEFAULT = Path(__file__).resolve().parents[1]

ENV_ROOT = "HOUSESTYLE_ROOT"
ENV_INBOX = "HOUSESTYLE_INBOX"
ENV_RULES_OUT = "HOUSESTYLE_RULES_OUT"
ENV_REGISTRATIONS = "HOUSESTYLE_REGISTRATIONS"
ENV_STORAGE = "HOUSESTYLE_STORAGE"


def _pick(field_value: str | None, env_name: str, default: Path) -> Path:
    """Field, else environment (read now, not at import), else the default."""
    if field_value:
        return Path(field_value)
    from_env = os.environ.get(env_name)
    return Path(from_env) if from_env else default


class HousestyleSettings(ConfigurableResource):
    """The folders of one housestyle installation (SPEC.md §1 client layout)."""

    repo_root: str | None = None
    inbox_root: str | None = None
    rules_out_root: str | None = None
    registrations_root: str | None = None
    storage_root: str | None = None

    @property
    def repo(self) -> Path:
        return _pick(self.repo_root, ENV_ROOT, REPO_ROOT_DEFAULT)

    @property
    def inbox(self) -> Path:
        """inbox/<client>/{tm,systems,generic,conventions}/ and splits.json."""
        return _pick(self.inbox_root, ENV_INBOX, self.repo / "inbox")

    @property
    def rules_out(self) -> Path:
        """rules_out/<client>/<set_version>/ — what analysts pull."""
        return _pick(self.rules_out_root, ENV_RULES_OUT, self.repo / "rules_out")

    @property
    def registrations(self) -> Path:
        return _pick(self.registrations_root, ENV_REGISTRATIONS, self.repo / "registrations")

    @property
    def storage(self) -> Path:
        """Intermediate tables (tm_units, system outputs, ...): <storage>/<asset>/<client>/."""
        return _pick(self.storage_root, ENV_STORAGE, self.repo / ".dagster" / "data")

    def client_dir(self, client: str) -> Path:
        return self.inbox / client

    def asset_dir(self, asset: str, client: str) -> Path:
        """The folder an asset writes for one client partition (created on demand)."""
        path = self.storage / asset / client
        path.mkdir(parents=True, exist_ok=True)
        return path

    def tm_units_path(self, client: str) -> Path:
        return self.storage / "tm_units" / client / "tm_units.parquet"

    def tm_rejects_path(self, client: str) -> Path:
        return self.storage / "tm_units" / client / "tm_rejects.parquet"

    def client_rules_out(self, client: str) -> Path:
        return self.rules_out / client

    def latest_set_dir(self, client: str) -> Path | None:
        """rules_out/<client>/<LATEST>/, or None when the client has no convention set yet."""
        latest = self.client_rules_out(client) / "LATEST"
        if not latest.is_file():
            return None
        version = latest.read_text(encoding="utf-8").strip()
        return self.client_rules_out(client) / version if version else None
