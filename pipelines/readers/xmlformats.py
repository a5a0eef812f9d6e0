"""The XML formats, by name (an explicit registry: a new XML format is one module and one line here).

Separate from ``registry`` so worker processes import only the XML readers (no PO toolkit).
"""

from __future__ import annotations

from housestyle.pipelines.readers.tbx import TBX_FORMAT
from housestyle.pipelines.readers.tmx import TMX_FORMAT
from housestyle.pipelines.readers.xliff12 import XLIFF12_FORMAT
from housestyle.pipelines.readers.xliff2 import XLIFF2_FORMAT
from housestyle.pipelines.readers.xmlunits import XmlFormat

XML_FORMATS: dict[str, XmlFormat] = {f.name: f for f in (TMX_FORMAT, XLIFF12_FORMAT, XLIFF2_FORMAT, TBX_FORMAT)}
