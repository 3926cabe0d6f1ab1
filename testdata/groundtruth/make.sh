#!/bin/sh
# make.sh regenerates NAME.pdf from every NAME.tex in this directory with
# pdflatex, byte for byte the same on every run with the same TeX Live:
# SOURCE_DATE_EPOCH fixes the dates, and each .tex sets \pdfinfoomitdate,
# \pdftrailerid{} and \pdfsuppressptexinfo so no time or path reaches the
# file. Fonts stay pdflatex's default: Type 1 Computer Modern embedded with
# no ToUnicode map, the case the extractor has to handle.
#
# Usage: testdata/groundtruth/make.sh [NAME...]
set -eu
cd "$(dirname "$0")"
export SOURCE_DATE_EPOCH=1700000000 FORCE_SOURCE_DATE=1 TZ=UTC
if [ "$#" -eq 0 ]; then
	set -- $(ls *.tex | sed 's/\.tex$//')
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for name in "$@"; do
	# Twice, so the contents page and references see the first run's .aux.
	for pass in 1 2; do
		pdflatex -interaction=nonstopmode -halt-on-error -output-directory="$tmp" "$name.tex" >"$tmp/$name.log.txt" 2>&1 || {
			cat "$tmp/$name.log.txt" >&2
			echo "make.sh: pdflatex failed on $name.tex (pass $pass)" >&2
			exit 1
		}
	done
	cp "$tmp/$name.pdf" "$name.pdf"
	echo "$name.pdf $(wc -c <"$name.pdf") bytes"
done
