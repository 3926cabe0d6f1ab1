package cache

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	bolt "go.etcd.io/bbolt"

	"github.com/paperlens/paperlens/internal/boltopen"
	"github.com/paperlens/paperlens/retrieve/embed"
)

// Bucket layout: one bucket per vector space (the embedder's Name) under
// "spaces", holding key kind‖sha256(text) → little-endian float32s; "dims"
// records each space's vector length.
var (
	bucketSpaces = []byte("spaces")
	bucketDims   = []byte("dims")
	bucketMeta   = []byte("meta")
)

// schemaVersion is bumped when the layout changes incompatibly.
const schemaVersion = 1

// DefaultChunk is how many misses are handed to an embedder that cannot
// stream (not an embed.Streamer) per call: each chunk is stored before the
// next is asked for, so an interrupted run loses at most one chunk.
const DefaultChunk = 256

// Stats counts lookups since Wrap. Hits and Misses count input texts (a
// text asked for twice counts twice); Embedded counts distinct texts sent to
// the inner embedder.
type Stats struct {
	Hits, Misses, Embedded int64
}

// Cached is an embed.Embedder that answers from a bbolt file what it has
// embedded before and asks the inner embedder only for the rest.
type Cached struct {
	inner embed.Embedder
	db    *bolt.DB // nil for a read-only cache whose file does not exist yet
	path  string
	// readOnly caches hold the file under a shared lock and store nothing:
	// several processes can read one cache at once, and none of them waits
	// for, or blocks, another's writer lock by embedding a query.
	readOnly bool
	// Chunk overrides DefaultChunk; set it before the first Embed.
	Chunk int

	hits, misses, embedded atomic.Int64
	dimMu                  sync.Mutex
	dims                   map[string]int // per space, mirrors bucketDims
}

var _ embed.Embedder = (*Cached)(nil)

// Wrap opens (creating when needed) the cache file at path in front of e.
// Several embedders may share one file: their vectors live apart, by Name.
// The file is locked while open; a second process gets an error after a
// short wait rather than hanging.
func Wrap(e embed.Embedder, path string) (*Cached, error) {
	db, err := boltopen.Open(path, boltopen.Options{What: "embedding cache",
		Holder: "an index build, or a search reading the cache"})
	if err != nil {
		return nil, err
	}
	c := &Cached{inner: e, db: db, path: path, dims: map[string]int{}}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bucketSpaces, bucketDims, bucketMeta} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		meta := tx.Bucket(bucketMeta)
		if err := checkSchema(meta); err != nil {
			return err
		}
		if err := meta.Put([]byte("schema"), binary.BigEndian.AppendUint32(nil, schemaVersion)); err != nil {
			return err
		}
		return c.loadDims(tx.Bucket(bucketDims))
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("embedding cache %s: %w", path, err)
	}
	return c, nil
}

// checkSchema refuses a file written in another layout (meta may be nil:
// a file never written to).
func checkSchema(meta *bolt.Bucket) error {
	if meta == nil {
		return nil
	}
	if v := meta.Get([]byte("schema")); v != nil && (len(v) != 4 || binary.BigEndian.Uint32(v) != schemaVersion) {
		return fmt.Errorf("written by an incompatible paperlens (schema %x): delete it to rebuild", v)
	}
	return nil
}

// loadDims mirrors the stored dimension of every space into c.dims.
func (c *Cached) loadDims(dims *bolt.Bucket) error {
	if dims == nil {
		return nil
	}
	return dims.ForEach(func(k, v []byte) error {
		if len(v) == 4 {
			c.dims[string(k)] = int(binary.BigEndian.Uint32(v))
		}
		return nil
	})
}

