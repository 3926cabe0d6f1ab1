package study_test

import (
	"fmt"

	"github.com/paperlens/paperlens/eval/study"
)

// A model's run folder is named after the model and the paradigm, with the
// characters a file name cannot hold replaced.
func ExampleFolder() {
	fmt.Println(study.Folder("runs", "Qwen/Qwen3-8B:free", "cot"))
	// Output: runs/study-Qwen_Qwen3-8B_free-cot
}

// What a study scores when Config.Retrieval is left empty.
func ExampleDefaultRetrieval() {
	c := study.DefaultRetrieval()
	fmt.Println(c.Retrievers, c.Forms, c.Ks)
	// Output: [bleve okapi dense hybrid] [full stem options] [1 5 10]
}
