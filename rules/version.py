"""The rule-set version, stamped on every result and every generated file.

Bump it whenever a rule's output changes; golden files under tests/golden/ change with it.
"""

RULES_VERSION = "2026.11.14"

# The shape of the result document (rules.result_records): bump it when a field is added,
# and say in rules.result_read how a result of the shape before is read.
RESULT_VERSION = 2