// WrapReadOnly opens the cache file at path in front of e for lookups only.
// The file is held under a shared lock, so any number of processes can read
// it while none writes; texts it lacks are embedded by e and not stored. A
// missing file is an empty cache. A writer holding the file makes it fail
// after a short wait rather than hang.
func WrapReadOnly(e embed.Embedder, path string) (*Cached, error) {
	c := &Cached{inner: e, path: path, dims: map[string]int{}, readOnly: true}
	db, err := boltopen.Open(path, boltopen.Options{What: "embedding cache", ReadOnly: true,
		Holder: "an index build writing it"})
	if errors.Is(err, boltopen.ErrNoFile) {
		// Nothing stored yet: an empty cache answers nothing.
		return c, nil
	}
	if err != nil {
		return nil, err
	}
	err = db.View(func(tx *bolt.Tx) error {
		if err := checkSchema(tx.Bucket(bucketMeta)); err != nil {
			return err
		}
		return c.loadDims(tx.Bucket(bucketDims))
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("embedding cache %s: %w", path, err)
	}
	c.db = db
	return c, nil
}

// Close releases the file.
func (c *Cached) Close() error {
	if c.db == nil {
		return nil
	}
	return c.db.Close()
}

// Name is the inner embedder's: the cache changes where vectors come from,
// not what they are.
func (c *Cached) Name() string { return c.inner.Name() }

// Dim is the inner embedder's, or, while a remote embedder has not answered
// yet, the length of the vectors cached for its space.
func (c *Cached) Dim() int {
	if d := c.inner.Dim(); d > 0 {
		return d
	}
	c.dimMu.Lock()
	defer c.dimMu.Unlock()
	return c.dims[c.inner.Name()]
}

// Stats reports hits and misses since Wrap.
func (c *Cached) Stats() Stats {
	return Stats{Hits: c.hits.Load(), Misses: c.misses.Load(), Embedded: c.embedded.Load()}
}

func key(kind embed.Kind, text string) []byte {
	h := sha256.Sum256([]byte(text))
	return append([]byte{byte(kind)}, h[:]...)
}

// Embed returns cached vectors and embeds the misses, each distinct text
// once. Every batch the inner embedder finishes is written (and fsynced)
// before the next is stored, so after a failure or a kill the work done so
// far is kept and a rerun embeds only the rest. On error the result holds
// what is available, as the embed.Embedder contract allows.
func (c *Cached) Embed(ctx context.Context, texts []string, kind embed.Kind) ([][]float32, error) {
	space := c.inner.Name()
	out := make([][]float32, len(texts))
	keys := make([][]byte, len(texts))
	for i, t := range texts {
		keys[i] = key(kind, t)
	}
	var err error
	if c.db != nil {
		err = c.db.View(func(tx *bolt.Tx) error {
			spaces := tx.Bucket(bucketSpaces)
			if spaces == nil {
				return nil // a read-only open of a file no writer initialised
			}
			b := spaces.Bucket([]byte(space))
			if b == nil {
				return nil
			}
			want := c.spaceDim(space)
			for i, k := range keys {
				if v := b.Get(k); v != nil && len(v)%4 == 0 && len(v)/4 == want {
					out[i] = decode(v) // copies: v is only valid inside the transaction
				}
			}
			return nil
		})
	}
	if err != nil {
		return nil, fmt.Errorf("embedding cache %s: read: %w", c.path, err)
	}

	// Distinct missing texts, and where each goes in out.
	var missTexts []string
	var missKeys [][]byte
	where := map[string][]int{}
	for i, v := range out {
		if v != nil {
			c.hits.Add(1)
			continue
		}
		c.misses.Add(1)
		k := string(keys[i])
		if _, seen := where[k]; !seen {
			missTexts = append(missTexts, texts[i])
			missKeys = append(missKeys, keys[i])
		}
		where[k] = append(where[k], i)
	}
	if len(missTexts) == 0 {
		return out, nil
	}

	store := func(start int, vecs [][]float32) error {
		// A read-only cache hands the vectors out without storing them.
		if !c.readOnly {
			if err := c.put(space, missKeys[start:start+len(vecs)], vecs); err != nil {
				return err
			}
		}
		for j, v := range vecs {
			for _, i := range where[string(missKeys[start+j])] {
				out[i] = v
			}
		}
		c.embedded.Add(int64(len(vecs)))
		return nil
	}
	if s, ok := c.inner.(embed.Streamer); ok {
		err = s.EmbedStream(ctx, missTexts, kind, store)
	} else {
		err = c.chunked(ctx, missTexts, kind, store)
	}
	return out, err
}

// chunked feeds an embedder that cannot stream in chunks, storing each
// before asking for the next, and keeps the usable part of a partial
// result.
func (c *Cached) chunked(ctx context.Context, texts []string, kind embed.Kind, store func(int, [][]float32) error) error {
	n := c.Chunk
	if n <= 0 {
		n = DefaultChunk
	}
	for lo := 0; lo < len(texts); lo += n {
		hi := min(lo+n, len(texts))
		vecs, err := c.inner.Embed(ctx, texts[lo:hi], kind)
		if err != nil {
			// Keep contiguous runs of finished vectors.
			for i := 0; i < len(vecs) && i < hi-lo; {
				if vecs[i] == nil {
					i++
					continue
				}
				j := i
				for j < len(vecs) && j < hi-lo && vecs[j] != nil {
					j++
				}
				if serr := store(lo+i, vecs[i:j]); serr != nil {
					return errors.Join(err, serr)
				}
				i = j
			}
			return err
		}
		if len(vecs) != hi-lo {
			return fmt.Errorf("%s returned %d vectors for %d texts", c.inner.Name(), len(vecs), hi-lo)
		}
		if err := store(lo, vecs); err != nil {
			return err
		}
	}
	return nil
}

func (c *Cached) spaceDim(space string) int {
	c.dimMu.Lock()
	defer c.dimMu.Unlock()
	return c.dims[space]
}

// put writes one batch in one transaction. The first vector stored for a
// space fixes its length; a later batch of another length means the model
// behind the name changed, and mixing the two would corrupt every index
// built from the cache.
func (c *Cached) put(space string, keys [][]byte, vecs [][]float32) error {
	if len(vecs) == 0 {
		return nil
	}
	d := len(vecs[0])
	for i, v := range vecs {
		if v == nil || len(v) != d {
			return fmt.Errorf("embedding cache: %s returned vectors of lengths %d and %d in one batch", space, d, len(vecs[i]))
		}
	}
	if want := c.spaceDim(space); want != 0 && want != d {
		return fmt.Errorf("embedding cache %s holds %d-dimensional vectors for %s, which now returns %d: the model behind the name changed; delete the cache or rename the model",
			c.path, want, space, d)
	}
	err := c.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.Bucket(bucketSpaces).CreateBucketIfNotExists([]byte(space))
		if err != nil {
			return err
		}
		for i, v := range vecs {
			if err := b.Put(keys[i], encode(v)); err != nil {
				return err
			}
		}
		return tx.Bucket(bucketDims).Put([]byte(space), binary.BigEndian.AppendUint32(nil, uint32(d)))
	})
	if err != nil {
		return fmt.Errorf("embedding cache %s: write: %w", c.path, err)
	}
	c.dimMu.Lock()
	c.dims[space] = d
	c.dimMu.Unlock()
	return nil
}

func encode(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func decode(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}
