"""Where housestyle reads and writes: one resource, resolved at run time, never at import time.

Each root is taken from (1) the resource field when set, (2) its environment variable, read when the
path is asked for (so `dagster dev`, tests and the CLI can all point it elsewhere), (3) a default
inside the project folder: ``housestyle.pipelines.project.project_folder``, the one resolver every command uses
too ($HOUSESTYLE_ROOT, else the nearest folder upward from the working directory holding inbox/ and
dagster.yaml; never the installed package's own folder). Deployments may also bind a field to ``dagster.EnvVar``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from dagster import ConfigurableResource

from housestyle.pipelines.paths import client_path, under
from housestyle.pipelines.project import ENV_ROOT, project_folder, resolve_project, tm_table

# The checkout this code runs from (editable installs); only for locating ../shared/data beside it.
REPO_ROOT_DEFAULT = Path(__file__).resolve().parents[1]

class HousestyleSettings(ConfigurableResource):
    """The folders of one housestyle project (SPEC.md §1 client layout, §3 project folders)."""

    repo_root: str | None = None
    inbox_root: str | None = None
    rules_out_root: str | None = None
    registrations_root: str | None = None
    storage_root: str | None = None

    @property
    def repo(self) -> Path:
        """The project folder (field, else $HOUSESTYLE_ROOT, else found upward from the working directory)."""
        return Path(self.repo_root) if self.repo_root else resolve_project()

    @property
    def inbox(self) -> Path:
        """inbox/<client>/{tm,systems,generic,conventions}/ and splits.json."""
        return project_folder("inbox", self.inbox_root, project=lambda: self.repo)

    @property
    def rules_out(self) -> Path:
        """rules_out/<client>/<set_version>/ — what analysts pull."""
        return project_folder("rules_out", self.rules_out_root, project=lambda: self.repo)

    @property
    def registrations(self) -> Path:
        return project_folder("registrations", self.registrations_root, project=lambda: self.repo)

    @property
    def storage(self) -> Path:
        """Intermediate tables (tm_units, system outputs, ...): <storage>/<asset>/<client>/."""
        return project_folder("storage", self.storage_root, project=lambda: self.repo)

    def client_dir(self, client: str) -> Path:
        """inbox/<client>/ (the name checked, the path kept under the inbox: housestyle.pipelines.paths)."""
        return client_path(self.inbox, client)

    def asset_dir(self, asset: str, client: str) -> Path:
        """The folder an asset writes for one client partition (created on demand)."""
        path = client_path(self.storage / asset, client)
        path.mkdir(parents=True, exist_ok=True)
        return path

    def tm_units_path(self, client: str) -> Path:
        return tm_table(self.storage, client)

    def tm_rejects_path(self, client: str) -> Path:
        return tm_table(self.storage, client, "tm_rejects.parquet")

    def client_rules_out(self, client: str) -> Path:
        return client_path(self.rules_out, client)

    def latest_set_dir(self, client: str) -> Path | None:
        """rules_out/<client>/<LATEST>/, or None when the client has no convention set yet."""
        latest = self.client_rules_out(client) / "LATEST"
        if not latest.is_file():
            return None
        version = latest.read_text(encoding="utf-8").strip()
        return under(self.client_rules_out(client), version) if version else None
