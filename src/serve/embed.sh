#!/bin/sh
# embed.sh FILE... — each FILE (the page's HTML, script, style) as a C
# string constant serve_NAME (page.js: serve_page_js) on standard output:
# the page is part of weft, served with no file read at run time.
# Backslashes and quotes are escaped, and '?' too, so that no '??x' of a
# script reads as a C trigraph.
set -e
echo '/* made by src/serve/embed.sh from the page'"'"'s files: edit those, not this */'
echo '#include "serve/serve_page.h"'
for f in "$@"; do
	name=$(basename "$f" | tr '.-' '__')
	echo "const char serve_$name[] ="
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/\t"/' -e 's/$/\\n"/' "$f"
	echo '	"";'
done
