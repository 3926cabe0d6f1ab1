package pdftext

import (
	"bytes"
	"context"
	"errors"
	"fmt"
)

func ExampleExtract() {
	// A two-column page built in memory; with a file on disk use
	// ExtractFile(ctx, "paper.pdf") instead.
	data := synthPDF("paper_final_v3.pdf", [][]synthText{append(append(
		[]synthText{
			{x: 150, y: 720, size: 16, s: "A Tiny Two-Column Paper"},
			{x: 60, y: 668, size: 12, s: "1 Introduction"},
		},
		column(60, 650, "The left column is read", "first, even where its", "sentence runs on into")...),
		column(320, 650, "the right column. Its", "words broken by a hy-", "phen are joined again.")...),
	})
	doc, err := Extract(context.Background(), bytes.NewReader(data), int64(len(data)))
	if errors.Is(err, ErrNoText) {
		fmt.Println("scanned paper: OCR it first")
		return
	} else if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Printf("%q, %d page(s)\n\n%s\n", doc.Title, doc.Pages, doc.Text)
	// Output:
	// "A Tiny Two-Column Paper", 1 page(s)
	//
	// A Tiny Two-Column Paper
	//
	// 1 Introduction
	//
	// The left column is read first, even where its sentence runs on into the right column. Its words broken by a hyphen are joined again.
}
