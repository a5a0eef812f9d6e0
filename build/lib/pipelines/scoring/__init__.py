"""The style compliance score: reference checker, fast engine, adequacy, reports, versioned runs."""
