#!/bin/sh
# Regenerates the PDFs of this folder from maths.tex and t1.tex. Needs
# texlive (pdflatex, latex, dvipdfmx, the amsfonts and lm fonts),
# ghostscript and qpdf: apt-get install texlive-latex-recommended
# texlive-fonts-recommended ghostscript qpdf. Every PDF lacks a ToUnicode
# map, which is the case the extractor must handle by glyph names:
#
#   maths.pdf           pdfTeX: Type 1 fonts with built-in encodings
#   maths-gs.pdf        ghostscript's pdfwrite of it: Type1C (CFF) fonts
#                       with /Differences, or WinAnsi for msbm
#   maths-dvipdfmx.pdf  latex + dvipdfmx: Type1C fonts with built-in
#                       encodings only (ToUnicode maps removed with qpdf,
#                       as older dvipdfmx wrote none)
#   maths-noembed.pdf   maths.pdf with the font programs removed: the
#                       encoding must come from the font's name
#   t1-sf.pdf           T1 (Cork) text, its fonts renamed to cm-super's
#                       SFRM1000/SFTI1000 and not embedded
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# strip FILE PERL-EXPR OUT: edit the uncompressed objects, then repack.
strip() {
	qpdf --qdf --object-streams=disable "$1" "$tmp/q.pdf"
	perl -pi -e "$2" "$tmp/q.pdf"
	fix-qdf "$tmp/q.pdf" >"$tmp/q2.pdf"
	qpdf --object-streams=generate --compress-streams=y --deterministic-id "$tmp/q2.pdf" "$3"
}

pdflatex -interaction=batchmode -output-directory="$tmp" maths.tex >/dev/null
cp "$tmp/maths.pdf" maths.pdf
gs -q -dNOPAUSE -dBATCH -dSAFER -sDEVICE=pdfwrite -sOutputFile=maths-gs.pdf maths.pdf
sed 's/^\\pdfgentounicode=0.*$//' maths.tex >"$tmp/mathsdvi.tex"
(cd "$tmp" && latex -interaction=batchmode mathsdvi.tex >/dev/null && dvipdfmx -q mathsdvi.dvi)
strip "$tmp/mathsdvi.pdf" 's#/ToUnicode \d+ 0 R##' maths-dvipdfmx.pdf
strip maths.pdf 's#/FontFile \d+ 0 R##' maths-noembed.pdf

pdflatex -interaction=batchmode -output-directory="$tmp" t1.tex >/dev/null
strip "$tmp/t1.pdf" 's#/FontFile \d+ 0 R##; s#/Encoding \d+ 0 R##; s#LMRoman10-Regular#SFRM1000#; s#LMRoman10-Italic#SFTI1000#' t1-sf.pdf

for f in maths.pdf maths-gs.pdf maths-dvipdfmx.pdf maths-noembed.pdf t1-sf.pdf; do
	if grep -aq ToUnicode "$f"; then
		echo "$f has a ToUnicode map" >&2
		exit 1
	fi
done
