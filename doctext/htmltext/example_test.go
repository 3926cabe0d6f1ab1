package htmltext_test

import (
	"fmt"
	"strings"

	"github.com/paperlens/paperlens/doctext/htmltext"
)

func ExampleExtract() {
	page := `<html><head><title>Notes on k-Max Pooling</title></head><body>
<nav><a href="/">Home</a> <a href="/papers">Papers</a></nav>
<article>
  <h2>1 Introduction</h2>
  <p>The network uses dynamic <math alttext="k"><mi>k</mi></math>-max pooling
     over   linear sequences.</p>
  <table><tr><th>Model</th><th>Acc.</th></tr><tr><td>DCNN</td><td>86.8</td></tr></table>
</article>
<footer>Copyright 2014</footer>
</body></html>`
	doc, err := htmltext.Extract(strings.NewReader(page), "https://example.org/notes")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(doc.Title)
	fmt.Println("---")
	fmt.Println(doc.Text)
	// Output:
	// Notes on k-Max Pooling
	// ---
	// ## 1 Introduction
	//
	// The network uses dynamic k-max pooling over linear sequences.
	//
	// Model | Acc.
	//
	// DCNN | 86.8
}
