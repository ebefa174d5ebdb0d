#!/bin/sh
# Run the end-to-end pytest suite (under `make check`, which sets WEFT,
# WEFT_SRCDIR, WEFT_CAT_PATH and PYTHON3).
: "${WEFT_SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${PYTHON3:=/usr/bin/python3}"
if ! "$PYTHON3" -c 'import pytest' 2>/dev/null; then
	echo "run-pytest: $PYTHON3 has no pytest (apt-get install python3-pytest)" >&2
	exit 99
fi
cd "$WEFT_SRCDIR/tests" && exec "$PYTHON3" -m pytest -q -p no:cacheprovider -rs .
