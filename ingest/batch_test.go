package ingest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/paperlens/paperlens/corpus"
)

// writePapersDataset writes a JSON Lines dataset of n papers made from the
// real texts of testdata/papers, each set apart by a closing line, and
// returns its path and the papers' ids in order.
func writePapersDataset(t *testing.T, n int) (string, []string) {
	t.Helper()
	var texts []string
	for _, name := range []string{"claim-anchored-verification.md", "lagged-replay-curriculum.txt", "tidal-token-pruning.md"} {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "papers", name))
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(b))
	}
	path := filepath.Join(t.TempDir(), "papers.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	ids := make([]string, n)
	for i := range n {
		ids[i] = fmt.Sprintf("paper-%03d", i)
		row := map[string]string{"paper_id": ids[i], "paper_content": texts[i%len(texts)] + fmt.Sprintf("\n\nThis is copy %d of the paper.\n", i)}
		if err := enc.Encode(row); err != nil {
			t.Fatal(err)
		}
	}
	return path, ids
}

// A dataset is stored BatchPapers papers to a transaction, not one each,
// and every paper is stored whole; a rerun writes nothing.
func TestDatasetCommitsInBatches(t *testing.T) {
	// Only the batch size may close a batch here: a machine slowed by
	// other tests must not split them by time.
	defer func(w time.Duration) { batchWait = w }(batchWait)
	batchWait = time.Hour
	const n = 2*BatchPapers + 2
	data, ids := writePapersDataset(t, n)
	st, err := corpus.Open(t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	opt := Options{Workers: 2, Isolation: &Isolation{Off: true}}
	statuses := map[string]int{}
	failed, err := Run(context.Background(), st, []string{data}, opt, func(r Result) { statuses[r.Status]++ })
	if err != nil || failed != 0 || statuses[StatusOK] != n {
		t.Fatalf("ingest of %d papers: %d failed, %v, statuses %v", n, failed, err, statuses)
	}
	if got, want := st.Commits(), int64((n+BatchPapers-1)/BatchPapers); got != want {
		t.Errorf("%d papers took %d commits, want %d (%d a batch)", n, got, want, BatchPapers)
	}
	if docs, _ := st.Docs(); len(docs) != n || docs[0].PaperID != ids[0] || docs[n-1].PaperID != ids[n-1] {
		t.Errorf("%d papers stored, want %d", len(docs), n)
	}
	if errs := st.Check(); len(errs) > 0 {
		t.Fatalf("store inconsistent: %v", errs)
	}
	before := st.Commits()
	statuses = map[string]int{}
	if _, err := Run(context.Background(), st, []string{data}, opt, func(r Result) { statuses[r.Status]++ }); err != nil || statuses[StatusSkipped] != n {
		t.Fatalf("rerun: %v, statuses %v; want all %d skipped", err, statuses, n)
	}
	if st.Commits() != before {
		t.Errorf("a rerun with nothing to store committed %d times", st.Commits()-before)
	}
}

// killChildEnv makes the test binary the child of TestDatasetKilledMidBatch
// (see killChild): HOME_DIR|DATASET.
const killChildEnv = "PAPERLENS_INGEST_KILL_CHILD"

// midBatch is what the child prints when it holds half a batch, a batch
// having been committed before it.
const midBatch = "MIDBATCH"

// killChild ingests a dataset into a home, printing each result as a JSON
// line, and stops for good (to be killed) once half of its second batch
// is gathered: papers extracted and chunked, held for a commit that never
// comes.
func killChild(spec string) int {
	home, data, _ := strings.Cut(spec, "|")
	st, err := corpus.Open(home, false)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	batchWait = time.Hour
	out := bufio.NewWriter(os.Stdout)
	batchHook = func(gathered int) {
		if st.Commits() == 1 && gathered == BatchPapers/2 {
			fmt.Fprintln(out, midBatch)
			out.Flush()
			select {} // the parent kills the process here
		}
	}
	enc := json.NewEncoder(out)
	_, err = Run(context.Background(), st, []string{data}, Options{Workers: 2, Isolation: &Isolation{Off: true}}, func(r Result) {
		_ = enc.Encode(r)
		out.Flush()
	})
	fmt.Fprintln(os.Stderr, "the child ran to the end:", err)
	return 3
}

// An ingest killed with SIGKILL while it holds half a batch leaves the
// batches committed before, every paper of them whole, and none of the
// batch it held; a rerun stores the rest and skips what was stored.
func TestDatasetKilledMidBatch(t *testing.T) {
	const n = BatchPapers + BatchPapers/2 + 4
	data, ids := writePapersDataset(t, n)
	home := t.TempDir()
	c := exec.Command(os.Args[0], "-test.run=^$")
	c.Env = append(os.Environ(), killChildEnv+"="+home+"|"+data)
	var stderr strings.Builder
	c.Stderr = &stderr
	stdout, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	reported := map[string]string{}
	sc := bufio.NewScanner(stdout)
	held := false
	for sc.Scan() {
		if sc.Text() == midBatch {
			held = true
			break
		}
		var r Result
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("child printed %q: %v", sc.Text(), err)
		}
		reported[r.PaperID] = r.Status
	}
	if err := c.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = c.Wait()
	if !held {
		t.Fatalf("the child never held half a batch; stderr:\n%s", stderr.String())
	}
	if len(reported) != BatchPapers {
		t.Fatalf("%d papers reported before the kill, want the first batch of %d", len(reported), BatchPapers)
	}

	st, err := corpus.Open(home, false)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if errs := st.Check(); len(errs) > 0 {
		t.Fatalf("store inconsistent after SIGKILL mid-batch: %v", errs)
	}
	docs, err := st.Docs()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if reported[d.PaperID] != StatusOK {
			t.Errorf("%s is stored but was not reported stored before the kill", d.PaperID)
		}
	}
	if len(docs) != BatchPapers {
		t.Fatalf("%d papers stored after the kill, want the committed batch of %d", len(docs), BatchPapers)
	}

	statuses := map[string]string{}
	failed, err := Run(context.Background(), st, []string{data}, Options{Workers: 2, Isolation: &Isolation{Off: true}}, func(r Result) { statuses[r.PaperID] = r.Status })
	if err != nil || failed != 0 || len(statuses) != n {
		t.Fatalf("rerun: %d failed, %v, %d results; want %d", failed, err, len(statuses), n)
	}
	for _, id := range ids {
		want := StatusOK
		if reported[id] == StatusOK {
			want = StatusSkipped
		}
		if statuses[id] != want {
			t.Errorf("rerun %s: %s, want %s", id, statuses[id], want)
		}
	}
	if docs, _ := st.Docs(); len(docs) != n {
		t.Errorf("%d papers stored after the rerun, want %d", len(docs), n)
	}
	if errs := st.Check(); len(errs) > 0 {
		t.Fatalf("store inconsistent after the rerun: %v", errs)
	}
}
