package inspector_test

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/paperlens/paperlens/eval/inspector"
)

// A run folder needs only config.json and results.jsonl; without its
// dataset and corpus the pages show what the records know.
func Example() {
	dir, _ := os.MkdirTemp("", "inspector-example")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "config.json"), []byte(`{"bench":"jsonl","data":"moved.jsonl","home":"moved","model":"m","modes":["full","bm25"],"runs":1}`), 0o644)
	os.WriteFile(filepath.Join(dir, "results.jsonl"), []byte(
		`{"question_id":"q1","mode":"full","run":1,"correct":true}
{"question_id":"q1","mode":"bm25","run":1,"correct":false}
{"question_id":"q2","mode":"full","run":1,"correct":true}
{"question_id":"q2","mode":"bm25","run":1,"correct":true}
`), 0o644)
	site, err := inspector.Load([]string{dir}, inspector.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	// Questions right with the whole paper but wrong with BM25 passages.
	rec := httptest.NewRecorder()
	site.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/r/1/?flipped=lost", nil))
	body := rec.Body.String()
	fmt.Println(rec.Code, strings.Contains(body, `href="/r/1/q/q1"`), strings.Contains(body, `href="/r/1/q/q2"`))
	// Output: 200 true false
}
