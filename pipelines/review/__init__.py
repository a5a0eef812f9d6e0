"""Review packets and the decisions linguists make on them (SPEC §3 review-export / review-import)."""
