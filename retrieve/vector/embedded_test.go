package vector_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/paperlens/paperlens/internal/testkit/vectortest"
	"github.com/paperlens/paperlens/retrieve/vector"
)

func openDir(t *testing.T, dir string) *vector.Embedded {
	t.Helper()
	s, err := vector.OpenEmbedded(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestEmbeddedContract(t *testing.T) {
	vectortest.Run(t, func(t *testing.T, dim int) vector.Store {
		return openDir(t, t.TempDir())
	})
}

func TestMemoryContract(t *testing.T) {
	vectortest.Run(t, func(t *testing.T, dim int) vector.Store {
		return vector.NewMemory()
	})
}

func TestEmbeddedReopen(t *testing.T) {
	vectortest.RunReopen(t,
		func(t *testing.T, dim int) vector.Store { return openDir(t, t.TempDir()) },
		func(t *testing.T, s vector.Store) vector.Store {
			dir := filepath.Dir(s.(*vector.Embedded).Path())
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			return openDir(t, dir)
		})
}

// Two stores over one folder, as two processes would have: the file, not a
// store's memory, decides the dimension.
func TestEmbeddedDimensionFromFile(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	a, b := openDir(t, dir), openDir(t, dir)
	if err := b.Upsert(ctx, []vector.Point{{ID: "p#0", PaperID: "p", Vector: []float32{1, 0, 0, 0, 0, 0, 0, 0}}}); err != nil {
		t.Fatal(err)
	}
	err := a.Upsert(ctx, []vector.Point{{ID: "q#0", PaperID: "q", Vector: []float32{1, 0, 0, 0}}})
	if !errors.Is(err, vector.ErrDimension) {
		t.Fatalf("upsert of 4-vectors into a file holding 8-vectors: err = %v, want ErrDimension", err)
	}
	if n, _ := a.Count(ctx); n != 0 {
		t.Errorf("refused upsert still counted: Count() = %d", n)
	}
	c := openDir(t, dir)
	if c.Dim() != 8 {
		t.Errorf("reopened Dim() = %d, want 8", c.Dim())
	}
	if n, _ := c.Count(ctx); n != 1 {
		t.Errorf("reopened Count() = %d, want 1", n)
	}
}

func TestEmbeddedDamagedFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, vector.FileName)
	if err := os.WriteFile(path, []byte(strings.Repeat("not a bbolt file ", 1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := vector.OpenEmbedded(dir)
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("opening a damaged file: err = %v, want an error naming %s", err, path)
	}
}

// TestEmbeddedCrash kills a writer mid-stream with SIGKILL, which runs no
// deferred code and flushes nothing, then checks the store opens and holds
// only whole batches: each batch is one paper of batchSize points, so any
// torn write would show as a paper of another size or a count that is not
// a multiple of batchSize. The writer is killed after 3 to 20 commits, so
// as often during a merge (every 8 writes) as during a plain write. The
// next writer then goes on writing, and clears what the killed one left.
func TestEmbeddedCrash(t *testing.T) {
	const batchSize = 300
	if dir := os.Getenv("PAPERLENS_VECTOR_CRASH_DIR"); dir != "" {
		crashWriter(dir, batchSize)
		return
	}
	if testing.Short() {
		t.Skip("spawns a writer process")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestEmbeddedCrash$")
	cmd.Env = append(os.Environ(), "PAPERLENS_VECTOR_CRASH_DIR="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Let a few batches commit, then kill at a moment unrelated to the
	// writer's progress, most likely in the middle of a transaction.
	sc := bufio.NewScanner(out)
	for commits, stop := 0, 3+rand.IntN(18); commits < stop && sc.Scan(); {
		if strings.HasPrefix(sc.Text(), "committed") {
			commits++
		}
	}
	time.Sleep(time.Duration(rand.IntN(20)) * time.Millisecond)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	s := openDir(t, dir)
	n, err := s.Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 || n%batchSize != 0 {
		t.Fatalf("after a killed write: %d points, want a positive multiple of %d", n, batchSize)
	}
	q := make([]float32, 32)
	q[0] = 1
	for i := range n / batchSize {
		got, err := s.Search(context.Background(), q, fmt.Sprintf("paper%d", i), batchSize+1)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != batchSize {
			t.Fatalf("paper%d has %d points, want %d", i, len(got), batchSize)
		}
	}
	t.Logf("killed writer after %d whole batches", n/batchSize)

	// Resume: the next write succeeds, counts everything once, and leaves
	// no file the manifest does not name.
	pts := make([]vector.Point, batchSize)
	for j := range pts {
		v := make([]float32, 32)
		v[j%32] = 1
		pts[j] = vector.Point{ID: fmt.Sprintf("resumed#%d", j), PaperID: "resumed", Vector: v}
	}
	if err := s.Upsert(context.Background(), pts); err != nil {
		t.Fatalf("write after a killed writer: %v", err)
	}
	again := openDir(t, dir)
	if m, _ := again.Count(context.Background()); m != n+batchSize {
		t.Errorf("after resuming: %d points, want %d", m, n+batchSize)
	}
	raw, err := os.ReadFile(filepath.Join(dir, vector.FileName))
	if err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	for _, d := range ents {
		if name := d.Name(); strings.HasPrefix(name, "seg-") && !strings.Contains(string(raw), name) || strings.HasPrefix(name, ".") {
			t.Errorf("%s left behind after the next write", name)
		}
	}
}

func crashWriter(dir string, batchSize int) {
	s, err := vector.OpenEmbedded(dir)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	r := rand.New(rand.NewPCG(1, 1))
	for i := 0; ; i++ {
		pts := make([]vector.Point, batchSize)
		for j := range pts {
			v := make([]float32, 32)
			for k := range v {
				v[k] = float32(r.NormFloat64())
			}
			pts[j] = vector.Point{ID: fmt.Sprintf("paper%d#%d", i, j), PaperID: fmt.Sprintf("paper%d", i), Vector: v}
		}
		if err := s.Upsert(context.Background(), pts); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("committed", i)
	}
}

func TestEmbeddedCancelled(t *testing.T) {
	s := vector.NewMemory()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Search(ctx, []float32{1}, "", 1); !errors.Is(err, context.Canceled) {
		t.Errorf("search with a cancelled context: err = %v, want context.Canceled", err)
	}
	if err := s.Upsert(ctx, []vector.Point{{ID: "a#0", PaperID: "a", Vector: []float32{1}}}); !errors.Is(err, context.Canceled) {
		t.Errorf("upsert with a cancelled context: err = %v, want context.Canceled", err)
	}
}

func TestEmbeddedEmptyFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, vector.FileName), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s := openDir(t, dir)
	if err := s.Upsert(context.Background(), []vector.Point{{ID: "a#0", PaperID: "a", Vector: []float32{1, 2}}}); err != nil {
		t.Fatalf("upsert into a store whose file is empty: %v", err)
	}
	if n, _ := openDir(t, dir).Count(context.Background()); n != 1 {
		t.Errorf("reopened Count() = %d, want 1", n)
	}
}
