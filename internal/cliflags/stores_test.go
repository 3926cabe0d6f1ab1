package cliflags

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// --vector-store and its first name --store set one setting; the Qdrant
// and BM25 store flags reach session.Index.
func TestStoreFlags(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--store", "qdrant"},
		{"--vector-store", "qdrant"},
	} {
		var f Index
		parse(t, f.Add, append(args, "--qdrant-shards", "3", "--qdrant-ef", "64", "--bm25-store", "qdrant", "--collection", "papers")...)
		x := f.Spec(nil)
		if x.Store != "qdrant" || x.QdrantShards != 3 || x.QdrantEF != 64 || x.BM25Store != "qdrant" {
			t.Errorf("%v: %+v", args, x)
		}
		if rec := x.Recorded(); rec["vector_store"] != "qdrant" || rec["bm25_store"] != "qdrant" || rec["qdrant_shards"] != "3" || rec["qdrant_ef"] != "64" || rec["qdrant_collection"] != "papers" {
			t.Errorf("%v: recorded %v", args, rec)
		}
	}
	var f Index
	parse(t, f.Add)
	x := f.Spec(nil)
	if x.Store != "embedded" || x.BM25Store != "embedded" || x.QdrantShards != 0 || x.QdrantEF != 128 {
		t.Errorf("defaults: %+v", x)
	}
	if err := x.Check(); err != nil {
		t.Errorf("defaults do not pass Check: %v", err)
	}
	fl := pflag.NewFlagSet("help", pflag.ContinueOnError)
	f.Add(fl)
	for _, name := range []string{"store", "vector-store", "bm25-store", "qdrant-shards", "qdrant-ef"} {
		if fl.Lookup(name) == nil || fl.Lookup(name).Hidden {
			t.Errorf("--%s is missing or hidden: both names of the vector store are documented", name)
		}
	}
}

// --index-memory reaches the index's Config in bytes; left out, the
// index applies its default; too little is refused with the flag named.
func TestIndexMemoryFlag(t *testing.T) {
	t.Parallel()
	var f Index
	parse(t, f.Add, "--index-memory", "1GiB")
	if got := f.Spec(nil).Config(t.TempDir()).IndexMemory; got != 1<<30 {
		t.Errorf("--index-memory 1GiB: Config.IndexMemory = %d", got)
	}
	var d Index
	parse(t, d.Add)
	if got := d.Spec(nil).Config(t.TempDir()).IndexMemory; got != 0 {
		t.Errorf("default: Config.IndexMemory = %d, want 0 (the index's DefaultIndexMemory)", got)
	}
	var small Index
	fl := pflag.NewFlagSet("t", pflag.ContinueOnError)
	small.Add(fl)
	if err := fl.Parse([]string{"--index-memory", "1MiB"}); err == nil || !strings.Contains(err.Error(), "--index-memory") {
		t.Errorf("--index-memory 1MiB: err = %v", err)
	}
}
