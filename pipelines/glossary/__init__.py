"""A client's termbase (TBX, CSV, XLSX) read as concepts and turned into glossary conventions."""
