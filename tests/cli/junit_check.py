"""Parses a thmcheck JUnit file with Python's XML parser and checks its structure."""
import sys
import xml.etree.ElementTree as ET

root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites", root.tag
cases = root.findall(".//testcase")
assert len(cases) == int(root.get("tests")) > 0, (len(cases), root.get("tests"))
failures = sum(1 for c in cases if c.find("failure") is not None)
assert failures == int(root.get("failures")), (failures, root.get("failures"))
for c in cases:
    assert c.get("classname") and c.get("name"), c.attrib
print(f"{len(cases)} test cases, {failures} failures: parsed")
