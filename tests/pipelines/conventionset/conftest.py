"""The set writer is tested on the miner's fixture TM: reuse the mining fixtures, don't copy them."""

from tests.pipelines.mining.conftest import tiny, tiny_units

__all__ = ["tiny", "tiny_units"]
