// Package chunk segments a paper's text into the retrieval passages of the
// ElaipBench RAG setting: consecutive, non-overlapping passages of at most
// 512 cl100k_base tokens that end on sentence boundaries (ElaipBench, section
// 4.6 and appendix A.7).
//
// The pipeline is
//
//	Headings  -> section titles, each a line of its own
//	Sentences -> sentence spans tiling the text (punkt plus paper-specific rules)
//	Split     -> greedy packing of whole sentences into passages, then each
//	             passage under MinTokens (32 by default: a title alone, a
//	             caption) merged into a neighbour that has room
//
// Every stage works on byte offsets into the unmodified input, so a passage's
// Text is always text[Start:End] and concatenating all passages gives the
// input back byte for byte; nothing is normalised, trimmed or dropped.
//
// Token counts come from the subpackage [github.com/paperlens/paperlens/chunk/tokens],
// an offline cl100k_base implementation that matches tiktoken-go token for
// token. A passage's Tokens is counted on the passage's own text, which is
// what a model receiving that passage alone would see.
//
// Time and memory are linear in the length of the text whatever its shape,
// so hostile input costs no more per byte than a paper: a sentence longer
// than MaxTokens is encoded a window at a time as it is cut, long runs of
// blanks are skipped once, and a pre-tokenisation piece longer than
// [tokens.MaxPiece] bytes is merged in blocks (whose token counts may differ
// from tiktoken's by about one per block; see the tokens package). A 20 MB
// line of letters without a space is split in a few seconds.
//
// All functions are safe for concurrent use. The punkt model and the BPE
// ranks are built into the binary and loaded once, on first use.
package chunk
