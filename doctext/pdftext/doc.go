// Package pdftext turns a research-paper PDF into clean, ordered text:
// words correctly spaced, two-column pages read column by column,
// hyphenation undone, ligatures expanded, running headers, footers and page
// numbers removed, and section headings set apart as their own paragraphs.
//
// # Why not the library's text functions
//
// github.com/ledongthuc/pdf parses the file, but its text helpers are not
// usable for papers. GetPlainText concatenates the strings of the text
// operators: pdfTeX never draws a space character, it moves the pen, so
// words come out glued ("Deeplearninghas"). GetTextByRow only looks at Tm
// operators and reports y=0 for text positioned with Td, so it cannot form
// lines. Page.Content computes positions, but looks the font up again for
// every glyph (the library re-parses objects on every access, re-inflating
// whole object streams), about 100 ms per page, and it indexes two-byte
// (Identity-H) codes as single bytes.
//
// So this package walks the content streams itself with the library's
// low-level pdf.Interpret, keeping its own graphics and text state (CTM,
// text matrix, font, size, character and word spacing, horizontal scaling,
// rise), following Form XObjects, and caching every font once per document
// by object number: widths in a slice, ToUnicode read by a small CMap
// reader of our own, and, for fonts without one (pdfTeX writes none unless
// told to), glyph names: those of /Differences, of the encoding embedded in
// Type 1 and CFF (Type1C) programs, or of a TeX font's known encoding
// chosen by its name (CMMI10, MSBM7, SFRM1000), mapped through pdfTeX's
// glyph list (the Adobe Glyph List plus TeX's names; texenc_gen.go is
// generated from TeX Live by internal/gen/texenc). cmex's big operators
// become ∑ ∫ ⋃, msbm's letters ℝ ℕ, cmsy's calligraphic ones 𝒜. The
// ToUnicode maps Mac OS X's Quartz writes for TeX fonts (θ as ✓, π as ⇡)
// are recognised and overruled by the names. Symbol and ZapfDingbats,
// rarely embedded and then without any encoding, use their built-in ones
// (groff's Greek letters).
//
// # Layout: glyphs → words → lines → blocks → columns → reading order
//
//   - Glyphs, in content-stream order, form words; a horizontal gap wider
//     than wordGap (0.12 em) or an explicit space ends a word. Accents drawn
//     as separate glyphs are composed with their letter.
//   - Words sharing a baseline form lines, split at gaps wider than lineGap
//     (1.1 em), which separates columns, and at any space of 0.75 em or more
//     across a gutter found from the words themselves (the x with the
//     longest run of baselines that have such a space there and no word
//     across it), for gutters narrower than lineGap, such as LaTeX's
//     default 10 pt. Pieces split by wide justified spaces are rejoined
//     when no column gutter lies between them, or when three or more prose
//     pieces are evenly spaced (one justified line, even where the gutter
//     is unknown), and sub- and superscripts are folded into the line they
//     belong to.
//   - Lines stacked at a regular leading, overlapping horizontally and of
//     similar size form blocks (paragraphs, or runs of paragraphs, within a
//     column).
//   - Mathematics is put back together: a summation sign, its limits or an
//     inline fraction set on baselines of their own inside a paragraph are
//     moved into the line they fit into; the pieces of a display equation
//     (and its number at the column edge), or the side-by-side columns of a
//     table sharing baselines, are gathered into one block whose lines are
//     read as rows. Such a block is marked as an equation (kept in place as
//     a paragraph of its own) or a float (a table or figure, like the
//     blocks next to a caption), which is held back until the sentence it
//     interrupts ends.
//   - Each page's column gutter is the vertical strip near the middle with
//     the fullest stretch of long lines beside it on both sides and none
//     across it, so full-width title blocks, abstracts, tables and figures
//     above or below the columns do not hide it.
//     The page is cut into horizontal bands at full-width white space (the
//     title and author area, full-width figures), except where running
//     text of the right column lies above the cut and running text of the
//     left column below it (the column flow continues across it). Inside a
//     band, blocks are ordered topologically by Breuel's rules: a before b
//     if they overlap horizontally and a is higher, or a lies left of b
//     with nothing between them spanning both; a cycle is broken where the
//     fewest blocks still wait. Text in other directions (rotated tables,
//     axis labels) is laid out in its own frame and read after the page's
//     flow.
//
// # Cleaning
//
// Lines in the top and bottom margins whose text (digits ignored) recurs at
// the same height on several pages, and bare page numbers, are dropped. The
// margins are the top and bottom 12% of the page and also the page's own
// first and last text lines, where a line must hold letters (or be a bare
// page number) to go: an A4 running header set lower than 88% of the
// height goes, a table's numbers at the top of a page stay.
// Tables are found per page before paragraphs are formed: lines cut into
// cells at gaps wider than an em, three or more rows with cells lining up
// in columns. A table is written one row per line with tabs between cells,
// and is held back like a figure while a sentence is open.
// Blocks become paragraphs by indentation, short last lines and hanging
// indents (reference lists); a paragraph continues across a column or page
// break when it stops mid-sentence and the next block goes on in running
// text. Footnotes, conference footers and figures met mid-sentence are held
// back until the interrupted paragraph ends. Words broken at a line end are
// rejoined without the hyphen, as pdftotext does, unless the second part is
// capitalised or the hyphenated form is used elsewhere in the document.
// Finally the text is NFKC-normalised, which expands ligatures (ﬁ → fi),
// except for maths letters (ℝ, ℓ, ϕ, ϵ, 𝒜), which NFKC would fold into
// plain ones.
//
// # Kinds
//
// The paragraphs are then classified into kind spans (Document.Spans, with
// the vocabulary of package chunk/kind): headings, tables, captions, the
// references (from their heading to the next heading), a contents page
// (dot leaders and page numbers), first-page front matter (e-mail
// addresses, venue footers, licence lines; not the title or abstract) and
// figure text (runs of short labels near a figure caption, rotated lines),
// whose runs are joined into one paragraph. Headings are only short lines
// of words: a line with '=', maths symbols, mostly numbers or a repeated
// table header never becomes one. Nothing is removed here; ingest's --drop
// decides what goes.
//
// The title comes from the /Title metadata when it looks like a title (not
// a file name, "icml2015_dpm" or "Microsoft Word - ..."), otherwise from
// the largest type at the top of page 1.
//
// # Scope and cost
//
// Extract is sequential and safe to call from several goroutines on
// different documents; pages are processed independently except for the
// shared font cache. On the test corpus it runs at about pdftotext's speed.
// Scanned PDFs without a text layer give ErrNoText: there is no OCR here.
// Known gaps: vertical writing modes, predefined CJK CMaps other than
// Identity-H, Type 3 bitmap fonts (pdfTeX's PK fonts name their glyphs
// /a42 and carry no font name), and the layout of mathematics, which comes
// out as a jumble of correct symbols (as with pdftotext); TeX's sized
// delimiters are left out rather than placed on lines of their own.
package pdftext
