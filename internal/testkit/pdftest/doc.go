// Package pdftest builds small hostile PDFs in memory, one per way of
// taking down a PDF parser, for tests of pdftext and of the process
// isolation around it. Every generator is deterministic and takes well
// under 100 ms; Hostile builds them all once and lists them with what each
// does. Good makes a valid one-page PDF to mix into a batch.
//
// Each hostile file is otherwise well formed (exact offsets, valid
// streams and checksums), so it tests one thing.
//
// # What each case did to pdftext.Extract before the guards
//
// Parsed in process by pdftext.Extract over ledongthuc/pdf
// v0.0.0-20260907135840-6c8c28e0e8a0 without the guards, in a child
// process under ulimit -v 2 GiB (TestHostile in doctext/pdftext; "fatal"
// is a Go runtime fatal error, which recover cannot catch and which ends
// the whole process):
//
//	case                        size     before
//	predictor-columns-content   716 B    fatal: out of memory, a 100 GB block, 0.5 s
//	predictor-columns-xref      677 B    fatal: out of memory, a 100 GB block, 0.5 s
//	xref-index-huge             625 B    fatal: out of memory, a 96 GB block, 0.5 s
//	xref-subsection-huge        662 B    fatal: out of memory, a 32 GB block, 0.3 s
//	size-signed                 613 B    fatal: out of memory, a 2.9 TB block, 0.4 s
//	objstm-self                 418 B    fatal: out of memory growing the stack of an endless recursion, 13 s
//	contents-repeat             2.4 MB   fatal: out of memory, 400,000 inflaters, 6 s
//	tounicode-bomb              397 kB   fatal: out of memory building the map, 28 s
//	flate-string-bomb           1.0 MB   fatal: out of memory reading the 1 GiB literal, 30 s
//	prev-loop                   633 B    hang: rereads the same section forever, no memory growth
//	extends-loop                653 B    hang: walks the two streams forever, no memory growth
//	deep-nesting                451 kB   handled: the library stops at depth 1000 ("object nesting exceeds maximum depth")
//
// After the guards (doctext/pdftext's checkXref and the patched library in
// third_party/ledongthuc-pdf), each is an error of its own document, in
// well under a second and far below the cap. Messages, all wrapping
// pdftext.ErrMalformed:
//
//	predictor-columns-content   no page could be read (page 1: unreadable content: Flate predictor with 100000000000 columns is impossible)
//	predictor-columns-xref      damaged cross-reference table: cross-reference stream predictor /Columns 100000000000 is impossible
//	xref-index-huge             damaged cross-reference table: cross-reference stream /Index [3000000000 1] is impossible in a file of 625 bytes
//	xref-subsection-huge        damaged cross-reference table: subsection 999999999 1 is impossible in a file of 662 bytes
//	size-signed                 damaged cross-reference table: /Size +90000000000 is signed
//	objstm-self                 reading page tree: object stream 1 is itself inside an object stream
//	contents-repeat             no page could be read (page 1: content split into 400000 parts (at most 4096 are read))
//	tounicode-bomb              no page could be read (page 1: unreadable content: font /F1: ToUnicode CMap maps more than 262144 codes)
//	flate-string-bomb           no page could be read (page 1: unreadable content: string longer than 16777216 bytes)
//	prev-loop                   damaged cross-reference table: the /Prev chain of cross-reference sections loops back to offset 440
//	extends-loop                reading page tree: object 3 not found: the /Extends chain of object stream 10 loops
//	deep-nesting                reading page tree: object nesting exceeds maximum depth 1000
//
// The "damaged cross-reference table" ones also wrap
// pdftext.ErrDamagedXref. A page-level error is only the document's error
// here because the page is the only one; in a longer document it is a
// warning and the other pages are kept.
package pdftest
